import CompositionGraph
import Digest
import Foundation
import MediaTime
import Synchronization

/// How a render's video is cut into segments that render independently and join without
/// re-encoding. The cuts fall every `framesPerSegment` output frames counted from the start of
/// the timeline, so they depend on the project alone, never on the machine or the workers;
/// a part of the timeline (`--range`) is cut at the same frames, so its segments are the
/// whole render's wherever they coincide.
///
/// Each segment has a content key: the SHA-256 of everything that can change its bytes (the
/// instructions, layers and track segments over its frames, the overlays drawn on them, the
/// bytes of the media and fonts they read, the video settings, the encoder and Reel's
/// version). Equal keys, equal bytes: a render reuses a part whose key it already has.
/// An output without video (audio only) has no segments.
public struct SegmentPlan: Sendable, Equatable {
    public struct Segment: Sendable, Equatable, Codable {
        public var index: Int
        /// The first output frame, counted from the start of the timeline.
        public var firstFrame: Int64
        public var frameCount: Int64
        public var timeRange: TimeRange
        public var key: String
        /// The key of the mix of the audio over `timeRange`: what a file of this segment alone
        /// (a preview's piece) holds besides the video. A whole render mixes its audio in the
        /// join and does not use it.
        public var audioKey: String

        /// The key of a file of this segment alone, video and audio (`ExportSession.piece`).
        public var pieceKey: String {
            var hash = SHA256()
            hash.update("reel-piece-1\n\(key)\n\(audioKey)\n")
            return hash.hexDigest()
        }
    }

    /// The graph with its preset applied: what every segment renders.
    public let graph: CompositionGraph
    public let range: TimeRange
    public let framesPerSegment: Int64
    public let segments: [Segment]
    /// The key of the mix of the whole range's audio, which a join encodes and keeps.
    public let audioKey: String

    /// Encoder threads of every segment: fixed, because x264's bytes depend on them. One:
    /// segments run in parallel instead, and one x264 thread spends about a sixth less CPU per
    /// frame than two (measured in docs/render.md).
    public static let encoderThreads = 1

    /// `identity` gives the bytes' identity (a digest) of a file the graph reads; `version`
    /// is Reel's.
    public init(graph: CompositionGraph, range: TimeRange, identity: (String) throws -> String, version: String) rethrows {
        self.graph = graph
        self.range = range
        let frameDuration = graph.videoComposition.frameDuration
        framesPerSegment = max(1, (graph.output.segmentLength / frameDuration).rounded)
        let first = range.start.frameIndex(frameDuration: frameDuration)
        let end = first + range.duration.frameCount(frameDuration: frameDuration)
        let keyed = try KeyedGraph(graph, identity: identity, version: version)
        var found: [(start: Int64, stop: Int64, times: TimeRange)] = []
        var start = first
        // An audio-only output renders no video: the join writes its audio alone.
        while start < end, graph.output.video != nil {
            let stop = min(end, (start / framesPerSegment + 1) * framesPerSegment)
            found.append((start, stop, TimeRange(start: .frame(start, duration: frameDuration), end: .frame(stop, duration: frameDuration))))
            start = stop
        }
        let cuts = found
        // The keys of a long timeline's thousands of segments are made on every core.
        let keys = Mutex([(key: String, audioKey: String)?](repeating: nil, count: cuts.count))
        DispatchQueue.concurrentPerform(iterations: cuts.count) { i in
            let cut = cuts[i]
            let made = (keyed.key(firstFrame: cut.start, frameCount: cut.stop - cut.start, times: cut.times),
                        keyed.audioKey(times: cut.times, measured: range))
            keys.withLock { $0[i] = made }
        }
        let made = keys.withLock { $0 }
        segments = cuts.indices.map { i in
            Segment(index: i, firstFrame: cuts[i].start, frameCount: cuts[i].stop - cuts[i].start, timeRange: cuts[i].times,
                    key: made[i]!.key, audioKey: made[i]!.audioKey)
        }
        audioKey = keyed.audioKey(times: range, measured: range)
    }
}

/// The graph as segment keys see it: every file named by its bytes' identity instead of its
/// path and stamp, so a moved or touched file keeps its segments and an edited one does not;
/// a nested project's graph (compiled with the vars its clip passes) likewise.
private struct KeyedGraph {
    let graph: CompositionGraph
    let settings: String
    let version: String

    init(_ graph: CompositionGraph, identity: (String) throws -> String, version: String) rethrows {
        var g = graph
        var known: [String: String] = [:]
        func id(_ path: String) throws -> String {
            if let d = known[path] { return d }
            let d = try identity(path)
            known[path] = d
            return d
        }
        func keyed(_ ref: MediaReference) throws -> MediaReference {
            var r = ref
            r.path = try id(ref.path)
            r.name = ""
            r.facts.stamp = FileStamp(size: 0, modified: 0)
            // A nested project's file by its bytes above, its media by theirs here.
            if let nested = ref.nested { r.nested?.graph = try KeyedGraph(nested.graph, identity: id, version: version).graph }
            return r
        }
        try g.updateMediaReferences { $0 = try keyed($0) }
        for o in g.overlays.indices {
            let file = try g.overlays[o].content.textStyle?.resolvedFontFile.map(id)
            g.overlays[o].content.textStyle?.resolvedFontFile = file
        }
        g.fonts = try graph.fonts.map(id)
        // Only layers with a LUT change: the others stay shared with `graph`, not copied.
        func readsLUT(_ layer: LayerInstruction) -> Bool {
            layer.filters.contains { $0.values.values.contains { if case .lut = $0 { true } else { false } } }
        }
        for i in g.videoComposition.instructions.indices where g.videoComposition.instructions[i].layers.contains(where: readsLUT) {
            for l in g.videoComposition.instructions[i].layers.indices {
                g.videoComposition.instructions[i].layers[l].filters = try g.videoComposition.instructions[i].layers[l].filters.map { filter in
                    var keyed = filter
                    keyed.values = try filter.values.mapValues { value in
                        guard case .lut(let file) = value else { return value }
                        return .lut(try id(file))
                    }
                    return keyed
                }
            }
        }
        self.graph = g
        self.version = version
        let vc = graph.videoComposition, out = graph.output
        // Not the container: every one Reel writes takes the same packets (the join checks).
        settings = Self.json(KeySettings(version: version, encoderThreads: SegmentPlan.encoderThreads, video: out.video, renderSize: vc.renderSize, frameDuration: vc.frameDuration,
                                         background: vc.background, fonts: g.fonts))
    }

    /// The key of the frames `[firstFrame, firstFrame + frameCount)`, shown during `times`.
    func key(firstFrame: Int64, frameCount: Int64, times: TimeRange) -> String {
        let vc = graph.videoComposition
        // Binary searches: a plan of a long timeline keys each segment from what overlaps it alone.
        let instructions = Array(vc.instructions(overlapping: times))
        let trackIDs = Set(instructions.flatMap { $0.layers.map(\.trackID) })
        let tracks = graph.composition.tracks.filter { trackIDs.contains($0.id) }.map { track in
            CompositionTrack(id: track.id, kind: track.kind, name: "", segments: Array(track.segments(overlapping: times)))
        }
        let overlays = graph.overlays.filter { $0.timeRange.intersection(times) != nil }
        let frames = KeyFrames(firstFrame: firstFrame, frameCount: frameCount, instructions: instructions, tracks: tracks, overlays: overlays)
        return Self.known.key(for: KnownKeys.Material(kind: "reel-segment-1", settings: settings, content: .frames(frames))) {
            var hash = SHA256()
            hash.update("reel-segment-1\n")
            hash.update(settings)
            hash.update(Self.json(frames))
            return hash.hexDigest()
        }
    }

    /// The keys of segments made before in this process (a preview makes a plan on every save,
    /// and most segments are as they were): comparing what a key is made of is much cheaper
    /// than writing it as JSON and hashing it.
    private static let known = KnownKeys()

    /// The key of the audio mixed over `times`: the audio settings, every mixed track's
    /// segments that overlap `times` (all of `measured`, the range whose loudness sets the
    /// gain, with a loudness target) and its whole volume ramp, time-pitch rule and ducking.
    func audioKey(times: TimeRange, measured: TimeRange) -> String {
        let mixed = graph.audioMix.tracks
        let ids = Set(mixed.map(\.trackID))
        let heard = graph.output.audio.loudness == nil ? times : measured
        let tracks = graph.composition.tracks.filter { ids.contains($0.id) }.map { track in
            CompositionTrack(id: track.id, kind: track.kind, name: "", segments: Array(track.segments(overlapping: heard)))
        }
        let audio = KeyAudio(version: version, audio: graph.output.audio, times: times, tracks: tracks, mix: mixed)
        return Self.known.key(for: KnownKeys.Material(kind: "reel-audio-1", settings: "", content: .audio(audio))) {
            var hash = SHA256()
            hash.update("reel-audio-1\n")
            hash.update(Self.json(audio))
            return hash.hexDigest()
        }
    }

    /// A bounded memo of keys by what they are made of. Material that is equal as Swift values
    /// writes the same JSON (the graph's types compare what they encode; a `Double` 0 and -0
    /// are the one exception, and draw alike).
    final class KnownKeys: Sendable {
        struct Material: Hashable {
            enum Content: Hashable {
                case frames(KeyFrames)
                case audio(KeyAudio)
            }
            var kind: String
            var settings: String
            var content: Content
        }

        private let keys = Mutex<[Material: String]>([:])
        /// Enough for the plans of a few long timelines; beyond it the memo starts again.
        private static let capacity = 200_000

        func key(for material: Material, make: () -> String) -> String {
            if let key = keys.withLock({ $0[material] }) { return key }
            let key = make()
            keys.withLock { keys in
                if keys.count >= Self.capacity { keys.removeAll() }
                keys[material] = key
            }
            return key
        }
    }

    struct KeyAudio: Encodable, Hashable {
        var version: String
        var audio: OutputSettings.Audio
        var times: TimeRange
        var tracks: [CompositionTrack]
        var mix: [AudioMixTrack]
    }

    private struct KeySettings: Encodable {
        var version: String
        var encoderThreads: Int
        var video: OutputSettings.Video?
        var renderSize: PixelSize
        var frameDuration: MediaTime
        var background: Color
        var fonts: [String]
    }

    struct KeyFrames: Encodable, Hashable {
        var firstFrame: Int64
        var frameCount: Int64
        var instructions: [VideoInstruction]
        var tracks: [CompositionTrack]
        var overlays: [OverlayLayer]
    }

    private static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Graph types encode whatever they hold; a failure here is a programming error.
        guard let data = try? encoder.encode(value) else { preconditionFailure("segment key material must encode") }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
