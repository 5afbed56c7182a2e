import Foundation
import ShaderRendering
import Testing

/// Clips drawn by a fragment shader: editly's `gl` form (`main()`, `gl_FragColor`, `time`,
/// `resolution`) and Shadertoy's `mainImage`, their orientation, uniforms and alpha.
@Suite struct ShaderPictureTests {
    /// The picture `source` draws, premultiplied R′G′B′A bytes top row first.
    func draw(_ source: String, time: Double = 0, progress: Double = 0, values: [String: [Double]] = [:],
              width: Int = 40, height: Int = 20) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 7, count: 4 * width * height)
        try bytes.withUnsafeMutableBufferPointer {
            try ShaderPicture(source: source).render(time: time, progress: progress, values: values, width: width, height: height,
                                                     into: $0.baseAddress!, stride: 4 * width)
        }
        return bytes
    }

    func pixel(_ bytes: [UInt8], x: Int, y: Int, width: Int = 40) -> [UInt8] { Array(bytes[(4 * (y * width + x))..<(4 * (y * width + x) + 4)]) }

    /// A fraction of full scale as the byte it rounds to. (Written out of `#expect`, whose
    /// expansion of an array of such literals took the type checker most of a minute.)
    func byte(_ fraction: Double) -> UInt8 { UInt8((fraction * 255).rounded()) }

    @Test func gl_FragCoordStartsAtTheBottomLeftAsInGL() throws {
        // Red grows to the right, green upwards (editly's and GLSL Sandbox's convention).
        let source = """
            precision mediump float;
            uniform vec2 resolution;
            void main() { gl_FragColor = vec4(gl_FragCoord.x / resolution.x, gl_FragCoord.y / resolution.y, 0.0, 1.0); }
            """
        let bytes = try draw(source)
        // The top-left pixel's centre is (0.5, 19.5): red 0.5/40, green 19.5/20.
        let topLeft: [UInt8] = [byte(0.5 / 40), byte(19.5 / 20), 0, 255], bottomRight: [UInt8] = [byte(39.5 / 40), byte(0.5 / 20), 0, 255]
        #expect(pixel(bytes, x: 0, y: 0) == topLeft)
        #expect(pixel(bytes, x: 39, y: 19) == bottomRight)
    }

    @Test func timeProgressAndParamsAreTheUniforms() throws {
        let source = """
            uniform float time;
            uniform float speed; // = 0.25
            uniform vec3 tint; // = vec3(1.0, 0.0, 0.0)
            void main() { gl_FragColor = vec4(fract(time * speed), progress, tint.b, 1.0); }
            """
        // time 1.5 s at speed 0.25 (its default) is 0.375; progress is given; tint from the params.
        let bytes = try draw(source, time: 1.5, progress: 0.6, values: ["tint": [0, 0, 0.2]])
        let expected: [UInt8] = [byte(0.375), byte(0.6), byte(0.2), 255]
        #expect(pixel(bytes, x: 5, y: 5) == expected)
        let faster = try draw(source, time: 1.5, values: ["speed": [0.5]])
        #expect(pixel(faster, x: 5, y: 5)[0] == byte(0.75))
    }

    @Test func shadertoysMainImageRunsWithITimeAndIResolution() throws {
        let source = """
            void mainImage(out vec4 fragColor, in vec2 fragCoord) {
                vec2 uv = fragCoord / iResolution.xy;
                fragColor = vec4(uv.x, uv.y, iTime / 10.0, 1.0);
            }
            """
        let bytes = try draw(source, time: 4)
        let expected: [UInt8] = [byte(39.5 / 40), byte(19.5 / 20), byte(0.4), 255]
        #expect(pixel(bytes, x: 39, y: 0) == expected)
    }

    @Test func colourIsStraightAndComesOutPremultiplied() throws {
        let bytes = try draw("#version 100\nvoid main() { gl_FragColor = vec4(1.0, 0.5, 2.0, 0.5); }\n")
        // Clamped to 0…1, then multiplied by alpha: (1, 0.5, 1) × 0.5. A `#version` line of its own is left out.
        let expected: [UInt8] = [128, 64, 128, 128]
        #expect(pixel(bytes, x: 0, y: 0) == expected)
    }

    @Test func mistakesAreAtTheirLines() {
        #expect {
            try ShaderPicture(source: "uniform float time;\nvoid main() {\n  gl_FragColor = vec4(tme);\n}\n")
        } throws: { error in
            guard case ShaderError.compile(let problems) = error else { return false }
            return problems.first?.line == 3 && problems.first?.message.contains("tme") == true
        }
        #expect {
            try ShaderPicture(source: "uniform int time;\nvoid main() { gl_FragColor = vec4(1.0); }\n")
        } throws: { error in
            guard case ShaderError.compile(let problems) = error else { return false }
            return problems.first?.line == 1 && problems.first?.message == "uniform time is set by Reel: declare it uniform float time; (here it is int)"
        }
        #expect {
            try ShaderPicture(source: "vec4 colour() { return vec4(1.0); }\n")
        } throws: { error in
            guard case ShaderError.compile(let problems) = error else { return false }
            return problems.first?.message.contains("must define main()") == true
        }
    }

    @Test func theSameBytesEveryTime() throws {
        let source = "uniform float time;\nuniform vec2 resolution;\nvoid main() { vec2 p = gl_FragCoord.xy / resolution; gl_FragColor = vec4(sin(p.x * 40.0 + time), cos(p.y * 33.0 - time), sin(dot(p, p) * 90.0), 1.0); }\n"
        let first = try draw(source, time: 2.25, width: 160, height: 90)
        #expect(try draw(source, time: 2.25, width: 160, height: 90) == first)
        #expect(try draw(source, time: 2.5, width: 160, height: 90) != first)
    }
}
