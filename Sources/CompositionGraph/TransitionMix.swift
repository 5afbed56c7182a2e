/// A transition that mixes the outgoing and incoming pictures pixel by pixel (one of the
/// gl-transitions kinds: `circle-open`, `cube`, …): the kernel's name, its parameters (every
/// one the kernel declares, defaults filled in by the compiler) and its progress. The render
/// looks the kernel up by name (module TransitionKernels); the graph holds only values.
public struct TransitionMix: Hashable, Sendable, Codable {
    /// The project format's name of the kind.
    public var kernel: String
    public var parameters: [String: TransitionParameterValue]
    /// 0 → 1 over the transition (eased, sliced to the instruction).
    public var progress: Animation

    public init(kernel: String, parameters: [String: TransitionParameterValue], progress: Animation) {
        self.kernel = kernel
        self.parameters = parameters
        self.progress = progress
    }
}

/// One parameter's value.
public enum TransitionParameterValue: Hashable, Sendable, Codable {
    case number(Double)
    case integer(Int)
    case boolean(Bool)
    case color(Color)
    case vector(Double, Double)
}
