import MediaTime

/// What part of a video layer shows: a shape or another picture's luminance or alpha, as a
/// coverage from 0 (hidden) to 1 (shown) at every output pixel. Masks are in frame
/// coordinates (output pixels, origin top left): they stay put when the layer moves.
public struct LayerMask: Hashable, Sendable, Codable {
    public enum Source: Hashable, Sendable, Codable {
        /// A filled rectangle with rounded corners (radius in pixels).
        case rect(MaskBox, cornerRadius: Animation)
        /// The ellipse inscribed in a box.
        case ellipse(MaskBox)
        /// An outline (nonzero fill), moved by an offset.
        case path(MaskPath, offsetX: Animation, offsetY: Animation)
        /// Another file's picture, stretched over the frame.
        case matte(MaskMatte)
    }

    public var source: Source
    /// How soft the edge is, in pixels: the coverage ramps over about this distance on each
    /// side of the outline (a Gaussian of standard deviation feather / 2).
    public var feather: Animation
    /// Shows what the mask would hide and hides what it shows.
    public var invert: Bool

    public init(source: Source, feather: Animation = .constant(0), invert: Bool = false) {
        self.source = source
        self.feather = feather
        self.invert = invert
    }

    public func sliced(to range: TimeRange) -> LayerMask {
        var m = self
        m.feather = feather.sliced(to: range)
        switch source {
        case .rect(let box, let radius): m.source = .rect(box.sliced(to: range), cornerRadius: radius.sliced(to: range))
        case .ellipse(let box): m.source = .ellipse(box.sliced(to: range))
        case .path(let path, let x, let y): m.source = .path(path, offsetX: x.sliced(to: range), offsetY: y.sliced(to: range))
        case .matte: break
        }
        return m
    }

    public var animations: [Animation] {
        switch source {
        case .rect(let box, let radius): box.animations + [radius, feather]
        case .ellipse(let box): box.animations + [feather]
        case .path(_, let x, let y): [x, y, feather]
        case .matte: [feather]
        }
    }

    /// The file the mask reads, if any.
    public var matteMedia: MediaReference? {
        if case .matte(let matte) = source { return matte.media }
        return nil
    }
}

/// A box in output pixels: top-left corner and size.
public struct MaskBox: Hashable, Sendable, Codable {
    public var x: Animation
    public var y: Animation
    public var width: Animation
    public var height: Animation

    public init(x: Animation, y: Animation, width: Animation, height: Animation) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    func sliced(to range: TimeRange) -> MaskBox {
        MaskBox(x: x.sliced(to: range), y: y.sliced(to: range), width: width.sliced(to: range), height: height.sliced(to: range))
    }

    var animations: [Animation] { [x, y, width, height] }
}

/// An outline as absolute drawing commands in output pixels (SVG path data, already parsed).
public struct MaskPath: Hashable, Sendable, Codable {
    public enum Command: Hashable, Sendable, Codable {
        case move(Double, Double)
        case line(Double, Double)
        /// A cubic Bézier: two control points, then the end point.
        case cubic(Double, Double, Double, Double, Double, Double)
        case close
    }

    public var commands: [Command]

    public init(commands: [Command]) { self.commands = commands }
}

/// A matte: the picture of a file at the same timeline time, its luma or alpha the coverage.
public struct MaskMatte: Hashable, Sendable, Codable {
    /// The project format's `mode:`, in the schema's order, the default first.
    public enum Channel: String, Hashable, Sendable, Codable, CaseIterable {
        /// Luma: black (Y′ 16) hides, white (Y′ 235) shows.
        case luma
        /// The alpha channel: transparent hides, opaque shows.
        case alpha

        /// What the mode does in a few words, for the schema (`scripts/generate-format`).
        public var summary: String {
            switch self {
            case .luma: "black hides, white shows; the default"
            case .alpha: "transparent hides"
            }
        }
    }

    public var media: MediaReference
    /// The source time shown at `timelineStart` (speed 1 from there); nil for a still picture.
    public var sourceStart: MediaTime?
    public var timelineStart: MediaTime
    public var channel: Channel

    public init(media: MediaReference, sourceStart: MediaTime?, timelineStart: MediaTime, channel: Channel) {
        self.media = media
        self.sourceStart = sourceStart
        self.timelineStart = timelineStart
        self.channel = channel
    }

    /// The source time shown at timeline time `t` (zero for a still picture).
    public func sourceTime(at t: MediaTime) -> MediaTime {
        guard let sourceStart else { return .zero }
        return sourceStart + (t - timelineStart)
    }
}
