import CompositionGraph
import Foundation
import JSONSchema
import LUTFiles
import MediaTime
import ProjectFile

/// Compiles a typed `Project` into a `CompositionGraph` the AVFoundation way: clips of a
/// track alternate between A/B composition tracks at transitions, each transition's overlap
/// gets its own instruction with two layer instructions (opacity ramps for crossfades and
/// fades, crop ramps for wipes, transform ramps for slides and pushes), and every clip's
/// own audio joins the mix on its own A/B tracks.
public struct Compiler {
    let media: any MediaFactsProvider
    let fonts: (any FontResolver)?
    let remote: (any RemoteMediaLocator)?
    /// The project files this one is nested in, outermost first (see `NestedProjects`).
    public var ancestors: [String] = []
    /// How nested projects find the files they name (nil: relative to each project file).
    public var paths: (any ProjectPathResolver)?

    /// Without a font resolver, font families are not checked (for tools that never draw);
    /// without a remote media locator, `http(s)://` media are an error.
    public init(media: any MediaFactsProvider, fonts: (any FontResolver)? = nil, remote: (any RemoteMediaLocator)? = nil) {
        self.media = media
        self.fonts = fonts
        self.remote = remote
    }

    public struct Result: Sendable {
        /// nil when there were errors.
        public var graph: CompositionGraph?
        /// Errors and warnings.
        public var diagnostics: [Diagnostic]
        /// True when a named media or font file does not exist (exit code 66).
        public var missingFile: Bool
        /// True when a remote media file could not be fetched now (exit code 75).
        public var unavailable: Bool
        /// True when a fetch was cancelled (exit code 130).
        public var cancelled: Bool
        /// Where each clip landed; nil when there were errors.
        public var layout: TimelineLayout?
        /// The texts of the cue files read, which diagnostics may point into.
        public var sources: [SourceText]
    }

    public func compile(_ project: Project) -> Result {
        var session = CompileSession(project: project, media: media, fonts: fonts, remote: remote)
        session.ancestors = ancestors
        session.paths = paths
        let graph = session.run()
        let errors = session.problems.errors
        return Result(graph: errors.isEmpty ? graph : nil, diagnostics: session.problems.diagnostics, missingFile: session.missingFile, unavailable: session.unavailable,
                      cancelled: session.cancelled,
                      layout: errors.isEmpty ? session.layout : nil, sources: session.cueSources)
    }
}

/// One compilation: the project, the facts learnt so far, the problems found.
struct CompileSession {
    /// Its clips of nested projects name their compiled variants (`NestedProjects`).
    var project: Project
    let media: any MediaFactsProvider
    var fonts: (any FontResolver)?
    let remote: (any RemoteMediaLocator)?
    var problems = Problems()
    var missingFile = false
    /// The cue files of the caption tracks (absolute paths) and the texts read from them.
    var captionFiles: [String] = []
    var cueSources: [SourceText] = []
    var unavailable = false
    var cancelled = false
    /// The `.cube` files read so far, with the problem found in each (nil: usable).
    var checkedLUTs: [String: CubeLUTError?] = [:]
    private(set) var layout: TimelineLayout?
    var ancestors: [String] = []
    var paths: (any ProjectPathResolver)?
    /// The media the project uses that could be read, by name.
    var references: [String: MediaReference] = [:]
    /// The timeline's length, once known: a keyframe after it never shows.
    var timelineEnd: MediaTime?
    /// Every overlay with its times, once the clips are placed, in drawing order.
    var overlayTimes: [TimedOverlay] = []
    private var nextTrackID = 1

    init(project: Project, media: any MediaFactsProvider, fonts: (any FontResolver)?, remote: (any RemoteMediaLocator)?) {
        self.project = project
        self.media = media
        self.fonts = fonts
        self.remote = remote
    }

    var size: PixelSize { project.output.size }
    var frameDuration: MediaTime { project.output.frameDuration }

    mutating func run() -> CompositionGraph {
        resolveNestedProjects()
        readMedia()
        registerFonts()
        var videoPlacements: [[PlacedClip<VideoClip>]] = []
        for var track in project.videoTracks {
            let facts = track.items.map { item -> ClipFacts? in if case .clip(let c) = item { clipFacts(c) } else { nil } }
            findTransitionPictures(&track)
            videoPlacements.append(Placement.place(track, facts: facts, problems: &problems))
        }
        var audioPlacements: [[PlacedClip<AudioClip>]] = []
        for track in project.audioTracks {
            let facts = track.items.map { item -> ClipFacts? in if case .clip(let c) = item { clipFacts(c) } else { nil } }
            audioPlacements.append(Placement.place(track, facts: facts, problems: &problems))
        }
        overlayTimes = timedOverlays(video: videoPlacements, audio: audioPlacements)
        let duration = timelineDuration(video: videoPlacements, audio: audioPlacements)
        timelineEnd = duration
        warnAboutEnds(video: videoPlacements, audio: audioPlacements, duration: duration)
        layout = TimelineLayout(video: videoPlacements.map { $0.map(TimelineLayout.Placed.init) },
                                audio: audioPlacements.map { $0.map(TimelineLayout.Placed.init) }, media: references,
                                overlays: overlayTimes.compactMap { t in t.range(timelineEnd: duration).map { TimelineLayout.PlacedOverlay(overlay: t.overlay, range: $0) } })

        var tracks: [CompositionTrack] = []
        var layersByTrack: [[(trackID: Int, placed: PlacedClip<VideoClip>)]] = []
        var mix: [AudioMixTrack] = []
        var heardLanes = HeardLanes()
        for (index, placed) in videoPlacements.enumerated() {
            if let backdrops = backdrops(of: placed) {
                let lanes = makeLanes(backdrops, kind: .video, name: "backdrop of video \(index + 1)", content: videoContent)
                tracks += lanes.tracks
                layersByTrack.append(backdrops.map { (lanes.ids[$0.lane], $0) })
            }
            let lanes = makeLanes(placed, kind: .video, name: "video \(index + 1)", content: videoContent)
            tracks += lanes.tracks
            layersByTrack.append(placed.map { p in
                var p = p
                p.clip.filters += project.videoTracks[index].filters // a track's filters follow each clip's own
                return (lanes.ids[p.lane], p)
            })
            let heard = placed.filter { hasOwnAudio($0.clip) }
            if !heard.isEmpty {
                let audioLanes = makeLanes(heard, kind: .audio, name: "audio of video \(index + 1)", content: audioContentOfVideo)
                tracks += audioLanes.tracks
                mix += volumes(heard, ids: audioLanes.ids, volume: { $0.volume }, origin: { $0.origin }, fades: { $0.timing })
                heardLanes.add(project.videoTracks[index].name, ids: audioLanes.ids)
            } else {
                heardLanes.add(project.videoTracks[index].name, ids: [])
            }
        }
        for (index, placed) in audioPlacements.enumerated() {
            let lanes = makeLanes(placed, kind: .audio, name: "audio \(index + 1)", content: audioContent)
            tracks += lanes.tracks
            mix += volumes(placed, ids: lanes.ids, volume: { $0.volume }, origin: { $0.origin }, fades: { $0.timing })
            heardLanes.add(project.audioTracks[index].name, ids: lanes.ids)
        }
        applyDucking(to: &mix, lanes: heardLanes)
        let instructions = instructions(for: layersByTrack, duration: duration)
        var overlays = overlayTimes.compactMap { overlayLayer($0, duration: duration) }
        for (index, track) in project.captions.enumerated() { overlays += captionLayers(track, index: index, duration: duration) }
        return CompositionGraph(
            composition: Composition(duration: duration, tracks: tracks),
            videoComposition: VideoComposition(renderSize: size, frameDuration: frameDuration, background: project.output.background,
                                               instructions: instructions),
            audioMix: AudioMix(tracks: mix), overlays: overlays, fonts: project.fonts.map(\.path),
            captionFiles: captionFiles, output: project.output.settings)
    }

    // MARK: Media facts

    /// Learns the facts of every media file a clip, mask, transition or overlay uses (once per file).
    private mutating func readMedia() {
        var used = Set<String>()
        for track in project.videoTracks {
            for case .clip(let c) in track.items {
                if case .media(let n) = c.source { used.insert(n) }
                if case .matte(let n, _, _)? = c.mask?.source { used.insert(n) }
                if case .image(let n)? = c.backdrop?.kind { used.insert(n) }
            }
            for case .transition(let t) in track.items { used.formUnion(t.pictures.values) }
        }
        for track in project.audioTracks { for case .clip(let c) in track.items { used.insert(c.media) } }
        for (o, _) in project.overlaysInDrawingOrder {
            switch o.content {
            case .image(let n), .svg(let n): used.insert(n)
            default: break
            }
        }
        for entry in project.media where used.contains(entry.name) {
            guard let written = entry.path, !NestedProjects.isProjectFile(written) else { continue }
            let origin = Origin(location: entry.location, path: "media.\(entry.name)")
            guard let path = localPath(of: entry, written, at: origin) else { continue }
            do {
                references[entry.name] = MediaReference(name: entry.name, path: path,
                                                        facts: try media.facts(forFileAt: path, sequenceRate: entry.sequenceRate),
                                                        sequenceRate: entry.sequenceRate)
            } catch {
                switch error {
                case .missing(let path):
                    missingFile = true
                    problems.report("media file '\(entry.name)' not found: \(path)", at: origin,
                                    hint: Self.nearbyFile(to: path).map { "did you mean '\($0)'? (names are case-sensitive)" }
                                        ?? "check the path; it is relative to the project file")
                case .unreadable(let path, let reason):
                    problems.report("media file '\(entry.name)' (\(path)) cannot be read: \(reason)", at: origin)
                }
            }
        }
    }

    /// The entry's file (`path`), or for an `http(s)://` URL its local copy (fetched into the
    /// cache); nil after reporting why there is none.
    private mutating func localPath(of entry: MediaEntry, _ path: String, at origin: Origin) -> String? {
        guard RemoteMediaAddress.scheme(of: path) != nil else { return path }
        if let problem = RemoteMediaAddress.problem(path) {
            problems.report("media '\(entry.name)': \(problem.message)", at: origin, hint: problem.hint)
            return nil
        }
        guard let remote else {
            problems.report("media '\(entry.name)' is a URL, and this command does not fetch remote media", at: origin,
                            hint: "download the file and name its path")
            return nil
        }
        do {
            return try remote.localCopy(of: path)
        } catch {
            switch error.kind {
            case .notFound: missingFile = true
            case .unavailable: unavailable = true
            case .unusable: break
            case .cancelled: cancelled = true
            }
            problems.report("media '\(entry.name)' cannot be fetched: \(error.message)", at: origin, hint: error.hint)
            return nil
        }
    }

    private mutating func registerFonts() {
        guard var resolver = fonts else { return }
        for (file, problem) in resolver.register(fontFiles: project.fonts.map(\.path)) {
            let origin = project.fonts.first { $0.path == file }?.origin ?? Origin(location: SourceLocation(file: project.file, line: 1, column: 1), path: "fonts")
            switch problem {
            case .missing:
                missingFile = true
                problems.report("font file \(file) does not exist", at: origin)
            case .unusable(let reason):
                problems.report(reason, at: origin)
            }
        }
        fonts = resolver
    }

    /// The media a clip or overlay names, when it is listed, could be read and is one of
    /// `kinds`; reports an unknown name or a wrong kind at the use. A file that cannot be read
    /// was reported where it is listed.
    mutating func reference(_ name: String, at origin: Origin, expecting kinds: Set<MediaKind>, hint: String? = nil) -> MediaReference? {
        guard project.mediaEntry(named: name) != nil else {
            let names = project.media.map(\.name).filter { !NestedProjects.isVariantName($0) }
            problems.report("unknown media '\(name)'", at: origin,
                            hint: Suggestion.didYouMean(name, among: names) ?? (names.isEmpty ? "add it under media:" : "known media: \(names.joined(separator: ", "))"))
            return nil
        }
        guard let reference = references[name] else { return nil }
        guard kinds.contains(reference.kind) else {
            problems.report("'\(name)' is \(reference.kind.withArticle) file, which cannot be used here", at: origin,
                            hint: hint ?? "use \(kinds.map(\.rawValue).sorted().joined(separator: " or ")) media here")
            return nil
        }
        return reference
    }

    /// The name of a file beside a missing one that is close to its name (`logo.png` for
    /// `logo.PNG`, `intro.mp4` for `itnro.mp4`).
    static func nearbyFile(to path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) else { return nil }
        return Suggestion.closest(to: url.lastPathComponent, among: names)
    }

    /// The media of the transitions' picture parameters (`luminance_map: wipe`), in their parameters.
    private mutating func findTransitionPictures(_ track: inout Track<VideoClip>) {
        for i in track.items.indices {
            guard case .transition(var t) = track.items[i], !t.pictures.isEmpty else { continue }
            for (parameter, name) in t.pictures.sorted(by: { $0.key < $1.key }) {
                if let ref = reference(name, at: t.origin, expecting: [.image, .svg], hint: "a transition's \(parameter) is an image or SVG, stretched over the frame") {
                    t.parameters[parameter] = .picture(ref)
                }
            }
            track.items[i] = .transition(t)
        }
    }

    /// The upright size of a media clip's picture (what its crop pixels refer to).
    func naturalSize(ofMedia name: String) -> PixelSize? { references[name]?.facts.naturalSize }

    private mutating func clipFacts(_ clip: VideoClip) -> ClipFacts? {
        switch clip.source {
        case .color, .shader:
            return ClipFacts(timing: clip.timing, origin: clip.origin, mediaDuration: nil, hasSourceTime: false, mediaName: nil)
        case .media(let name):
            guard let reference = reference(name, at: clip.origin, expecting: [.video, .image, .svg],
                                            hint: "put sound on an audio track, or use video, image or svg media here") else { return nil }
            if reference.kind == .video, !reference.facts.hasAudio, !clip.mute, clip.asksForAudio {
                problems.report("'\(name)' has no audio stream, but this clip sets the volume of its audio", at: clip.origin,
                                hint: "remove 'volume', or use a file with sound")
            }
            if hasOwnAudio(clip), let problem = reference.facts.audio?.undecodable {
                problems.report("the sound of '\(name)' (\(reference.path)) cannot be decoded: \(problem)", at: clip.origin,
                                hint: "add 'mute: true' to show its picture alone, or re-encode its sound (ffmpeg -i IN -c:v copy -c:a aac OUT)")
            }
            return ClipFacts(timing: clip.timing, origin: clip.origin, mediaDuration: reference.facts.duration,
                             hasSourceTime: reference.kind == .video, mediaName: name)
        }
    }

    private mutating func clipFacts(_ clip: AudioClip) -> ClipFacts? {
        guard let reference = reference(clip.media, at: clip.origin, expecting: [.audio, .video]) else { return nil }
        guard let audio = reference.facts.audio else {
            problems.report("'\(clip.media)' has no audio stream", at: clip.origin)
            return nil
        }
        if let problem = audio.undecodable {
            problems.report("the sound of '\(clip.media)' (\(reference.path)) cannot be decoded: \(problem)", at: clip.origin,
                            hint: "re-encode its sound (ffmpeg -i IN -vn -c:a aac OUT.m4a), or leave this clip out")
            return nil
        }
        var timing = clip.timing
        var loopLength: MediaTime?
        if clip.loop {
            loopLength = timing.duration
            timing.duration = nil
            // Either mistake leaves the clip out, so nothing reports what its unknown length causes.
            if timing.toMediaEnd {
                problems.report("'loop: true' repeats the sound to fill a duration, and 'duration: media' plays it once to its end", at: clip.origin,
                                hint: "keep one: a duration to fill with loop: true, or duration: media without it")
                return nil
            }
            if loopLength == nil {
                problems.report("a looping clip needs a duration to fill", at: clip.origin, missing: ["duration"])
                return nil
            }
        }
        return ClipFacts(timing: timing, origin: clip.origin, mediaDuration: reference.facts.duration, hasSourceTime: true,
                         mediaName: clip.media, loopLength: loopLength, endsWithMedia: true)
    }

    func hasOwnAudio(_ clip: VideoClip) -> Bool {
        guard !clip.mute, !clip.timing.effects.silencesAudio, case .media(let name) = clip.source, let reference = references[name], reference.kind == .video else { return false }
        return reference.facts.hasAudio
    }

    private func timelineDuration(video: [[PlacedClip<VideoClip>]], audio: [[PlacedClip<AudioClip>]]) -> MediaTime {
        project.output.duration ?? contentEnd(video: video, audio: audio)?.end ?? .zero
    }

    // MARK: Composition tracks

    /// A/B composition tracks for one project track's clips (B only when a transition needs it).
    private mutating func makeLanes<Clip>(_ placed: [PlacedClip<Clip>], kind: TrackKind, name: String,
                                          content: (PlacedClip<Clip>) -> [Segment]) -> (tracks: [CompositionTrack], ids: [Int]) {
        let laneCount = (placed.map(\.lane).max() ?? 0) + 1
        var tracks: [CompositionTrack] = []
        var ids: [Int] = []
        for lane in 0..<laneCount {
            var segments: [Segment] = []
            var cursor = MediaTime.zero
            for p in placed where p.lane == lane {
                if p.target.start > cursor { segments.append(Segment(target: TimeRange(start: cursor, end: p.target.start), content: nil)) }
                segments += content(p)
                cursor = p.target.end
            }
            let id = nextTrackID
            nextTrackID += 1
            ids.append(id)
            tracks.append(CompositionTrack(id: id, kind: kind, name: laneCount > 1 ? "\(name) \(lane == 0 ? "A" : "B")" : name, segments: segments))
        }
        return (tracks, ids)
    }

    private func videoContent(_ p: PlacedClip<VideoClip>) -> [Segment] {
        switch p.clip.source {
        case .color(let c):
            return [Segment(target: p.target, content: .color(c))]
        case .shader(let call):
            return [Segment(target: p.target, content: .shader(call))]
        case .media(let name):
            guard let ref = references[name] else { return [] }
            if let source = p.source { return mediaSegments(ref, source: source, target: p.target, effects: p.clip.timing.effects) }
            return [Segment(target: p.target, content: .still(ref))]
        }
    }

    private func audioContentOfVideo(_ p: PlacedClip<VideoClip>) -> [Segment] {
        guard case .media(let name) = p.clip.source, let ref = references[name], let source = p.source else { return [] }
        return mediaSegments(ref, source: source, target: p.target, effects: p.clip.timing.effects)
    }

    /// Looping clips repeat their source range until the clip's length is filled.
    private func audioContent(_ p: PlacedClip<AudioClip>) -> [Segment] {
        guard let ref = references[p.clip.media], let source = p.source else { return [] }
        if !p.clip.loop { return mediaSegments(ref, source: source, target: p.target, effects: p.clip.timing.effects) }
        let cycle = source.duration / p.clip.timing.speed
        var segments: [Segment] = []
        var start = p.target.start
        while start < p.target.end {
            let length = min(cycle, p.target.end - start)
            let sourceRange = TimeRange(start: source.start, duration: length * p.clip.timing.speed)
            segments.append(Segment(target: TimeRange(start: start, duration: length), content: .media(ref, sourceRange: sourceRange)))
            start += length
        }
        return segments
    }

    // MARK: Audio mix

    private mutating func volumes<Clip>(_ placed: [PlacedClip<Clip>], ids: [Int], volume: (Clip) -> Animated<Double>,
                                        origin: (Clip) -> Origin, fades: (Clip) -> ClipTiming) -> [AudioMixTrack] {
        var result: [AudioMixTrack] = []
        for (lane, id) in ids.enumerated() {
            let parts = placed.filter { $0.lane == lane }.map { p -> Animation in
                var v = resolve(volume(p.clip), over: p.target)
                v = v.combined(with: fadeEnvelope(fades(p.clip), over: p.target, origin: origin(p.clip)), step: frameDuration, over: p.target, *)
                v = v.combined(with: transitionEnvelope(p), step: frameDuration, over: p.target, *)
                return v.sliced(to: p.target)
            }
            if !parts.isEmpty {
                result.append(AudioMixTrack(trackID: id, volume: .concatenation(parts),
                                            timePitch: project.output.keepPitch ? .timeDomain : .varispeed))
            }
        }
        return result
    }

    /// 0→1 over fade_in, 1→0 over fade_out.
    mutating func fadeEnvelope(_ timing: ClipTiming, over range: TimeRange, origin: Origin) -> Animation {
        let fadeIn = timing.fadeIn ?? .zero, fadeOut = timing.fadeOut ?? .zero
        guard fadeIn.isPositive || fadeOut.isPositive else { return .constant(1) }
        if fadeIn + fadeOut > range.duration {
            problems.report("fade_in (\(TimeNotation.seconds(fadeIn))) and fade_out (\(TimeNotation.seconds(fadeOut))) together last longer than the item (\(TimeNotation.seconds(range.duration)))", at: origin)
            return .constant(1)
        }
        var frames: [Keyframe] = []
        if fadeIn.isPositive { frames += [Keyframe(time: range.start, value: 0), Keyframe(time: range.start + fadeIn, value: 1)] }
        if fadeOut.isPositive { frames += [Keyframe(time: range.end - fadeOut, value: 1), Keyframe(time: range.end, value: 0)] }
        return Animation(keyframes: frames)
    }

    /// Audio crossfade at the clip's transitions: 0→1 over the one in, 1→0 over the one out.
    private func transitionEnvelope<Clip>(_ p: PlacedClip<Clip>) -> Animation {
        var frames: [Keyframe] = []
        if let t = p.transitionIn { frames += [Keyframe(time: t.range.start, value: 0, ease: t.transition.ease), Keyframe(time: t.range.end, value: 1)] }
        if let t = p.transitionOut { frames += [Keyframe(time: t.range.start, value: 1, ease: t.transition.ease), Keyframe(time: t.range.end, value: 0)] }
        return frames.isEmpty ? .constant(1) : Animation(keyframes: frames)
    }

    // MARK: Animations

    /// Keyframes relative to an item made absolute; out-of-order keyframes are reported.
    mutating func resolve<V>(_ value: Animated<V>, over range: TimeRange, _ number: (V) -> Double) -> Animation {
        switch value {
        case .constant(let v):
            return .constant(number(v))
        case .keyframes(let frames):
            var result: [Keyframe] = []
            for f in frames {
                let t: MediaTime
                switch f.at {
                case .fromStart(let d): t = range.start + d
                case .fromEnd(let d): t = range.end - d
                }
                if let last = result.last, t < last.time {
                    problems.report("keyframes out of order: this one is at \(TimeNotation.clock(t - range.start)) into the item, before the previous one at \(TimeNotation.clock(last.time - range.start))",
                                    at: f.origin, hint: "list keyframes in time order")
                }
                if t < range.start || t > range.end {
                    problems.report("keyframe at \(TimeNotation.clock(t - range.start)) lies outside its item, which lasts \(TimeNotation.clock(range.duration))", at: f.origin)
                } else if let end = timelineEnd, t > end {
                    problems.warn("this keyframe is at \(TimeNotation.clock(t)), after the video ends (\(TimeNotation.clock(end))): it never shows",
                                  at: f.origin, hint: "move it to where the item is seen, or lengthen the video")
                }
                result.append(Keyframe(time: t, value: number(f.value), ease: f.ease))
            }
            if let last = frames.last, frames.count > 1, last.ease != .linear, last.easeWritten {
                // Peers (CSS, After Effects' speed graph, Creatomate) put the ease on the keyframe reached.
                let before = frames[frames.count - 2].origin.location
                let ease = last.ease.name.map { "ease: \($0)" } ?? "its ease"
                problems.report("an ease on the last keyframe has nothing to shape: an ease shapes the way from its keyframe to the next",
                                at: last.origin, hint: "move \(ease) to the keyframe the movement starts from (line \(before.line)), and remove it here")
            }
            return Animation(keyframes: result.sorted { $0.time < $1.time })
        }
    }

    mutating func resolve(_ value: Animated<Double>, over range: TimeRange) -> Animation { resolve(value, over: range) { $0 } }

    // MARK: Overlays

    private mutating func overlayLayer(_ timed: TimedOverlay, duration: MediaTime) -> OverlayLayer? {
        let o = timed.overlay
        let content: OverlayContent
        switch o.content {
        case .text(let text, var style):
            if let fonts {
                // The style's family, then each a <span font=…> names (in the order first written).
                for (family, origin) in [(style.font, o.fontOrigin ?? o.origin)] + o.inlineFonts {
                    switch fonts.resolve(family: family, weight: style.weight, italic: style.italic) {
                    case .file(let path):
                        if family == style.font { style.resolvedFontFile = path }
                    case .unavailable(let available):
                        problems.report("font family '\(family)' is not available", at: origin,
                                        hint: "list its font file under fonts:, or use one of: \(available.prefix(12).joined(separator: ", "))")
                    }
                }
            }
            content = .text(text, style)
        case .image(let name):
            guard let reference = reference(name, at: o.origin, expecting: [.image]) else { return nil }
            content = .image(reference)
        case .svg(let name):
            guard let reference = reference(name, at: o.origin, expecting: [.svg]) else { return nil }
            content = .svg(reference)
        case .rect(let s): content = .rect(s)
        case .ellipse(let s): content = .ellipse(s)
        }
        guard let range = timed.range(timelineEnd: duration) else {
            problems.report("this overlay starts at \(TimeNotation.clock(timed.start)), at or after the end of the video", at: o.origin)
            return nil
        }
        let w = size.width, h = size.height
        var x = Animation.constant(Double(w) / 2), y = Animation.constant(Double(h) / 2)
        var anchorX = resolve(o.anchor, over: range) { $0.x.resolved(against: 1) }
        var anchorY = resolve(o.anchor, over: range) { $0.y.resolved(against: 1) }
        var width = o.width?.resolved(against: w), height = o.height?.resolved(against: h)
        if let position = o.position {
            x = resolve(position, over: range) { $0.x.resolved(against: w) }
            y = resolve(position, over: range) { $0.y.resolved(against: h) }
        }
        if let mark = o.watermark {
            if !o.anchor.isConstant || !(o.position?.isConstant ?? true) {
                problems.report("a watermark stays in its corner, so its position and anchor cannot move", at: o.origin,
                                hint: "enter and leave with fade, pop, grow or a wipe, or place it with position: instead of watermark:")
            }
            let right = mark.corner == .topRight || mark.corner == .bottomRight
            let bottom = mark.corner == .bottomLeft || mark.corner == .bottomRight
            let marginX = mark.margin.resolved(against: w), marginY = mark.margin.resolved(against: h)
            x = .constant(right ? Double(w) - marginX : marginX)
            y = .constant(bottom ? Double(h) - marginY : marginY)
            anchorX = .constant(right ? 1 : 0)
            anchorY = .constant(bottom ? 1 : 0)
            width = mark.width?.resolved(against: w) ?? width
            height = mark.height?.resolved(against: h) ?? height
        }
        switch content {
        case .rect, .ellipse:
            if width == nil && height == nil {
                problems.report("a rect or ellipse has no natural size", at: o.origin, hint: "give it a size: [width, height]")
            }
        case .text(_, let style):
            if style.fit == .shrink && style.boxWidth == nil && style.boxHeight == nil {
                problems.report("fit: shrink needs a box to fit the text into", at: o.origin, hint: "set style.box_width (and box_height if needed)")
            }
        case .image, .svg, .caption:
            break
        }
        // A text by unit: each phase lasts each unit's duration + (units − 1) × stagger, counted in the layout the renderer makes.
        var unitPhases: [TextUnitPhase] = []
        var unitLength = MediaTime.zero
        var unitCounts: [String] = []
        if case .text(let text, let style) = content {
            for spec in o.unitMoves {
                var phase = spec.phase
                phase.time = phase.edge == .enter ? range.start : range.end
                let n = fonts?.textUnits(of: text, style: style, width: width, height: height, by: phase.by)?.count
                    ?? UnitMoves.estimatedCount(of: text, by: phase.by)
                unitLength += phase.length(count: n)
                unitCounts.append("\(n) \(phase.by.rawValue)\(n == 1 ? "" : "s")")
                unitPhases.append(phase)
            }
        }
        if (o.moves?.length ?? .zero) + unitLength > range.duration, let origin = o.moves?.origin ?? o.unitMoves.last?.origin {
            let length = (o.moves?.length ?? .zero) + unitLength
            let hint = unitCounts.isEmpty ? "give them shorter durations, or the overlay a longer one"
                : "by unit, a move lasts its duration + (units − 1) × stagger (\(unitCounts.joined(separator: ", ")) here): "
                    + "give it a shorter duration or stagger, or the overlay a longer one"
            problems.report("the entrance and exit (\(TimeNotation.seconds(length)) together) last longer than the overlay (\(TimeNotation.seconds(range.duration)))",
                            at: origin, hint: hint)
            return nil
        }
        var opacity = resolve(o.opacity, over: range)
        opacity = opacity.combined(with: fadeEnvelope(ClipTiming(speed: .one, fadeIn: o.fadeIn, fadeOut: o.fadeOut), over: range, origin: o.origin),
                                   step: frameDuration, over: range, *)
        let layer = OverlayLayer(content: content, timeRange: range, positionX: x, positionY: y, anchorX: anchorX,
                                 anchorY: anchorY, width: width, height: height, scale: resolve(o.scale, over: range),
                                 rotation: resolve(o.rotation, over: range), opacity: opacity, fit: o.fit,
                                 reveal: o.reveal.map { r in
                                     RevealBox(left: resolve(r.left, over: range), top: resolve(r.top, over: range),
                                               right: resolve(r.right, over: range), bottom: resolve(r.bottom, over: range))
                                 },
                                 textUnits: unitPhases.isEmpty ? nil : TextUnitMotion(enter: unitPhases.first { $0.edge == .enter },
                                                                                      exit: unitPhases.first { $0.edge == .exit }))
        warnIfOutsideTheFrame(layer, origin: o.origin)
        return layer
    }
}

extension ClipTiming {
    init(speed: Rational, fadeIn: MediaTime?, fadeOut: MediaTime?) {
        self.init(from: nil, to: nil, duration: nil, durationIsInvalid: false, at: nil, speed: speed, fadeIn: fadeIn, fadeOut: fadeOut)
    }
}
