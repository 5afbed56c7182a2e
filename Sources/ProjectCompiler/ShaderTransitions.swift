import CompositionGraph
import Digest
import Foundation
import JSONSchema
import ProjectFile
import ShaderRendering

/// What a GLSL file is used as.
enum ShaderUse {
    /// `transition: { glsl: wave.glsl, params: { amplitude: 0.2 } }`, in the form gl-transitions publishes.
    case transition
    /// `- glsl: waves.frag`: a clip drawn by a fragment shader (editly's `gl` layers, Shadertoy's `mainImage`).
    case picture

    var role: String { self == .transition ? "transition" : "clip" }
}

/// GLSL transitions and clips, compiled when the project is read so that a mistake in a file is
/// an error at its line in the file.
extension ProjectDecoder {
    /// Largest GLSL file read.
    static let shaderFileLimit = 1 << 20

    /// The shader a transition item or a clip names (`spec["glsl"]`), its file checked and
    /// compiled and its `params:` checked against the uniforms it declares; nil when any of
    /// that fails (reported).
    mutating func shaderCall(_ spec: NodeCursor, as use: ShaderUse) -> ShaderCall? {
        guard let node = spec["glsl"], let written = node.string, let path = filePath(node, written) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            problems.report("cannot read the GLSL file \(written)", at: node.origin, hint: "check the path; it is relative to the project file")
            return nil
        }
        guard data.count <= Self.shaderFileLimit else {
            problems.report("the GLSL file \(written) is \(data.count) bytes, more than a \(use.role)'s \(Self.shaderFileLimit)", at: node.origin)
            return nil
        }
        guard let source = String(data: data, encoding: .utf8) else {
            problems.report("the GLSL file \(written) is not UTF-8 text", at: node.origin)
            return nil
        }
        let uniforms: [ShaderUniform]
        do {
            uniforms = switch use {
            case .transition: try ShaderTransition(source: source).uniforms
            case .picture: try ShaderPicture(source: source).uniforms
            }
        } catch {
            switch error {
            case .compile(let diagnostics):
                let used = "\(URL(fileURLWithPath: file).lastPathComponent):\(node.origin.location.line)"
                for d in diagnostics {
                    problems.report(d.message, at: Origin(location: SourceLocation(file: path, line: d.line, column: d.column ?? 1), path: "glsl"),
                                    hint: "this file is the \(use.role) at \(used)")
                }
            case .unavailable(let reason):
                problems.report("a GLSL \(use.role) needs OpenGL, which is not available: \(reason)", at: node.origin)
            }
            return nil
        }
        return ShaderCall(path: path, digest: Self.hexDigest(data), uniforms: uniformValues(spec["params"], for: uniforms))
    }

    private static func hexDigest(_ data: Data) -> String {
        var hash = SHA256()
        data.withUnsafeBytes { hash.update($0) }
        return hash.hexDigest()
    }

    /// Every uniform's numbers: as `params` gives it, else its default.
    private mutating func uniformValues(_ params: NodeCursor?, for uniforms: [ShaderUniform]) -> [String: [Double]] {
        var values = Dictionary(uniqueKeysWithValues: uniforms.map { ($0.name, $0.defaultValue) })
        for (key, value) in params?.members ?? [] {
            guard let uniform = uniforms.first(where: { $0.name == key }) else {
                let names = uniforms.map(\.name)
                problems.report("the shader has no uniform '\(key)'", at: value.origin,
                                hint: Suggestion.didYouMean(key, among: names) ?? (names.isEmpty ? "it declares none" : "it declares \(names.joined(separator: ", "))"))
                continue
            }
            if let numbers = uniformValue(value, as: uniform) { values[key] = numbers }
        }
        return values
    }

    /// `c` as `uniform`'s numbers: a number, true or false, a list of them, or a colour for a vec3 or vec4.
    private mutating func uniformValue(_ c: NodeCursor, as uniform: ShaderUniform) -> [Double]? {
        let kind = uniform.kind, n = kind.components
        let expected = switch kind {
        case .bool: "true or false"
        case .int: "a whole number"
        case .float: "a number"
        case .vec3, .vec4: "\(n) numbers or a colour"
        default: "\(n) \(kind.isBoolean ? "booleans" : kind.isIntegral ? "whole numbers" : "numbers")"
        }
        func refuse() -> [Double]? {
            problems.report("uniform \(uniform.name) is a \(kind.rawValue): \(expected) (got \(c.scalarText ?? "a list or a map"))", at: c.origin)
            return nil
        }
        func number(_ c: NodeCursor) -> Double? {
            if kind.isBoolean { return c.bool.map { $0 ? 1 : 0 } }
            guard let value = c.double, value.isFinite else { return nil }
            return kind.isIntegral && value != value.rounded() ? nil : value
        }
        if (kind == .vec3 || kind == .vec4), let text = c.string {
            guard let color = Color(parsing: text) else { return refuse() }
            return kind == .vec3 ? [color.red, color.green, color.blue] : [color.red, color.green, color.blue, color.alpha]
        }
        let parts = n == 1 ? [c] : c.elements
        guard parts.count == n else { return refuse() }
        let numbers = parts.compactMap(number)
        return numbers.count == n ? numbers : refuse()
    }
}
