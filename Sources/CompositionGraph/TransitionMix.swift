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
    /// A user's GLSL file run instead of a kernel (`kernel` is then `glsl`); omitted from JSON when nil.
    public var shader: ShaderCall?

    public init(kernel: String, parameters: [String: TransitionParameterValue], progress: Animation, shader: ShaderCall? = nil) {
        self.kernel = kernel
        self.parameters = parameters
        self.progress = progress
        self.shader = shader
    }
}

/// A GLSL file (a transition in the gl-transitions form, or a picture's fragment shader) and the values of its uniforms. The file's digest
/// makes an edit to it a change of the graph (segment keys, `reel diff`).
public struct ShaderCall: Hashable, Sendable, Codable {
    public var path: String
    /// SHA-256 of the file's bytes, hex.
    public var digest: String
    /// Every uniform the file declares, its numbers (booleans 0 or 1), defaults filled in.
    public var uniforms: [String: [Double]]

    public init(path: String, digest: String, uniforms: [String: [Double]]) {
        self.path = path
        self.digest = digest
        self.uniforms = uniforms
    }
}

/// One parameter's value.
public enum TransitionParameterValue: Hashable, Sendable, Codable {
    case number(Double)
    case integer(Int)
    case boolean(Bool)
    case color(Color)
    case vector(Double, Double)
    /// An image or SVG, stretched over the frame (`luma`'s `luminance_map`).
    case picture(MediaReference)
}

extension CompositionGraph {
    /// The GLSL files this graph (not a nested project's) runs: its transitions' and its shader segments', each file once.
    public var shaderCalls: (transitions: [ShaderCall], pictures: [ShaderCall]) {
        var seen = Set<String>()
        let transitions = videoComposition.instructions.flatMap(\.transitions).compactMap(\.mix?.shader).filter { seen.insert($0.digest).inserted }
        seen = []
        let pictures = composition.tracks.flatMap(\.segments).compactMap { segment -> ShaderCall? in
            guard case .shader(let call)? = segment.content else { return nil }
            return call
        }.filter { seen.insert($0.digest).inserted }
        return (transitions, pictures)
    }
}
