import CompositionGraph
import FileSafety
import MediaIO
import MediaTime
import RenderEngine

/// One frame of a media file as a PNG (`reel probe --frame`), through the same facts and
/// readers a render uses for that file: turned upright by its rotation, timed from its first frame.
public struct MediaStill {
    public let file: String
    public let facts: MediaFacts
    /// The picture's size, upright.
    public let naturalSize: PixelSize
    private let sequenceRate: Rational?

    /// Reads the file's facts. Throws `MediaError` for a missing file, one that is no media,
    /// or one without a picture.
    public init(file: String, sequenceRate: Rational?) throws {
        self.file = file
        self.sequenceRate = sequenceRate
        do {
            facts = try MediaFactsReader().facts(forFileAt: file, sequenceRate: sequenceRate)
        } catch {
            switch error {
            case .missing: throw MediaError(.fileNotFound, path: file, "no such file")
            case .unreadable(_, let reason): throw MediaError(.notMedia, path: file, reason)
            }
        }
        guard let natural = facts.naturalSize else {
            throw MediaError(.noVideoStream, path: file, "has no picture to save: it is \(facts.kind.withArticle) file")
        }
        naturalSize = natural
    }

    /// The rate times in frames are counted at (25 for a still image).
    public var frameRate: Rational { facts.frameRate ?? Rational(25) }

    /// Writes the frame shown at `t` to the PNG `output` (never the file itself), scaled to fit
    /// `size` (nil: its own size); returns what was written, e.g. `f.png: in.mp4, frame at 00:00:01.000, 640x360`.
    public func save(at t: MediaTime, to output: String, size: StillSize?) throws -> String {
        try refuseUnsafeOutputs([output], reading: [ReadFile(path: file, role: "the probed file")], exampleName: "frame.png")
        let target = size?.fitting(naturalSize) ?? naturalSize
        let image = try SourcePictures().picture(of: MediaReference(name: file, path: file, facts: facts, sequenceRate: sequenceRate), at: t, size: target)
        try PNGEncoder.write(image, to: output)
        let shown = image.time == t || facts.duration == nil ? "" : " (on screen at \(TimeNotation.clock(t)))"
        return "\(output): \(file), frame at \(TimeNotation.clock(image.time))\(shown), \(target)"
    }
}
