import CompositionGraph
import MediaTime

/// A video clip's `mask:` as written: one shape or a matte, with feather and invert.
public struct MaskSpec: Sendable {
    public enum Source: Sendable {
        case rect(MaskBoxSpec, radius: Animated<Double>)
        case ellipse(MaskBoxSpec)
        /// Parsed path data, moved by an offset.
        case path(MaskPath, x: Animated<Length>, y: Animated<Length>)
        /// A media name; `from` is the source time shown when the clip starts.
        case matte(String, from: MediaTime?, channel: MaskMatte.Channel)
    }

    public var source: Source
    public var feather: Animated<Double>
    public var invert: Bool
    /// Where the shape or matte is named (for errors about it).
    public var origin: Origin
}

/// A mask box in frame coordinates: pixels or percentages of the frame.
public struct MaskBoxSpec: Sendable {
    public var x, y, width, height: Animated<Length>
}
