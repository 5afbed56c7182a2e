import CShaderGL
import Foundation

/// A fragment shader compiled by Mesa around a user's file: Reel's `prelude` (the dialect's
/// lines and what Reel provides), the file from its line 1, then `epilogue` (`main`, when Reel
/// writes it). Knows the uniforms the file declares and sets them; every GL call runs on the
/// GL thread. Shared by transitions (`ShaderTransition`) and pictures (`ShaderPicture`).
final class ShaderProgram: @unchecked Sendable {
    let uniforms: [ShaderUniform]
    let program: UInt32
    private let locations: [String: Int32]

    /// The line `#line 100000` gives the epilogue: a message there is about what the file lacks.
    static let epilogueLine = 100000

    /// Compiles `source` between `prelude` and `epilogue`, with the locations of its uniforms and
    /// of `provided` (the uniforms Reel sets); throws the compiler's messages at the file's lines,
    /// `lacking` saying what a message about the epilogue means.
    init(prelude: String, source: String, epilogue: String, provided: [String], lacking: String) throws(ShaderError) {
        let thread = GLThread.shared
        if let failure = thread.failure { throw .unavailable(failure) }
        let parsed = ShaderUniforms(parsing: source)
        let outcome: Result<(UInt32, [String: Int32]), ShaderError> = thread.run {
            var log = [CChar](repeating: 0, count: 16384)
            let program = reel_gl_program(prelude, Self.withoutVersion(source), epilogue, &log, log.count)
            guard program != 0 else { return .failure(.compile(Self.diagnostics(text(of: log), lacking: lacking))) }
            var locations: [String: Int32] = [:]
            for name in parsed.uniforms.map(\.name) + provided { locations[name] = reel_gl_uniform_location(program, name) }
            return .success((program, locations))
        }
        switch outcome {
        case .success(let (program, locations)):
            self.program = program
            self.locations = locations
            uniforms = parsed.uniforms
        case .failure(let error):
            throw error
        }
        if !parsed.problems.isEmpty {
            throw .compile(parsed.problems.map { ShaderDiagnostic(line: $0.line, column: nil, message: $0.message) })
        }
    }

    deinit {
        let program = self.program
        GLThread.shared.run { reel_gl_program_delete(program) }
    }

    /// `source` with a `#version` line of its own (`#version 100`, `300 es`: Reel's prelude
    /// chooses the dialect) left blank, so every other line keeps its number.
    static func withoutVersion(_ source: String) -> String {
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.firstIndex(where: { !$0.allSatisfy(\.isWhitespace) }),
              lines[first].trimmingCharacters(in: .whitespaces).hasPrefix("#version") else { return source }
        lines[first] = ""
        return lines.joined(separator: "\n")
    }

    /// Sets the file's uniforms to `values` (each `kind.components` numbers; a uniform without
    /// one keeps its default). On the GL thread.
    func setParameters(_ values: [String: [Double]]) {
        for u in uniforms {
            guard let location = locations[u.name], location >= 0 else { continue }
            let value = values[u.name] ?? u.defaultValue
            if u.kind.isIntegral {
                reel_gl_uniform_i(program, location, Int32(u.kind.components), value.map { Int32($0) })
            } else {
                reel_gl_uniform_f(program, location, Int32(u.kind.components), value.map { Float($0) })
            }
        }
    }

    /// Sets a float uniform Reel provides, if the program uses it. On the GL thread.
    func set(_ name: String, _ value: [Float]) {
        guard let location = locations[name], location >= 0 else { return }
        reel_gl_uniform_f(program, location, Int32(value.count), value)
    }

    /// Draws into `output` (w·h RGBA floats, the framebuffer's first row first); nil, or why not. On the GL thread.
    func draw(width: Int, height: Int, into output: UnsafeMutablePointer<Float>) -> String? {
        var reason = [CChar](repeating: 0, count: 256)
        return reel_gl_draw(program, Int32(width), Int32(height), output, &reason, reason.count) == 0 ? nil : text(of: reason)
    }

    /// Mesa's info log (`0:5(21): error: 'x' undeclared`) as diagnostics, the first of each line; its columns count from 0.
    static func diagnostics(_ log: String, lacking: String) -> [ShaderDiagnostic] {
        var found: [ShaderDiagnostic] = []
        for line in log.split(separator: "\n") {
            guard let error = line.range(of: ": error: ") else { continue }
            let place = line[..<error.lowerBound], message = String(line[error.upperBound...])
            // `0:5(21)`: source string, line, column.
            let numbers = place.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            guard numbers.count >= 2 else {
                found.append(ShaderDiagnostic(line: 1, column: nil, message: message))
                continue
            }
            if numbers[1] >= epilogueLine {
                found.append(ShaderDiagnostic(line: 1, column: nil, message: "\(lacking): \(message)"))
            } else {
                found.append(ShaderDiagnostic(line: numbers[1], column: numbers.count > 2 ? numbers[2] + 1 : nil, message: message))
            }
        }
        // Mesa reports what an error causes on the same line after it: the first of each line is the cause.
        var lines = Set<Int>()
        found = found.filter { lines.insert($0.line).inserted }
        // The linker's messages have no line: a file without main() is told what it lacks.
        if found.isEmpty, !log.isEmpty {
            let message = log.trimmingCharacters(in: .whitespacesAndNewlines)
            found.append(ShaderDiagnostic(line: 1, column: nil, message: message.contains("lacks `main'") ? lacking : message))
        }
        return found
    }
}
