/// Bounds that keep hostile files (alias bombs, huge or deeply nested documents) cheap to reject.
public struct LoadLimits: Sendable {
    /// Largest file read, in bytes.
    public var maxFileBytes: Int
    /// Deepest nesting of lists and mappings.
    public var maxDepth: Int
    /// Most nodes in the tree once YAML aliases are expanded.
    public var maxNodes: Int

    public init(maxFileBytes: Int = 1 << 20, maxDepth: Int = 64, maxNodes: Int = 100_000) {
        self.maxFileBytes = maxFileBytes
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
    }
}
