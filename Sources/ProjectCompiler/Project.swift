import CompositionGraph
import MediaTime
import ProjectFile
import TransitionKernels

/// A project file after schema validation and vars substitution, with every time exact,
/// every colour parsed and every path absolute. Items keep their source location so the
/// compiler's semantic checks can point at them.
public struct Project: Sendable {
    public var file: String
    public var output: OutputSpec
    /// In file order.
    public var media: [MediaEntry]
    /// Font files (absolute paths) with where the project lists them.
    public var fonts: [(path: String, origin: Origin)]
    /// Bottom to top.
    public var videoTracks: [Track<VideoClip>]
    public var audioTracks: [Track<AudioClip>]
    /// Drawn in list order, above the video.
    public var overlays: [Overlay]
    /// Named times of the timeline (`markers:`), kept for editing systems; not drawn.
    public var markers: [Marker] = []
    /// Caption tracks, drawn above the overlays in list order.
    public var captions: [CaptionTrack] = []

    public func mediaEntry(named name: String) -> MediaEntry? { media.first { $0.name == name } }

    /// Every overlay in the order they are drawn, with the clip that holds it (its video
    /// track's index and its index among the track's items; nil for `overlays:`): those
    /// written in clips first, track by track from the bottom and clip by clip, then the
    /// project's `overlays:`.
    public var overlaysInDrawingOrder: [(overlay: Overlay, clip: (track: Int, item: Int)?)] {
        var result: [(overlay: Overlay, clip: (track: Int, item: Int)?)] = []
        for (t, track) in videoTracks.enumerated() {
            for (i, item) in track.items.enumerated() {
                if case .clip(let clip) = item { result += clip.overlays.map { ($0, (t, i)) } }
            }
        }
        return result + overlays.map { ($0, nil) }
    }
}

public struct OutputSpec: Sendable {
    public var size: PixelSize
    public var fps: Rational
    public var background: Color
    public var duration: MediaTime?
    public var settings: OutputSettings
    /// `output.audio.keep_pitch`: speed changes keep the pitch (time-stretch) instead of moving it.
    public var keepPitch: Bool
    /// Where `duration` is written.
    public var durationOrigin: Origin? = nil

    public var frameDuration: MediaTime { MediaTime(fps.reciprocal) }
}

/// A named file of the project's `media:` list; what it holds is learnt when compiling.
public struct MediaEntry: Sendable {
    public var name: String
    /// Absolute, or a URL as written (see `RemoteMediaAddress`); nil when the project may not
    /// read the path (refused by its `ProjectPathResolver`, reported where it is written).
    public var path: String?
    /// Where the path is written.
    public var location: SourceLocation
    /// `fps` of an image sequence (`shots/f%04d.png`): its k-th file shows from k / rate; nil: 25 fps.
    public var sequenceRate: Rational? = nil
}

/// Where a node came from: its place in the file and its path in the document.
public struct Origin: Sendable {
    public var location: SourceLocation
    public var path: String
}

public struct Track<Clip: Sendable>: Sendable {
    public var name: String?
    public var items: [TrackItem<Clip>]
    /// `duck:` (audio tracks): the track's gain follows another track's level.
    public var duck: DuckSpec? = nil
    public var origin: Origin
    /// `filters:` (video tracks): applied to every clip of the track, after the clip's own.
    public var filters: [FilterSpec] = []
}

/// `duck: { under: voice, by: 12dB, threshold: -40dB, attack: 0.2s, release: 0.5s }`.
public struct DuckSpec: Sendable {
    /// The name of the track whose level the gain follows.
    public var under: String
    /// How far the gain falls, dB (positive).
    public var by: Double
    /// The other track's level (RMS, dBFS) above which this one is ducked.
    public var threshold: Double
    public var attack: MediaTime
    public var release: MediaTime
    /// Where `under` is written.
    public var origin: Origin

    public static let defaultBy = 12.0, defaultThreshold = -40.0
    public static let defaultAttack = MediaTime(Rational(1, 5)), defaultRelease = MediaTime(Rational(1, 2))
}

public enum TrackItem<Clip: Sendable>: Sendable {
    case clip(Clip)
    case transition(Transition)
    case gap(MediaTime, Origin)
}

public struct Transition: Sendable {
    /// Every video transition, in the schema's order: its name (the raw value) and what it shows
    /// (`summary`, for docs/format.md). The built-in kinds are a crossfade and ramps of the
    /// layers' own (their pictures in `TransitionEffect`, Instructions.swift); the rest are the
    /// mixing kernels of `TransitionCatalogue` (module TransitionKernels), each declared beside
    /// its pixels. A new kind is one of those, then `scripts/generate-format` for the schema and docs.
    public struct Kind: RawRepresentable, Hashable, Sendable {
        public let rawValue: String

        private init(_ name: String) { rawValue = name }

        /// The kind named `rawValue`, if there is one.
        public init?(rawValue: String) {
            guard let kind = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
            self = kind
        }

        public static let crossfade = Kind("crossfade")
        /// A user's GLSL file (`transition: { glsl: … }`), not a name the schema lists.
        public static let glsl = Kind("glsl")
        public static let fadeThroughBlack = Kind("fade-through-black"), fadeThroughWhite = Kind("fade-through-white")
        public static let wipeLeft = Kind("wipe-left"), wipeRight = Kind("wipe-right"), wipeUp = Kind("wipe-up"), wipeDown = Kind("wipe-down")
        public static let slideLeft = Kind("slide-left"), slideRight = Kind("slide-right"), slideUp = Kind("slide-up"), slideDown = Kind("slide-down")
        public static let pushLeft = Kind("push-left"), pushRight = Kind("push-right"), pushUp = Kind("push-up"), pushDown = Kind("push-down")

        /// The kinds the compiler draws itself.
        public static let builtIn: [Kind] = [.crossfade, .fadeThroughBlack, .fadeThroughWhite, .wipeLeft, .wipeRight, .wipeUp, .wipeDown,
                                             .slideLeft, .slideRight, .slideUp, .slideDown, .pushLeft, .pushRight, .pushUp, .pushDown]
        /// Every kind: the built-in ones, then the kernels.
        public static let allCases: [Kind] = builtIn + TransitionCatalogue.all.map { Kind($0.declaration.name) }

        /// The mixing kernel of this kind; nil for the built-in kinds.
        public var kernel: (any TransitionKernel.Type)? { TransitionCatalogue.named(rawValue) }

        /// What the transition shows, in Markdown.
        public var summary: String {
            if let kernel { return kernel.declaration.summary }
            switch self {
            case .glsl: return "A user's GLSL file in the gl-transitions form, run by Mesa's llvmpipe."
            case .crossfade:
                return "A dissolve: at progress p the frame is (1 − p)·outgoing + p·incoming, each as it would look alone over what is beneath it, "
                    + "so a picture that does not fill the frame (a contain-fitted photo, one with alpha) fades out beside the incoming one "
                    + "instead of showing at full strength to the last frame."
            case .fadeThroughBlack: return "The outgoing clip fades out to black over the first half, the incoming one in from black over the second."
            case .fadeThroughWhite: return "As `fade-through-black`, through white."
            case .wipeLeft, .wipeRight, .wipeUp, .wipeDown: return "The incoming clip is revealed by an edge moving \(direction)."
            case .slideLeft, .slideRight, .slideUp, .slideDown: return "The incoming clip slides in over the outgoing one, moving \(direction)."
            default: return "The incoming clip pushes the outgoing one out, moving \(direction)."
            }
        }

        /// The way a wipe, slide or push moves: the end of its name.
        private var direction: String { String(rawValue.split(separator: "-").last ?? "") }
    }

    public var kind: Kind
    /// A kernel's parameters, every one it declares (defaults filled in); empty for the built-in kinds.
    public var parameters: [String: TransitionParameterValue] = [:]
    /// A kernel's picture parameters as written, media names by parameter (the compiler puts
    /// their media in `parameters`).
    public var pictures: [String: String] = [:]
    /// A user's GLSL transition (`transition: { glsl: wave.glsl, params: {…} }`; `kind` is `.glsl`).
    public var shader: ShaderCall? = nil
    public var duration: MediaTime
    public var ease: Easing
    public var origin: Origin
}

/// When a keyframe is, relative to its item.
public enum KeyframeTime: Sendable, Hashable {
    case fromStart(MediaTime)
    /// Time before the item's end (`at: -1s` is 1 s before it, `at: end` is `.fromEnd(0)`).
    case fromEnd(MediaTime)
}

/// A project-level animatable value: a constant or keyframes relative to its item.
public enum Animated<Value: Sendable>: Sendable {
    case constant(Value)
    case keyframes([ProjectKeyframe<Value>])
}

public struct ProjectKeyframe<Value: Sendable>: Sendable {
    public var at: KeyframeTime
    public var value: Value
    /// How the value moves to the next keyframe.
    public var ease: Easing
    /// The keyframe names its ease (rather than taking the default).
    public var easeWritten: Bool
    public var origin: Origin
}

/// A length as pixels plus a fraction of a reference length, exact: `"50%"` is half the
/// reference, `"100vw - 48px"` (in a 1920-wide frame) 1872 pixels, `"(50% - 10px) / 2"` a
/// quarter of the reference less 5 pixels. The reference is the reader's: the frame along the
/// length's axis for positions and sizes, the source for a crop edge, the layer's box for an
/// anchor. Frame units (`vw`, `vh`, `vmin`, `vmax`) are pixels once the rendition's frame is
/// known, so they are pixels here.
public struct Length: Sendable, Hashable {
    public var pixels: Rational
    public var fraction: Rational

    public init(pixels: Rational = .zero, fraction: Rational = .zero) {
        self.pixels = pixels
        self.fraction = fraction
    }

    public static func pixels(_ p: Rational) -> Length { Length(pixels: p) }
    public static func fraction(_ f: Rational) -> Length { Length(fraction: f) }
    public static let zero = Length()

    /// The sum, or nil when it does not fit an exact rational.
    public func adding(_ other: Length) -> Length? {
        guard let p = pixels.adding(other.pixels), let f = fraction.adding(other.fraction) else { return nil }
        return Length(pixels: p, fraction: f)
    }

    /// The length in pixels against `reference` pixels, computed exactly and only then made a
    /// `Double` (so `100vw / 3` of 1920 is 640, not 640.0000000000001); in `Double` only for
    /// fractions too fine to multiply exactly.
    public func resolved(against reference: Int) -> Double {
        guard let part = fraction.multiplied(by: Rational(reference)), let sum = pixels.adding(part) else {
            return pixels.doubleValue + fraction.doubleValue * Double(reference)
        }
        return sum.doubleValue
    }
}

public struct Point2D: Sendable, Hashable {
    public var x: Length
    public var y: Length
}

public struct TransformSpec: Sendable {
    public var position: Animated<Point2D>?
    public var anchor: Animated<Point2D>
    public var scale: Animated<Double>
    public var rotation: Animated<Double>
}

public struct CropSpec: Sendable {
    public var left, top, right, bottom: Animated<Length>
}

/// What a video clip shows.
public enum VideoSource: Sendable {
    case media(String)
    case color(Color)
    /// `- glsl: waves.frag`: a fragment shader's picture at every frame.
    case shader(ShaderCall)
}

/// The timing fields every clip shares; which of them are set is checked by the compiler.
public struct ClipTiming: Sendable {
    /// The word `duration:` takes for "to the media's end".
    public static let mediaEnd = "media"

    public var from: MediaTime?
    public var to: MediaTime?
    public var duration: MediaTime?
    /// A duration was written but is not usable (already reported).
    public var durationIsInvalid: Bool
    /// `duration: media`: the clip runs to its media's end, as with no end written, but said
    /// (so no default duration reaches it).
    public var toMediaEnd = false
    public var at: MediaTime?
    public var speed: Rational
    public var fadeIn: MediaTime?
    public var fadeOut: MediaTime?
    /// Speed ramp, reverse, freeze frame.
    public var effects = TimeEffects()
}

/// A named point or range of the timeline.
public struct Marker: Sendable {
    public var at: MediaTime
    public var duration: MediaTime
    public var name: String
    public var color: String?
}

/// A clip's `id:`, which overlays name to follow it (`at: { clip: intro }`): unique in the
/// project, unlike `name`, a free label.
public struct ClipID: Sendable {
    public var name: String
    /// Where the id is written.
    public var origin: Origin
}

public struct VideoClip: Sendable {
    /// A label (`name:`), kept by export; not drawn.
    public var name: String?
    public var id: ClipID? = nil
    public var source: VideoSource
    public var timing: ClipTiming
    public var fit: Fit
    public var transform: TransformSpec
    public var crop: CropSpec
    public var opacity: Animated<Double>
    public var volume: Animated<Double>
    public var mute: Bool
    /// What part of the clip shows (`mask:`), or nil.
    public var mask: MaskSpec? = nil
    public var origin: Origin
    /// `vars:` passed to a nested project (the media is a Reel project), each at its value.
    public var vars: [VarOverride] = []
    /// `filters:`, in order.
    public var filters: [FilterSpec] = []
    /// `backdrop:`: what fills the frame around the picture.
    public var backdrop: Backdrop? = nil
    /// `enter:` and `exit:`, written as keyframes once the clip's span is known.
    var enter: NamedMove? = nil
    var exit: NamedMove? = nil
    /// `overlays:` written in the clip, timed by its span (`OverlayTiming.Base.ownClip`).
    public var overlays: [Overlay] = []
}

/// What fills the frame around a clip that does not cover it: a layer under the clip with the
/// clip's timing, opacity and transitions.
public struct Backdrop: Sendable {
    public enum Kind: Sendable {
        /// The clip itself, cover-fitted and blurred.
        case blur
        case color(Color)
        /// An image of the media block, cover-fitted.
        case image(String)
    }

    public var kind: Kind
    public var origin: Origin
}

extension VideoClip {
    /// The clip sets a volume for its own audio (so its media must have sound).
    public var asksForAudio: Bool {
        if case .constant(let v) = volume, v == 1 { return false }
        return true
    }
}

public struct AudioClip: Sendable {
    /// A label (`name:`), kept by export.
    public var name: String?
    public var id: ClipID? = nil
    public var media: String
    public var timing: ClipTiming
    public var volume: Animated<Double>
    public var loop: Bool
    public var origin: Origin
}

public struct Overlay: Sendable {
    public struct Reveal: Sendable {
        public var left: Animated<Double> = .constant(0)
        public var top: Animated<Double> = .constant(0)
        public var right: Animated<Double> = .constant(1)
        public var bottom: Animated<Double> = .constant(1)
    }

    public enum Content: Sendable {
        case text(String, TextStyle)
        case image(String)
        case svg(String)
        case rect(ShapeStyle)
        case ellipse(ShapeStyle)
    }

    public struct Watermark: Sendable {
        public enum Corner: String, Sendable { case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right" }
        public var corner: Corner
        /// From the corner's two edges: `%` of the frame along each axis.
        public var margin: Length
        public var width: Length?
        public var height: Length?
    }

    public var content: Content
    public var timing: OverlayTiming
    public var position: Animated<Point2D>?
    /// Fractions of the layer's box.
    public var anchor: Animated<Point2D>
    public var width: Length?
    public var height: Length?
    /// How an image or SVG fills a box given by both width and height.
    public var fit: Fit
    public var scale: Animated<Double>
    public var rotation: Animated<Double>
    public var opacity: Animated<Double>
    public var fadeIn: MediaTime?
    public var fadeOut: MediaTime?
    /// What a wipe leaves of the layer: fractions of its ink's bounds (`RevealBox`); nil: all.
    public var reveal: Reveal?
    /// How long the named entrance and exit last together, where they are written (checked
    /// against the overlay's span once it is known).
    public var moves: (length: MediaTime, origin: Origin)?
    public var watermark: Watermark?
    public var origin: Origin
    /// Where a text overlay names its font (for font errors).
    public var fontOrigin: Origin?
    /// Each font a text overlay's markup names (`<span font=…>`), where it is first written (for font errors).
    public var inlineFonts: [(family: String, origin: Origin)] = []
    /// A text's entrance and exit by unit (`enter: {kind: fade, by: word}`), timed with its span.
    public var unitMoves: [TextUnitMoveSpec] = []
}

/// When an overlay starts and how long it lasts: on the timeline (`at: 2s`), or from a point
/// of a clip's span (`at: { clip: intro, from: end, offset: -1s }`, or written in the clip's
/// `overlays:`), worked out once the clips are placed (`TimedOverlay`). A clip's span is where
/// its picture shows: from the start of the transition into it to the end of the transition
/// out of it.
public struct OverlayTiming: Sendable {
    /// What `at` counts from.
    public enum Base: Sendable {
        /// The timeline's start.
        case timeline
        /// The span of the clip with this id.
        case clip(ClipID)
        /// The span of the clip whose `overlays:` hold the overlay.
        case ownClip
    }

    /// The end of the clip's span that `offset` counts from (`from:`).
    public enum Edge: String, Sendable { case start, end }

    /// How long the overlay lasts.
    public enum Length: Sendable {
        case time(MediaTime)
        /// `duration: clip`: to the end of the clip's span.
        case clip
    }

    /// The word `duration:` takes for `Length.clip`.
    public static let clipLength = "clip"

    public var base: Base
    public var edge: Edge = .start
    /// From `edge`; negative before it (only in the `{ clip, offset }` form: a plain `at` is never negative).
    public var offset: MediaTime = .zero
    /// nil: to the timeline's end.
    public var length: Length? = nil
    /// Where `at` is written (nil: not written).
    public var atOrigin: Origin? = nil
    /// Where `duration` is written (nil: not written, or taken for a clip's own overlay).
    public var lengthOrigin: Origin? = nil
}
