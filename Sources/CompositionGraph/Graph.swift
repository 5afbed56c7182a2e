import MediaTime

/// The compiled form of a project, modelled on AVFoundation's editing classes: what is
/// played when (`Composition`), how video tracks are layered (`VideoComposition`), how audio
/// tracks are mixed (`AudioMix`) and what is drawn on top (`OverlayLayer`s).
///
/// It is the only contract between the front end (project file, compiler) and the back end
/// (decoding, compositing, mixing, encoding): the renderer never sees the project file.
public struct CompositionGraph: Hashable, Sendable, Codable {
    public var composition: Composition
    public var videoComposition: VideoComposition
    public var audioMix: AudioMix
    /// Drawn above the video in list order.
    public var overlays: [OverlayLayer]
    /// Font files registered for this render only.
    public var fonts: [String]
    /// Cue files the caption layers were read from (their text is in the layers; listed so
    /// they count as inputs of the render).
    public var captionFiles: [String]
    public var output: OutputSettings

    public init(composition: Composition, videoComposition: VideoComposition, audioMix: AudioMix,
                overlays: [OverlayLayer], fonts: [String], captionFiles: [String] = [], output: OutputSettings) {
        self.composition = composition
        self.videoComposition = videoComposition
        self.audioMix = audioMix
        self.overlays = overlays
        self.fonts = fonts
        self.captionFiles = captionFiles
        self.output = output
    }

    public var duration: MediaTime { composition.duration }

    /// Whether the output has an audio stream: some audio track is in the mix.
    public var hasAudio: Bool {
        composition.tracks.contains { $0.kind == .audio && audioMix.parameters(for: $0.id) != nil }
    }

    /// Every media file the graph reads, each once, in the order first met: the tracks'
    /// segments (a nested project, then the media it reads), then the overlays' images and SVGs,
    /// then the masks' mattes and the transitions' pictures.
    public var mediaReferences: [MediaReference] {
        var seen = Set<String>(), result: [MediaReference] = []
        var copy = self
        copy.updateMediaReferences { ref in
            if seen.insert(ref.sourceKey).inserted { result.append(ref) }
            for inner in ref.nested?.graph.mediaReferences ?? [] where seen.insert(inner.sourceKey).inserted { result.append(inner) }
        }
        return result
    }

    /// Visits every media reference where the graph holds it (segments, then overlays' images
    /// and SVGs, then masks' mattes and transitions' pictures; a nested project's own graph is the caller's to visit),
    /// letting `update` change it in place: the one walk of the files a graph reads.
    public mutating func updateMediaReferences(_ update: (inout MediaReference) throws -> Void) rethrows {
        for t in composition.tracks.indices {
            for s in composition.tracks[t].segments.indices {
                switch composition.tracks[t].segments[s].content {
                case .media(var ref, let source)?:
                    try update(&ref)
                    composition.tracks[t].segments[s].content = .media(ref, sourceRange: source)
                case .still(var ref)?:
                    try update(&ref)
                    composition.tracks[t].segments[s].content = .still(ref)
                case .color?, .shader?, nil: break
                }
            }
        }
        for o in overlays.indices {
            switch overlays[o].content {
            case .image(var ref):
                try update(&ref)
                overlays[o].content = .image(ref)
            case .svg(var ref):
                try update(&ref)
                overlays[o].content = .svg(ref)
            default: break
            }
        }
        for i in videoComposition.instructions.indices {
            for l in videoComposition.instructions[i].layers.indices {
                guard case .matte(var matte)? = videoComposition.instructions[i].layers[l].mask?.source else { continue }
                try update(&matte.media)
                videoComposition.instructions[i].layers[l].mask?.source = .matte(matte)
            }
            for t in videoComposition.instructions[i].transitions.indices {
                guard let parameters = videoComposition.instructions[i].transitions[t].mix?.parameters else { continue }
                for (name, value) in parameters {
                    guard case .picture(var ref) = value else { continue }
                    try update(&ref)
                    videoComposition.instructions[i].transitions[t].mix?.parameters[name] = .picture(ref)
                }
            }
        }
    }
}

// MARK: - Composition (AVMutableComposition)

public enum TrackKind: String, Hashable, Sendable, Codable { case video, audio }

/// A file the graph reads, by its project name and absolute path, with what is known of it.
public struct MediaReference: Hashable, Sendable, Codable {
    public var name: String
    public var path: String
    public var facts: MediaFacts
    /// Set when the file is a Reel project used as a clip (its facts describe its output).
    public var nested: NestedProject?
    /// The rate an image sequence (`shots/f%04d.png`) is read at, as its media entry's `fps`
    /// gives it: its k-th file shows from k / rate. Nil for other files, and for a sequence
    /// without `fps` (read at 25 fps).
    public var sequenceRate: Rational?

    public init(name: String, path: String, facts: MediaFacts, nested: NestedProject? = nil, sequenceRate: Rational? = nil) {
        self.name = name
        self.path = path
        self.facts = facts
        self.nested = nested
        self.sequenceRate = sequenceRate
    }

    public var kind: MediaKind { facts.kind }

    /// What tells two open readers of the graph apart: the path, and also the rate an image
    /// sequence is read at and the vars a nested project was compiled with (one file used
    /// twice at other rates or with other vars is two sources).
    public var sourceKey: String {
        var key = path
        if let sequenceRate { key += "\u{0}fps=\(sequenceRate)" }
        if let nested { key += "\u{0}" + nested.varsText }
        return key
    }
}

public struct Composition: Hashable, Sendable, Codable {
    public var duration: MediaTime
    public var tracks: [CompositionTrack]

    public init(duration: MediaTime, tracks: [CompositionTrack]) {
        self.duration = duration
        self.tracks = tracks
    }

    public func track(_ id: Int) -> CompositionTrack? { tracks.first { $0.id == id } }
}

public struct CompositionTrack: Hashable, Sendable, Codable {
    public var id: Int
    public var kind: TrackKind
    /// For listings: `video 1 A`, `audio of video 1 B`, `audio 2`.
    public var name: String
    /// In timeline order, not overlapping.
    public var segments: [Segment]

    public init(id: Int, kind: TrackKind, name: String, segments: [Segment]) {
        self.id = id
        self.kind = kind
        self.name = name
        self.segments = segments
    }

    /// The segment playing at timeline time `t`, if any (a binary search: segments are in
    /// timeline order).
    public func segment(at t: MediaTime) -> Segment? { segments.element(containing: t, range: \.target) }

    /// The segments that overlap `times`, in order.
    public func segments(overlapping times: TimeRange) -> ArraySlice<Segment> { segments.elements(overlapping: times, range: \.target) }
}

/// What a segment shows or plays.
public enum SegmentContent: Hashable, Sendable, Codable {
    /// A time range of a video or audio file's stream (the track's kind says which stream).
    case media(MediaReference, sourceRange: TimeRange)
    /// A still image or SVG, shown for the whole segment.
    case still(MediaReference)
    /// A solid colour.
    case color(Color)
    /// A picture drawn by a fragment shader at each frame (`time` counts from the segment's start).
    case shader(ShaderCall)
}

/// One piece of a track: `content` over the timeline range `target`; nil content is a gap.
public struct Segment: Hashable, Sendable, Codable {
    public var target: TimeRange
    public var content: SegmentContent?
    /// The source range plays backwards (end first); see `sourceTime(at:frameDuration:)`.
    public var reversed: Bool

    public init(target: TimeRange, content: SegmentContent?, reversed: Bool = false) {
        self.target = target
        self.content = content
        self.reversed = reversed
    }

    /// Timeline → source time for media segments (speed = source / target duration).
    public var timeMapping: TimeMapping? {
        guard case .media(_, let range)? = content else { return nil }
        return TimeMapping(source: range, target: target)
    }
}

// MARK: - VideoComposition (AVMutableVideoComposition)

public struct PixelSize: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}

public struct VideoComposition: Hashable, Sendable, Codable {
    public var renderSize: PixelSize
    public var frameDuration: MediaTime
    public var background: Color
    /// Contiguous, covering `[0, duration)` without gaps or overlaps.
    public var instructions: [VideoInstruction]

    public init(renderSize: PixelSize, frameDuration: MediaTime, background: Color, instructions: [VideoInstruction]) {
        self.renderSize = renderSize
        self.frameDuration = frameDuration
        self.background = background
        self.instructions = instructions
    }

    /// Frames per second, exact (`30000/1001`).
    public var frameRate: Rational { frameDuration.value.reciprocal }

    /// The instruction covering timeline time `t` (a binary search).
    public func instruction(at t: MediaTime) -> VideoInstruction? { instructions.element(containing: t, range: \.timeRange) }

    /// The instructions that overlap `times`, in order.
    public func instructions(overlapping times: TimeRange) -> ArraySlice<VideoInstruction> {
        instructions.elements(overlapping: times, range: \.timeRange)
    }
}

public struct VideoInstruction: Hashable, Sendable, Codable {
    public var timeRange: TimeRange
    public var background: Color
    /// Bottom to top.
    public var layers: [LayerInstruction]
    /// The project's transitions running during this instruction (usually none or one), for
    /// listings and the timeline page; the renderer needs only the layers' ramps. Omitted from
    /// JSON when empty.
    public var transitions: [Transition]

    /// Which transition of the project joins which two tracks.
    public struct Transition: Hashable, Sendable, Codable {
        /// The project format's name: `crossfade`, `fade-through-white`, `wipe-left`, …
        public var kind: String
        /// The track of the outgoing clip.
        public var fromTrackID: Int
        /// The track of the incoming clip.
        public var toTrackID: Int
        /// A crossfade's progress p, 0 → 1 over the transition (sliced to the instruction): the
        /// frame shows (1 − p)·(outgoing over what is beneath) + p·(incoming over what is
        /// beneath), a dissolve wherever either picture is, also where one does not fill the
        /// frame. Nil for the other kinds, which are ramps of the layers' own. Omitted from JSON
        /// when nil.
        public var dissolve: Animation?
        /// A mixing kind's kernel, parameters and progress: the frame shows the kernel's mix
        /// of the outgoing and the incoming picture, each over what is beneath it. Nil for
        /// the crossfade and the layer-ramp kinds. Omitted from JSON when nil.
        public var mix: TransitionMix?

        public init(kind: String, fromTrackID: Int, toTrackID: Int, dissolve: Animation? = nil, mix: TransitionMix? = nil) {
            self.kind = kind
            self.fromTrackID = fromTrackID
            self.toTrackID = toTrackID
            self.dissolve = dissolve
            self.mix = mix
        }
    }

    public init(timeRange: TimeRange, background: Color, layers: [LayerInstruction], transitions: [Transition] = []) {
        self.timeRange = timeRange
        self.background = background
        self.layers = layers
        self.transitions = transitions
    }

    private enum CodingKeys: String, CodingKey { case timeRange, background, layers, transitions }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(timeRange: try c.decode(TimeRange.self, forKey: .timeRange), background: try c.decode(Color.self, forKey: .background),
                  layers: try c.decode([LayerInstruction].self, forKey: .layers),
                  transitions: try c.decodeIfPresent([Transition].self, forKey: .transitions) ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(timeRange, forKey: .timeRange)
        try c.encode(background, forKey: .background)
        try c.encode(layers, forKey: .layers)
        if !transitions.isEmpty { try c.encode(transitions, forKey: .transitions) }
    }
}

/// How a source frame is fitted into the render size before the transform.
public enum Fit: String, Hashable, Sendable, Codable, CaseIterable {
    /// Whole frame visible, letterboxed.
    case contain
    /// Frame fills the output, cropped.
    case cover
    /// Stretched to the output size.
    case fill
    /// Source pixels 1:1, centred.
    case none

    /// What the fit does in a few words, for the schema (`scripts/generate-format`).
    public var summary: String {
        switch self {
        case .contain: "letterbox"
        case .cover: "fill, cropping"
        case .fill: "stretch"
        case .none: "1:1 pixels"
        }
    }
}

/// Where and how big a fitted frame is drawn. Defaults leave it where `fit` put it.
public struct LayerTransform: Hashable, Sendable, Codable {
    /// Where the anchor lands, in output pixels (default: the frame centre).
    public var positionX: Animation
    public var positionY: Animation
    /// The point of the layer that is placed, scaled and rotated about, as fractions of the
    /// fitted layer box (0.5, 0.5 = its centre).
    public var anchorX: Animation
    public var anchorY: Animation
    public var scaleX: Animation
    public var scaleY: Animation
    /// Degrees, clockwise.
    public var rotation: Animation

    public init(positionX: Animation, positionY: Animation, anchorX: Animation = .constant(0.5), anchorY: Animation = .constant(0.5),
                scaleX: Animation = .constant(1), scaleY: Animation = .constant(1), rotation: Animation = .constant(0)) {
        self.positionX = positionX
        self.positionY = positionY
        self.anchorX = anchorX
        self.anchorY = anchorY
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.rotation = rotation
    }

    /// The identity for a render size: anchor at the centre of the frame.
    public static func identity(for size: PixelSize) -> LayerTransform {
        LayerTransform(positionX: .constant(Double(size.width) / 2), positionY: .constant(Double(size.height) / 2))
    }

    public func sliced(to range: TimeRange) -> LayerTransform {
        LayerTransform(positionX: positionX.sliced(to: range), positionY: positionY.sliced(to: range),
                       anchorX: anchorX.sliced(to: range), anchorY: anchorY.sliced(to: range), scaleX: scaleX.sliced(to: range),
                       scaleY: scaleY.sliced(to: range), rotation: rotation.sliced(to: range))
    }

    public var animations: [Animation] { [positionX, positionY, anchorX, anchorY, scaleX, scaleY, rotation] }
}

/// Edges cut off a source frame, as fractions of its (oriented) width and height.
public struct CropAnimation: Hashable, Sendable, Codable {
    public var left: Animation
    public var top: Animation
    public var right: Animation
    public var bottom: Animation

    public init(left: Animation = .constant(0), top: Animation = .constant(0),
                right: Animation = .constant(0), bottom: Animation = .constant(0)) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    public static let none = CropAnimation()

    public func sliced(to range: TimeRange) -> CropAnimation {
        CropAnimation(left: left.sliced(to: range), top: top.sliced(to: range),
                      right: right.sliced(to: range), bottom: bottom.sliced(to: range))
    }

    public var animations: [Animation] { [left, top, right, bottom] }
}

/// One video track's part in an instruction (AVMutableVideoCompositionLayerInstruction).
public struct LayerInstruction: Hashable, Sendable, Codable {
    public var trackID: Int
    public var fit: Fit
    public var transform: LayerTransform
    public var opacity: Animation
    public var crop: CropAnimation
    /// What part of the layer shows (nil: all of it). Omitted from JSON when nil.
    public var mask: LayerMask?
    /// Looks applied to the picture before it is placed, in order (omitted from JSON when empty).
    public var filters: [LayerFilter]

    public init(trackID: Int, fit: Fit, transform: LayerTransform, opacity: Animation, crop: CropAnimation, mask: LayerMask? = nil,
                filters: [LayerFilter] = []) {
        self.trackID = trackID
        self.fit = fit
        self.transform = transform
        self.opacity = opacity
        self.crop = crop
        self.mask = mask
        self.filters = filters
    }

    public var animations: [Animation] { transform.animations + [opacity] + crop.animations + (mask?.animations ?? []) }

    private enum CodingKeys: String, CodingKey { case trackID, fit, transform, opacity, crop, mask, filters }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(trackID: try c.decode(Int.self, forKey: .trackID), fit: try c.decode(Fit.self, forKey: .fit),
                  transform: try c.decode(LayerTransform.self, forKey: .transform), opacity: try c.decode(Animation.self, forKey: .opacity),
                  crop: try c.decode(CropAnimation.self, forKey: .crop), mask: try c.decodeIfPresent(LayerMask.self, forKey: .mask),
                  filters: try c.decodeIfPresent([LayerFilter].self, forKey: .filters) ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(trackID, forKey: .trackID)
        try c.encode(fit, forKey: .fit)
        try c.encode(transform, forKey: .transform)
        try c.encode(opacity, forKey: .opacity)
        try c.encode(crop, forKey: .crop)
        try c.encodeIfPresent(mask, forKey: .mask)
        if !filters.isEmpty { try c.encode(filters, forKey: .filters) }
    }
}

// MARK: - AudioMix (AVMutableAudioMix)

public struct AudioMix: Hashable, Sendable, Codable {
    /// One entry per audio track that is heard.
    public var tracks: [AudioMixTrack]

    public init(tracks: [AudioMixTrack]) { self.tracks = tracks }

    public func parameters(for trackID: Int) -> AudioMixTrack? { tracks.first { $0.trackID == trackID } }
}

public struct AudioMixTrack: Hashable, Sendable, Codable {
    public var trackID: Int
    /// Linear gain (1 = unchanged), fades and crossfades included.
    public var volume: Animation
    /// How segments played faster or slower sound (AVAudioMixInputParameters.audioTimePitchAlgorithm).
    public var timePitch: TimePitchAlgorithm
    /// Ducked under other tracks (a sidechain), or nil.
    public var duck: Ducking?

    public init(trackID: Int, volume: Animation, timePitch: TimePitchAlgorithm = .varispeed, duck: Ducking? = nil) {
        self.trackID = trackID
        self.volume = volume
        self.timePitch = timePitch
        self.duck = duck
    }

    private enum CodingKeys: String, CodingKey { case trackID, volume, timePitch, duck }

    /// `timePitch` is written only when it is not the default (`varispeed`), `duck` only when set.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        trackID = try c.decode(Int.self, forKey: .trackID)
        volume = try c.decode(Animation.self, forKey: .volume)
        timePitch = try c.decodeIfPresent(TimePitchAlgorithm.self, forKey: .timePitch) ?? .varispeed
        duck = try c.decodeIfPresent(Ducking.self, forKey: .duck)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(trackID, forKey: .trackID)
        try c.encode(volume, forKey: .volume)
        if timePitch != .varispeed { try c.encode(timePitch, forKey: .timePitch) }
        try c.encodeIfPresent(duck, forKey: .duck)
    }
}

/// A track's gain following other tracks' level (a sidechain ducker): while the key tracks
/// sound above `threshold`, the gain falls towards −`depth` dB in `attack`; when they fall
/// silent it comes back to 0 dB in `release` (linear in dB). The key is the key tracks' mix
/// after their volume ramps and before their own ducking.
public struct Ducking: Hashable, Sendable, Codable {
    /// The tracks whose level the gain follows (a named track's lanes).
    public var keyTrackIDs: [Int]
    /// How far the gain falls, dB (positive).
    public var depth: Double
    /// The key's level (RMS, dBFS) above which the track is ducked.
    public var threshold: Double
    public var attack: MediaTime
    public var release: MediaTime

    public init(keyTrackIDs: [Int], depth: Double, threshold: Double, attack: MediaTime, release: MediaTime) {
        self.keyTrackIDs = keyTrackIDs
        self.depth = depth
        self.threshold = threshold
        self.attack = attack
        self.release = release
    }
}

/// How audio played at another speed sounds (AVAudioTimePitchAlgorithm).
public enum TimePitchAlgorithm: String, Hashable, Sendable, Codable {
    /// Resampled like tape: the pitch moves with the speed, and every sound stays exactly in
    /// place (sample-accurate sync).
    case varispeed
    /// Time-stretched (WSOLA, `.timeDomain`): the pitch stays; sounds keep their place
    /// within about a grain (20 ms) divided by the speed.
    case timeDomain = "time-domain"
}

extension Array {
    /// The element whose range contains `t`, in elements ordered by time whose ranges do not
    /// overlap; found by binary search.
    func element(containing t: MediaTime, range: KeyPath<Element, TimeRange>) -> Element? {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle][keyPath: range].end <= t { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low][keyPath: range].contains(t) ? self[low] : nil
    }

    /// The elements whose ranges overlap `times` (share more than an instant), in elements
    /// ordered by time whose ranges do not overlap: a binary search, then the overlapping run.
    func elements(overlapping times: TimeRange, range: KeyPath<Element, TimeRange>) -> ArraySlice<Element> {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle][keyPath: range].end <= times.start { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < count, self[end][keyPath: range].start < times.end { end += 1 }
        return self[low..<end].filter { $0[keyPath: range].intersection(times) != nil }[...]
    }
}
