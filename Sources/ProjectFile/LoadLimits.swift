/// Bounds that keep hostile files (alias bombs, huge or deeply nested documents) cheap to reject.
public struct LoadLimits: Sendable {
    /// Largest file read, in bytes.
    public var maxFileBytes: Int
    /// Deepest nesting of lists and mappings.
    public var maxDepth: Int
    /// Most nodes in the tree once YAML aliases are expanded.
    public var maxNodes: Int
    /// JSON may hold `NaN`, `Infinity`, `-Infinity` and `Inf` as numbers (OpenTimelineIO writes
    /// them in metadata); they load as numbers with that text.
    public var acceptsNonFiniteNumbers: Bool

    public init(maxFileBytes: Int = 1 << 20, maxDepth: Int = 64, maxNodes: Int = 100_000, acceptsNonFiniteNumbers: Bool = false) {
        self.maxFileBytes = maxFileBytes
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
        self.acceptsNonFiniteNumbers = acceptsNonFiniteNumbers
    }
}
