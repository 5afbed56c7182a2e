import CompositionGraph

/// The `--size` of stills: `640x` (that width, the height follows the frame's aspect
/// ratio), `x360` (that height), or `640x360` (the largest size of the frame's aspect ratio
/// that fits in that box). `reel frame`, `reel thumbnails` and `reel preview` take it.
public struct StillSize: Equatable, Sendable, CustomStringConvertible {
    public var width: Int?
    public var height: Int?

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    public init(width: Int?, height: Int?) {
        self.width = width
        self.height = height
    }

    public init(parsing text: String) throws(ParseError) {
        let parts = text.lowercased().split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false)
        func number(_ s: Substring) throws(ParseError) -> Int? {
            if s.isEmpty { return nil }
            guard let n = Int(s), (1...16384).contains(n) else {
                throw ParseError(description: "'\(s)' is not a size in pixels (1–16384)")
            }
            return n
        }
        guard parts.count == 2 else {
            throw ParseError(description: "write WIDTHx, xHEIGHT or WIDTHxHEIGHT, for example 640x")
        }
        width = try number(parts[0])
        height = try number(parts[1])
        guard width != nil || height != nil else {
            throw ParseError(description: "give a width, a height or both, for example 640x")
        }
    }

    public var description: String { (width.map(String.init) ?? "") + "x" + (height.map(String.init) ?? "") }

    /// The size a frame of `size` is scaled to (each side at least 1 pixel).
    public func fitting(_ size: PixelSize) -> PixelSize {
        let byWidth = width.map { Double($0) / Double(size.width) }
        let byHeight = height.map { Double($0) / Double(size.height) }
        let k = [byWidth, byHeight].compactMap { $0 }.min()!
        func scaled(_ side: Int) -> Int { max(1, Int((Double(side) * k).rounded())) }
        return PixelSize(width: scaled(size.width), height: scaled(size.height))
    }
}
