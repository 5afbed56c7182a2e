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
    private let program: ShaderProgram
    public var uniforms: [ShaderUniform] { program.uniforms }

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

    /// Compiles `source`; throws the compiler's messages at the file's lines.
    public init(source: String) throws(ShaderError) {
        program = try ShaderProgram(prelude: Self.prelude, source: source, epilogue: Self.epilogue, provided: ["progress", "ratio", "reel_size"],
                                    lacking: "the file must define vec4 transition(vec2 uv) and no main()")
    }

    /// `output` becomes the transition of `from` into `to` at `progress`, with `values` for the
    /// uniforms (each `kind.components` numbers; a uniform without one keeps its default).
    /// Every pixel is clamped to premultiplied form.
    public func render(progress: Double, values: [String: [Double]], from: TransitionPicture, to: TransitionPicture, into output: TransitionPicture) throws(ShaderError) {
        precondition(from.width == output.width && from.height == output.height && to.width == output.width && to.height == output.height,
                     "a transition's pictures have the frame's size")
        let width = output.width, height = output.height, program = program
        let failure: String? = GLThread.shared.run {
            program.setParameters(values)
            program.set("progress", [Float(min(max(progress, 0), 1))])
            program.set("ratio", [Float(width) / Float(height)])
            program.set("reel_size", [Float(width), Float(height)])
            let uploaded = from.pixels.withMemoryRebound(to: Float.self, capacity: 4 * width * height) { reel_gl_picture(0, $0, Int32(width), Int32(height)) }
                + to.pixels.withMemoryRebound(to: Float.self, capacity: 4 * width * height) { reel_gl_picture(1, $0, Int32(width), Int32(height)) }
            guard uploaded == 0 else { return "OpenGL refused a \(width)x\(height) picture" }
            return output.pixels.withMemoryRebound(to: Float.self, capacity: 4 * width * height) { program.draw(width: width, height: height, into: $0) }
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
