import CompositionGraph
import Digest
import Foundation
import ShaderRendering

/// The graph's GLSL transitions and pictures, compiled once a process and kept by their file's
/// digest. `prepare` compiles every one before the first frame (so a file changed or gone since
/// the project was checked stops the render at its start); a mix or a layer asks for its
/// shader by its call.
final class ShaderShelf: @unchecked Sendable {
    static let shared = ShaderShelf()

    private let lock = NSLock()
    private var transitions: [String: ShaderTransition] = [:]
    private var pictures: [String: ShaderPicture] = [:]

    /// Compiles every shader the graph and its nested projects call.
    static func prepare(_ graph: CompositionGraph) throws(RenderError) {
        let calls = graph.shaderCalls
        for call in calls.transitions { _ = try shared.transition(for: call) }
        for call in calls.pictures { _ = try shared.picture(for: call) }
        for ref in graph.mediaReferences { if let nested = ref.nested { try prepare(nested.graph) } }
    }

    /// The compiled transition of `call`: its file read again and checked against the digest the graph holds.
    func transition(for call: ShaderCall) throws(RenderError) -> ShaderTransition {
        try shader(for: call, role: "a GLSL transition", in: &transitions, compile: ShaderTransition.init(source:))
    }

    /// The compiled picture shader of `call`, as `transition(for:)`.
    func picture(for call: ShaderCall) throws(RenderError) -> ShaderPicture {
        try shader(for: call, role: "a GLSL clip", in: &pictures, compile: ShaderPicture.init(source:))
    }

    private func shader<Shader>(for call: ShaderCall, role: String, in shelf: inout [String: Shader],
                                compile: (String) throws(ShaderError) -> Shader) throws(RenderError) -> Shader {
        lock.lock()
        defer { lock.unlock() }
        if let shader = shelf[call.digest] { return shader }
        guard let data = FileManager.default.contents(atPath: call.path) else { throw .missingFile(call.path, name: role) }
        var hash = SHA256()
        data.withUnsafeBytes { hash.update($0) }
        guard hash.hexDigest() == call.digest else { throw .changedSinceChecked(call.path, name: role) }
        do {
            let shader = try compile(String(decoding: data, as: UTF8.self))
            shelf[call.digest] = shader
            return shader
        } catch {
            switch error {
            case .compile(let problems):
                throw .invalidSettings("\(call.path):\(problems.first?.line ?? 1): \(problems.first?.message ?? "does not compile")")
            case .unavailable(let reason):
                throw .invalidSettings("\(role) needs OpenGL, which is not available: \(reason)")
            }
        }
    }
}
