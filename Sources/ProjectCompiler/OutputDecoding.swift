import CompositionGraph
import Foundation
import JSONSchema
import MediaFormat
import MediaTime
import ProjectFile

/// What the command line says about the output, which the project's `output` is fitted to.
public struct OutputTarget: Sendable, Equatable {
    /// `-o`: wins over `output.path`, and its extension over `output.container`.
    public var path: String?
    /// `--audio-only`: write the audio stream alone, whatever the project shows.
    public var audioOnly: Bool
    /// `--preset`: the preset replaces the project's codecs, so they need not fit the container.
    public var presetCodecs: Bool

    public init(path: String? = nil, audioOnly: Bool = false, presetCodecs: Bool = false) {
        self.path = path
        self.audioOnly = audioOnly
        self.presetCodecs = presetCodecs
    }
}

/// The `output` section, fitted to its container: the container comes from `-o`'s extension,
/// else `output.container`, else `output.path`'s extension; a codec not given is the
/// container's first (`Container.videoCodecs`/`audioCodecs`), one given must be one the
/// container holds, and the video is left out when the container holds none or `--audio-only`
/// asks (and, once compiled, when the project shows none but has sound: `ProjectPipeline`). With no container known yet (`reel validate` of a project
/// without `output.path`), the codecs are MP4's and the render fits them again to its file.
extension ProjectDecoder {
    mutating func decodeOutput(_ c: NodeCursor?) -> OutputSpec {
        if let size = c?["size"]?.elements, size.count == 2, let w = size[0].int, let h = size[1].int {
            frameSize = PixelSize(width: w, height: h)
            limit(ProjectLimits.problem(outputWidth: w, height: h), at: c!["size"]!.origin)
            if w % 2 != 0 || h % 2 != 0 {
                problems.report("output size \(w)x\(h) has an odd side; 4:2:0 video needs even sizes", at: c!["size"]!.origin,
                                hint: "use \(w + w % 2)x\(h + h % 2)")
            }
        }
        if let f = c?["fps"] { fps = decodeFPS(f) ?? fps }
        let background = c?["background"].flatMap { color($0) } ?? .black
        let duration = c?["duration"].flatMap { positiveTime($0) }
        let path = c?["path"]?.string.map(absolutePath)
        let container = outputContainer(c, path: path)
        let v = c?["video"], a = c?["audio"]
        if let v { exclusive("crf", "bitrate", in: v, because: "are two ways to set the quality; keep one") }
        let holdsVideo = container?.holdsVideo ?? true
        let writesVideo = holdsVideo && !target.audioOnly
        // Audio alone asked for on the command line (`--audio-only`, `-o out.wav`): the
        // project's video settings are for its other outputs, not a mistake in this one.
        let audioOnlyByCommand = target.audioOnly || (target.path != nil && !holdsVideo)
        let fitted = fittedCodec(audioOnlyByCommand ? nil : v?["codec"], in: container,
                                 holds: container?.videoCodecs ?? Container.mp4.videoCodecs, kind: "video", audioOnlyContainer: !holdsVideo) ?? .h264
        let alpha = writesVideo ? alphaVideo(fitted, background: c?["background"], in: container, given: v) : nil
        let videoCodec = alpha?.codec ?? fitted
        let videoBitrate = v?["bitrate"].flatMap { bitrate($0) }
        if writesVideo, !target.presetCodecs, !(alpha != nil && videoCodec == .prores), let given = v?["preset"] {
            checkPreset(given, of: videoCodec)
        }
        let video = OutputSettings.Video(
            codec: videoCodec, crf: v?["crf"]?.int ?? (videoBitrate == nil ? videoCodec.defaultCRF : nil), bitrate: videoBitrate,
            preset: alpha?.preset ?? v?["preset"]?.string,
            pixelFormat: alpha?.pixelFormat ?? v?["pixel_format"]?.string ?? videoCodec.defaultPixelFormat, gopSize: v?["gop"]?.int)
        let audioCodec = fittedCodec(a?["codec"], in: container, holds: container?.audioCodecs ?? Container.mp4.audioCodecs,
                                     kind: "audio", audioOnlyContainer: false) ?? .aac
        let audio = OutputSettings.Audio(
            codec: audioCodec, bitrate: a?["bitrate"].flatMap { bitrate($0) } ?? audioCodec.defaultBitrate,
            sampleRate: a?["sample_rate"]?.int ?? 48000, channels: a?["channels"]?.int ?? 2,
            loudness: a?["loudness"]?.double.map { LoudnessTarget(integrated: $0, truePeak: a?["true_peak"]?.double ?? -1) })
        var metadata: [String: String] = [:]
        for (key, value) in c?["metadata"]?.members ?? [] { metadata[key] = value.string }
        var settings = OutputSettings(path: path, container: container, video: writesVideo ? video : nil, audio: audio,
                                      faststart: c?["faststart"]?.bool ?? false, metadata: metadata)
        if let segment = c?["segment"].flatMap({ positiveTime($0) }) { settings.segmentLength = segment }
        if container == .gif { settings.gifLimits = decodeGIFLimits(c?["gif"]) }
        if let container, container.isImageSequence, target.path == nil, let path, !ImageSequencePattern.has(path), let node = c?["path"] {
            problems.report("a .\(URL(fileURLWithPath: path).pathExtension) output is an image sequence, one file a frame, "
                            + "and its name has no frame number", at: node.origin,
                            hint: "put %04d where the number goes: \(ImageSequencePattern.suggestion(for: node.string ?? path))")
        }
        return OutputSpec(size: frameSize, fps: fps, background: background, duration: duration, settings: settings,
                          keepPitch: a?["keep_pitch"]?.bool ?? false, durationOrigin: c?["duration"]?.origin)
    }

    /// `output.gif`: the most a GIF is made, 480 pixels wide and 15 fps unless it says.
    private mutating func decodeGIFLimits(_ c: NodeCursor?) -> GIFLimits {
        let standard = GIFLimits.standard
        return GIFLimits(maxWidth: c?["max_width"]?.int ?? standard.maxWidth,
                         maxFrameRate: c?["max_fps"].flatMap { decodeFPS($0) } ?? standard.maxFrameRate)
    }

    /// A project shows pictures when a video track has clips or an overlay is drawn.
    static func hasVideo(_ root: NodeCursor) -> Bool {
        let tracks = root["video"]?.elements ?? []
        return tracks.contains { !($0["clips"]?.elements.isEmpty ?? true) } || !(root["overlays"]?.elements.isEmpty ?? true)
    }

    /// The container of the output: `-o`'s extension, else `output.container`, else
    /// `output.path`'s extension; a project path that names none is reported at `output.path`.
    private mutating func outputContainer(_ c: NodeCursor?, path: String?) -> Container? {
        if let given = target.path, let container = Container(fileExtension: URL(fileURLWithPath: given).pathExtension) {
            return container
        }
        if let container = c?["container"]?.string.flatMap(Container.init(rawValue:)) { return container }
        guard target.path == nil, let path, let node = c?["path"] else { return nil }
        let ext = URL(fileURLWithPath: path).pathExtension
        guard let container = Container(fileExtension: ext) else {
            problems.report("cannot tell the container from \(ext.isEmpty ? "a name without an extension" : "'.\(ext)'")", at: node.origin,
                            hint: "end the name with .\(Container.fileExtensions.joined(separator: ", .")), or set output.container")
            return nil
        }
        return container
    }

    /// A problem at `given` unless `codec`'s encoder takes the preset it names
    /// (`VideoCodec.presets`), found before any frame is rendered.
    private mutating func checkPreset(_ given: NodeCursor, of codec: VideoCodec) {
        guard let name = given.string, !codec.presets.contains(name) else { return }
        if codec.presets.isEmpty {
            problems.report("\(codec.rawValue) output takes no preset", at: given.origin, hint: "leave preset out")
        } else {
            problems.report("'\(name)' is not a preset of \(codec.rawValue)", at: given.origin,
                            hint: Suggestion.didYouMean(name, among: codec.presets) ?? "its presets: \(codec.presets.joined(separator: ", "))")
        }
    }

    /// The codec given at `node`, when `container` holds it (else a problem at the node), or
    /// the container's first; nil when the container holds none of this kind.
    private mutating func fittedCodec<Codec: RawRepresentable<String> & Equatable>(
        _ node: NodeCursor?, in container: Container?, holds codecs: [Codec], kind: String, audioOnlyContainer: Bool
    ) -> Codec? {
        guard !target.presetCodecs, let node, let name = node.string, let codec = Codec(rawValue: name) else { return codecs.first }
        guard let container, !codecs.contains(codec) else { return codec }
        if codecs.isEmpty, !audioOnlyContainer {
            problems.report("a \(container.rawValue) file holds pictures only, no \(name) audio", at: node.origin,
                            hint: "leave out output.audio.codec, or write a video file (.mp4, .mov, .mkv, .webm) to keep the sound")
            return nil
        }
        if audioOnlyContainer {
            problems.report("a \(container.rawValue) file holds audio only, not \(name) video", at: node.origin,
                            hint: "leave out output.video.codec, or write a video file (.mp4, .mov, .mkv, .webm)")
        } else {
            problems.report("a \(container.rawValue) file cannot hold \(name) \(kind)", at: node.origin,
                            hint: "use \(codecs.map(\.rawValue).joined(separator: ", ")), or leave it out for \(codecs[0].rawValue)")
        }
        return codecs.first
    }
}
