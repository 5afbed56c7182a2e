import CompositionGraph
import Digest
import Foundation
import ShaderRendering

/// The graph's GLSL transitions, compiled once a process and kept by their file's digest.
/// `prepare` compiles every one before the first frame (so a file changed or gone since the
/// project was checked stops the render at its start); a mix asks for its shader by its call.
final class ShaderShelf: @unchecked Sendable {
    static let shared = ShaderShelf()

    private let lock = NSLock()
    private var shaders: [String: ShaderTransition] = [:]

    /// Compiles every shader the graph's transitions call.
    static func prepare(_ graph: CompositionGraph) throws(RenderError) {
        for instruction in graph.videoComposition.instructions {
            for call in instruction.transitions.compactMap({ $0.mix?.shader }) { _ = try shared.shader(for: call) }
        }
    }

    /// The compiled shader of `call`: its file read again and checked against the digest the graph holds.
    func shader(for call: ShaderCall) throws(RenderError) -> ShaderTransition {
        lock.lock()
        defer { lock.unlock() }
        if let shader = shaders[call.digest] { return shader }
        guard let data = FileManager.default.contents(atPath: call.path) else { throw .missingFile(call.path, name: "a GLSL transition") }
        var hash = SHA256()
        data.withUnsafeBytes { hash.update($0) }
        guard hash.hexDigest() == call.digest else { throw .changedSinceChecked(call.path, name: "a GLSL transition") }
        do {
            let shader = try ShaderTransition(source: String(decoding: data, as: UTF8.self))
            shaders[call.digest] = shader
            return shader
        } catch {
            switch error {
            case .compile(let problems):
                throw .invalidSettings("\(call.path):\(problems.first?.line ?? 1): \(problems.first?.message ?? "does not compile")")
            case .unavailable(let reason):
                throw .invalidSettings("a GLSL transition needs OpenGL, which is not available: \(reason)")
            }
        }
    }
}
