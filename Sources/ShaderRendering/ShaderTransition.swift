import CShaderGL
import Foundation
import TransitionKernels

/// A problem the GLSL compiler found, at its line (and column, counted from 1) in the user's file.
public struct ShaderDiagnostic: Error, Sendable, Hashable {
    public var line: Int
    public var column: Int?
    public var message: String

    public init(line: Int, column: Int?, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }
}

/// Why a shader cannot run: its compiler's messages, or no OpenGL on this machine.
public enum ShaderError: Error, Sendable {
    case compile([ShaderDiagnostic])
    case unavailable(String)
}

/// A transition written as gl-transitions publishes them (`vec4 transition(vec2 uv)`, with
/// `getFromColor`, `getToColor`, `progress` and `ratio`), compiled by Mesa and run on the CPU
/// by llvmpipe. The pictures are the kernels' (`TransitionPicture`): premultiplied R′G′B′A
/// floats, uv (0, 0) at the bottom left, sampled bilinearly with the edges clamped.
public final class ShaderTransition: @unchecked Sendable {
    public let uniforms: [ShaderUniform]
    private let program: UInt32
    private let locations: [String: Int32]

    /// What surrounds the user's code (`reel_gl_program` puts `#line 1` before it and
    /// `#line 100000` before `main`). Pictures arrive top row first, so t = 1 − v.
    static let prelude = """
        #version 330 core
        #define texture2D texture
        out vec4 reel_color;
        uniform sampler2D from, to;
        uniform float progress;
        uniform float ratio;
        uniform vec2 reel_size;
        vec4 getFromColor(vec2 uv) { return texture(from, vec2(uv.x, 1.0 - uv.y)); }
        vec4 getToColor(vec2 uv) { return texture(to, vec2(uv.x, 1.0 - uv.y)); }
        """
    /// uv from the pixel's centre (exact, where an interpolated one is not); the frame's row 0 is the picture's top.
    static let epilogue = "void main() { reel_color = transition(vec2(gl_FragCoord.x, reel_size.y - gl_FragCoord.y) / reel_size); }\n"
    /// The line `#line 100000` gives `main`: a message there is about what the file lacks.
    static let epilogueLine = 100000

    /// Compiles `source`; throws the compiler's messages at the file's lines.
    public init(source: String) throws(ShaderError) {
        let thread = GLThread.shared
        if let failure = thread.failure { throw .unavailable(failure) }
        let parsed = ShaderUniforms(parsing: source)
        let outcome: Result<(UInt32, [String: Int32]), ShaderError> = thread.run {
            var log = [CChar](repeating: 0, count: 16384)
            let program = reel_gl_program(Self.prelude, source, Self.epilogue, &log, log.count)
            guard program != 0 else { return .failure(.compile(Self.diagnostics(text(of: log)))) }
            var locations: [String: Int32] = [:]
            for u in parsed.uniforms { locations[u.name] = reel_gl_uniform_location(program, u.name) }
            locations["progress"] = reel_gl_uniform_location(program, "progress")
            locations["ratio"] = reel_gl_uniform_location(program, "ratio")
            locations["reel_size"] = reel_gl_uniform_location(program, "reel_size")
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

    /// Mesa's info log (`0:5(21): error: 'x' undeclared`) as diagnostics, the first of each line; its columns count from 0.
    static func diagnostics(_ log: String) -> [ShaderDiagnostic] {
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
                found.append(ShaderDiagnostic(line: 1, column: nil, message: "the file must define vec4 transition(vec2 uv) and no main(): \(message)"))
            } else {
                found.append(ShaderDiagnostic(line: numbers[1], column: numbers.count > 2 ? numbers[2] + 1 : nil, message: message))
            }
        }
        // Mesa reports what an error causes on the same line after it: the first of each line is the cause.
        var lines = Set<Int>()
        found = found.filter { lines.insert($0.line).inserted }
        if found.isEmpty, !log.isEmpty { found.append(ShaderDiagnostic(line: 1, column: nil, message: log.trimmingCharacters(in: .whitespacesAndNewlines))) }
        return found
    }

    /// `output` becomes the transition of `from` into `to` at `progress`, with `values` for the
    /// uniforms (each `kind.components` numbers; a uniform without one keeps its default).
    /// Every pixel is clamped to premultiplied form.
    public func render(progress: Double, values: [String: [Double]], from: TransitionPicture, to: TransitionPicture, into output: TransitionPicture) throws(ShaderError) {
        precondition(from.width == output.width && from.height == output.height && to.width == output.width && to.height == output.height,
                     "a transition's pictures have the frame's size")
        let width = output.width, height = output.height
        let (program, locations, uniforms) = (self.program, self.locations, self.uniforms)
        let failure: String? = GLThread.shared.run {
            for u in uniforms {
                guard let location = locations[u.name], location >= 0 else { continue }
                let value = values[u.name] ?? u.defaultValue
                if u.kind.isIntegral {
                    let integers = value.map { Int32($0) }
                    reel_gl_uniform_i(program, location, Int32(u.kind.components), integers)
                } else {
                    reel_gl_uniform_f(program, location, Int32(u.kind.components), value.map { Float($0) })
                }
            }
            if let location = locations["progress"], location >= 0 { reel_gl_uniform_f(program, location, 1, [Float(min(max(progress, 0), 1))]) }
            if let location = locations["ratio"], location >= 0 { reel_gl_uniform_f(program, location, 1, [Float(width) / Float(height)]) }
            if let location = locations["reel_size"], location >= 0 { reel_gl_uniform_f(program, location, 2, [Float(width), Float(height)]) }
            let uploaded = from.pixels.withMemoryRebound(to: Float.self, capacity: 4 * width * height) { reel_gl_picture(0, $0, Int32(width), Int32(height)) }
                + to.pixels.withMemoryRebound(to: Float.self, capacity: 4 * width * height) { reel_gl_picture(1, $0, Int32(width), Int32(height)) }
            guard uploaded == 0 else { return "OpenGL refused a \(width)x\(height) picture" }
            var reason = [CChar](repeating: 0, count: 256)
            let drawn = output.pixels.withMemoryRebound(to: Float.self, capacity: 4 * width * height) {
                reel_gl_draw(program, Int32(width), Int32(height), $0, &reason, reason.count)
            }
            return drawn == 0 ? nil : text(of: reason)
        }
        if let failure { throw .unavailable(failure) }
        for i in 0..<(width * height) {
            let c = output.pixels[i]
            let a = c.w.isNaN ? 0 : min(max(c.w, 0), 1)
            output.pixels[i] = SIMD4(TransitionRenderer.clampChannel(c.x, a), TransitionRenderer.clampChannel(c.y, a),
                                     TransitionRenderer.clampChannel(c.z, a), a)
        }
    }
}
