/// A Reel project used as a clip's media (a pre-composition): its graph, compiled with the
/// vars the clip passes to it. A reference carrying one is a video (with the nested mix as its
/// sound) whose frames are rendered from the graph, never encoded and decoded.
public struct NestedProject: Hashable, Sendable, Codable {
    /// Boxed: a graph holds references, which may hold graphs.
    private var boxed: [CompositionGraph]
    /// The values the clip passed to the nested project's vars, by name (as written).
    public var vars: [String: String]

    public init(graph: CompositionGraph, vars: [String: String]) {
        boxed = [graph]
        self.vars = vars
    }

    public var graph: CompositionGraph {
        get { boxed[0] }
        set { boxed[0] = newValue }
    }

    /// `title="Spring", n="2"`: the vars in name order, for listings.
    public var varsText: String {
        vars.keys.sorted().map { "\($0)=\"\(vars[$0]!)\"" }.joined(separator: ", ")
    }

    private enum CodingKeys: String, CodingKey { case graph, vars }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(graph: try c.decode(CompositionGraph.self, forKey: .graph), vars: try c.decode([String: String].self, forKey: .vars))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(graph, forKey: .graph)
        try c.encode(vars, forKey: .vars)
    }
}
