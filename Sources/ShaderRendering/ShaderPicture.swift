import CShaderGL
import Foundation

/// A picture drawn by a fragment shader, for clips and backgrounds: a file with its own
/// `main()` writing `gl_FragColor` from `gl_FragCoord` (editly's `gl` layers, GLSL Sandbox),
/// or Shadertoy's `mainImage(out vec4, in vec2)`. Reel sets `time` (seconds since the clip's
/// start), `progress` (0 at its start, 1 at its end: what editly calls `time`), `resolution`
/// (the picture's size in pixels), `ratio`, and Shadertoy's `iTime` and `iResolution`; the
/// file may declare them itself. `gl_FragCoord` has its origin at the bottom left, as in GL.
public final class ShaderPicture: @unchecked Sendable {
    private let program: ShaderProgram
    public var uniforms: [ShaderUniform] { program.uniforms }
    /// The float frame the GL thread draws into, kept between frames (only touched there).
    private var drawn: [Float] = []

    /// What Reel provides, with its type.
    static let providedTypes: [(name: String, type: String)] = [
        ("time", "float"), ("progress", "float"), ("resolution", "vec2"), ("ratio", "float"), ("iTime", "float"), ("iResolution", "vec3"),
    ]

    /// Compiles `source`; throws the compiler's messages at the file's lines.
    public init(source: String) throws(ShaderError) {
        let parsed = ShaderUniforms(parsing: source)
        for (name, type) in parsed.declaredProvided {
            guard let provided = Self.providedTypes.first(where: { $0.name == name }), provided.type != type else { continue }
            let line = source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("uniform") && $0.contains(name) }.map { $0 + 1 } ?? 1
            throw .compile([ShaderDiagnostic(line: line, column: nil, message: "uniform \(name) is set by Reel: declare it uniform \(provided.type) \(name); (here it is \(type))")])
        }
        let shadertoy = Self.definesMainImage(source)
        var prelude = "#version 330 core\n#define texture2D texture\n#define gl_FragColor reel_color\nout vec4 reel_color;\n"
        for (name, type) in Self.providedTypes where parsed.declaredProvided[name] == nil {
            prelude += "uniform \(type) \(name);\n"
        }
        program = try ShaderProgram(prelude: prelude, source: source,
                                    epilogue: shadertoy ? "void main() { mainImage(reel_color, gl_FragCoord.xy); }\n" : "",
                                    provided: Self.providedTypes.map(\.name),
                                    lacking: "the file must define main() (writing gl_FragColor) or Shadertoy's mainImage(out vec4, in vec2)")
    }

    /// The file defines `mainImage` and no `main` of its own.
    static func definesMainImage(_ source: String) -> Bool {
        let main = try! Regex(#"\bvoid\s+main\s*\("#), mainImage = try! Regex(#"\bvoid\s+mainImage\s*\("#)
        return source.contains(mainImage) && !source.contains(main)
    }

    /// Draws the picture at `time` seconds into its clip (`progress` of the way through it) at
    /// `width`×`height`, with `values` for the file's uniforms, into `pixels`: premultiplied
    /// 8-bit R′G′B′A, top row first, `stride` bytes a row. The shader's colour is taken as
    /// straight (unpremultiplied) and clamped to 0…1.
    public func render(time: Double, progress: Double, values: [String: [Double]], width: Int, height: Int,
                       into pixels: UnsafeMutablePointer<UInt8>, stride: Int) throws(ShaderError) {
        let failure: String? = GLThread.shared.run { [self] in
            program.setParameters(values)
            program.set("time", [Float(time)])
            program.set("iTime", [Float(time)])
            program.set("progress", [Float(min(max(progress, 0), 1))])
            program.set("resolution", [Float(width), Float(height)])
            program.set("iResolution", [Float(width), Float(height), 1])
            program.set("ratio", [Float(width) / Float(height)])
            if drawn.count < 4 * width * height { drawn = [Float](repeating: 0, count: 4 * width * height) }
            if let failure = drawn.withUnsafeMutableBufferPointer({ program.draw(width: width, height: height, into: $0.baseAddress!) }) { return failure }
            // The framebuffer's first row is gl_FragCoord.y = 0.5, the picture's bottom.
            drawn.withUnsafeBufferPointer { floats in
                for y in 0..<height {
                    let source = floats.baseAddress! + 4 * width * (height - 1 - y), row = pixels + y * stride
                    for x in 0..<width {
                        let c = source + 4 * x
                        let a = Self.unit(c[3])
                        row[4 * x] = Self.byte(Self.unit(c[0]) * a)
                        row[4 * x + 1] = Self.byte(Self.unit(c[1]) * a)
                        row[4 * x + 2] = Self.byte(Self.unit(c[2]) * a)
                        row[4 * x + 3] = Self.byte(a)
                    }
                }
            }
            return nil
        }
        if let failure { throw .unavailable(failure) }
    }

    /// `v` clamped to 0…1 (NaN as 0).
    @inline(__always) private static func unit(_ v: Float) -> Float { v.isNaN ? 0 : min(max(v, 0), 1) }
    /// `v` (0…1) in 255ths, to the nearest (`v` is never negative, so adding ½ and truncating rounds).
    @inline(__always) private static func byte(_ v: Float) -> UInt8 { UInt8(v * 255 + 0.5) }
}
