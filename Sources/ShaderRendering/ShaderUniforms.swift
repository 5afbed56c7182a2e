import Foundation

/// A uniform a user's shader declares, as gl-transitions writes them: `uniform float
/// smoothness; // = 0.3`, `uniform vec4 color; // = vec4(0.0, 0.0, 0.0, 1.0)`, `uniform bool
/// opening; // = true`. The comment gives its default; without one it is zero, as in GL.
public struct ShaderUniform: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case float, int, bool, vec2, vec3, vec4, ivec2, ivec3, ivec4, bvec2, bvec3, bvec4

        /// How many numbers it holds.
        public var components: Int {
            switch self {
            case .float, .int, .bool: 1
            case .vec2, .ivec2, .bvec2: 2
            case .vec3, .ivec3, .bvec3: 3
            case .vec4, .ivec4, .bvec4: 4
            }
        }

        /// Set with whole numbers (`int`, `bool` and their vectors).
        public var isIntegral: Bool { self != .float && ![.vec2, .vec3, .vec4].contains(self) }
        public var isBoolean: Bool { [.bool, .bvec2, .bvec3, .bvec4].contains(self) }
    }

    public var name: String
    public var kind: Kind
    /// `kind.components` numbers (booleans as 0 and 1).
    public var defaultValue: [Double]
    /// Where it is declared (1-based).
    public var line: Int
}

/// The uniforms of a shader's source, and what cannot be read of them.
public struct ShaderUniforms: Sendable {
    public var uniforms: [ShaderUniform]
    /// A declaration Reel cannot set (a sampler, an array, an unknown type), by line.
    public var problems: [(line: Int, message: String)]
    /// The uniforms of `provided` the file declares itself, with the type it gives them.
    public var declaredProvided: [String: String]

    /// Names the render sets itself, never parameters.
    public static let provided: Set<String> = ["from", "to", "progress", "ratio", "time", "resolution", "iTime", "iResolution"]

    public init(parsing source: String) {
        uniforms = []
        problems = []
        declaredProvided = [:]
        for (index, rawLine) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            let (code, comment) = Self.split(rawLine)
            let words = code.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.first == "uniform" else { continue }
            let declaration = words.dropFirst().filter { !["highp", "mediump", "lowp"].contains($0) }
            guard declaration.count >= 2 else { continue }
            let type = String(declaration[declaration.startIndex])
            var name = declaration.dropFirst().joined(separator: " ")
            guard name.hasSuffix(";") else { continue }
            name.removeLast()
            name = name.trimmingCharacters(in: [" ", "\t"])
            if Self.provided.contains(name) {
                declaredProvided[name] = type
                continue
            }
            guard let kind = ShaderUniform.Kind(rawValue: type) else {
                problems.append((line, type.hasPrefix("sampler") ? "uniform \(type) \(name): a picture parameter is not supported"
                                                                    : "uniform \(name) has type \(type), which a project cannot set"))
                continue
            }
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                problems.append((line, "uniform \(name): one name a declaration, without an array size"))
                continue
            }
            var value = [Double](repeating: 0, count: kind.components)
            if let written = comment.flatMap({ Self.defaultText($0) }) {
                guard let parsed = Self.numbers(written, kind: kind) else {
                    problems.append((line, "uniform \(name): its default '\(written)' is no \(kind.rawValue)"))
                    continue
                }
                value = parsed
            }
            uniforms.append(ShaderUniform(name: name, kind: kind, defaultValue: value, line: line))
        }
    }

    /// The code of a line and its `//` comment.
    private static func split(_ line: Substring) -> (Substring, Substring?) {
        guard let slashes = line.range(of: "//") else { return (line, nil) }
        return (line[..<slashes.lowerBound], line[slashes.upperBound...])
    }

    /// `0.3` of `// = 0.3`.
    private static func defaultText(_ comment: Substring) -> String? {
        let text = comment.trimmingCharacters(in: [" ", "\t", "\r"])
        guard text.hasPrefix("=") else { return nil }
        return text.dropFirst().trimmingCharacters(in: [" ", "\t", ";"])
    }

    /// `true`, `0.3`, `vec2(0.5)`, `vec4(0.0, 0.0, 0.0, 1.0)`, `ivec2(10, 10)` as `kind.components` numbers.
    static func numbers(_ text: String, kind: ShaderUniform.Kind) -> [Double]? {
        var body = text
        if let open = text.firstIndex(of: "("), text.hasSuffix(")") {
            guard text[..<open].trimmingCharacters(in: [" "]) == kind.rawValue else { return nil }
            body = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        }
        let parts = body.split(separator: ",").map { $0.trimmingCharacters(in: [" ", "\t"]) }
        let values = parts.map { part -> Double? in
            switch part {
            case "true": 1
            case "false": 0
            default: Double(part.hasSuffix("f") ? String(part.dropLast()) : part)
            }
        }
        guard !values.contains(where: { $0 == nil }) else { return nil }
        let numbers = values.map { $0! }
        // `vec3(0.0)` fills every component.
        if numbers.count == 1 { return [Double](repeating: numbers[0], count: kind.components) }
        return numbers.count == kind.components ? numbers : nil
    }
}
