import Foundation
import ShaderRendering
import Testing
import TransitionKernels

/// Users' GLSL transitions, compiled by Mesa and run by llvmpipe, against what their maths fixes
/// and against the Swift kernels of the same kinds.
@Suite struct ShaderTransitionTests {
    /// A gradient (R′ across, G′ down) and a flat blue, premultiplied, opaque.
    static func pictures(width: Int, height: Int) -> (TransitionPicture, TransitionPicture) {
        let from = TransitionPicture(width: width, height: height), to = TransitionPicture(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                from.pixels[y * width + x] = SIMD4(Float(x) / Float(width - 1), Float(y) / Float(height - 1), 0.25, 1)
                to.pixels[y * width + x] = SIMD4(0.1, 0.2, 0.9, 1)
            }
        }
        return (from, to)
    }

    static func largestDifference(_ a: TransitionPicture, _ b: TransitionPicture) -> Float {
        var worst: Float = 0
        for i in 0..<(a.width * a.height) {
            let d: SIMD4<Float> = a.pixels[i] - b.pixels[i]
            worst = max(worst, d.x.magnitude, d.y.magnitude, d.z.magnitude, d.w.magnitude)
        }
        return worst
    }

    func render(_ source: String, progress: Double, values: [String: [Double]] = [:], width: Int = 64, height: Int = 36) throws -> TransitionPicture {
        let (from, to) = Self.pictures(width: width, height: height)
        let output = TransitionPicture(width: width, height: height)
        try ShaderTransition(source: source).render(progress: progress, values: values, from: from, to: to, into: output)
        return output
    }

    @Test func theEndsAreThePicturesExactly() throws {
        let mix = "vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress); }\n"
        let (from, to) = Self.pictures(width: 64, height: 36)
        let start = try render(mix, progress: 0), end = try render(mix, progress: 1)
        // llvmpipe's bilinear lerp at a texel's centre rounds to within a float's last bit: far
        // below the 1/255 of the canvas the mix is written back to, so the bytes are the pictures'.
        #expect(Self.largestDifference(start, from) < 1e-6)
        #expect(Self.largestDifference(end, to) < 1e-6)
    }

    @Test func uvStartsAtTheBottomLeftAndRatioIsTheFrames() throws {
        let picture = try render("vec4 transition(vec2 uv) { return vec4(uv, ratio / 4.0, 1.0); }\n", progress: 0.5, width: 80, height: 40)
        // Row 0 is the top: uv.y there is 1 − 0.5/40; the first column's uv.x is 0.5/80.
        let first: SIMD4<Float> = picture.pixels[0] - SIMD4(0.5 / 80, 1 - 0.5 / 40, 0.5, 1)
        let last: SIMD4<Float> = picture.pixels[39 * 80 + 79] - SIMD4(1 - 0.5 / 80, 0.5 / 40, 0.5, 1)
        #expect(max(first.x.magnitude, first.y.magnitude, first.z.magnitude) < 1e-6, "\(picture.pixels[0])")
        #expect(max(last.x.magnitude, last.y.magnitude, last.z.magnitude) < 1e-6, "\(picture.pixels[39 * 80 + 79])")
    }

    @Test func uniformsTakeTheirDefaultsAndTheGivenValues() throws {
        let source = """
            uniform float amount; // = 0.25
            uniform vec3 tint; // = vec3(0.5)
            uniform bool inverted; // = false
            uniform ivec2 cells; // = ivec2(2, 4)
            vec4 transition(vec2 uv) {
              float a = inverted ? 1.0 - amount : amount;
              return vec4(tint.r * a, tint.g, float(cells.x) / 10.0, float(cells.y) / 10.0);
            }
            """
        let given = try render(source, progress: 0, values: ["amount": [0.5], "inverted": [1], "tint": [1, 0.3, 0]])
        let defaults = try render(source, progress: 0)
        // Clamped to premultiplied form: no channel above alpha.
        // (The expected values are typed out of `#expect`: literals inside its expansion are slow to type-check.)
        let defaultColor = SIMD4<Float>(0.125, 0.4, 0.2, 0.4), givenColor = SIMD4<Float>(0.4, 0.3, 0.2, 0.4)
        #expect(defaults.pixels[0] == defaultColor)
        #expect(given.pixels[0] == givenColor)
        let declared = ShaderUniforms(parsing: source).uniforms
        #expect(declared.map(\.name) == ["amount", "tint", "inverted", "cells"])
        let defaultValues: [[Double]] = [[0.25], [0.5, 0.5, 0.5], [0], [2, 4]]
        #expect(declared.map(\.defaultValue) == defaultValues)
        #expect(declared.map(\.line) == [1, 2, 3, 4])
    }

    @Test func aCompileErrorIsAtItsLineAndColumnInTheFile() {
        let source = "uniform float amount; // = 0.5\nvec4 transition(vec2 uv) {\n  float k = amount * undefinedThing;\n  return getFromColor(uv);\n}\n"
        #expect {
            try ShaderTransition(source: source)
        } throws: { error in
            guard case ShaderError.compile(let problems) = error else { return false }
            return problems.first == ShaderDiagnostic(line: 3, column: 22, message: "`undefinedThing' undeclared")
        }
    }

    @Test func aFileWithoutTransitionSaysSo() {
        #expect {
            try ShaderTransition(source: "vec4 mixing(vec2 uv) { return getToColor(uv); }\n")
        } throws: { error in
            guard case ShaderError.compile(let problems) = error, let first = problems.first else { return false }
            return first.line == 1 && first.message.hasPrefix("the file must define vec4 transition(vec2 uv)")
        }
    }

    @Test func aPictureParameterIsRefusedAtItsLine() {
        let source = "uniform float amount; // = 0.5\nuniform sampler2D displacementMap;\nvec4 transition(vec2 uv) { return getToColor(uv); }\n"
        #expect(ShaderUniforms(parsing: source).problems.map(\.line) == [2])
    }

    /// The circle-open maths written in GLSL by us gives what the Swift kernel gives.
    @Test(arguments: [0.25, 0.5, 0.75])
    func aCircleOpeningAgreesWithTheSwiftKernel(progress: Double) throws {
        let source = """
            uniform float smoothness; // = 0.3
            uniform bool opening; // = true
            vec4 transition(vec2 uv) {
              float reach = opening ? progress : 1.0 - progress;
              float edge = smoothstep(-smoothness, 0.0, 1.414213562373 * distance(vec2(0.5), uv) - reach * (1.0 + smoothness));
              return mix(getFromColor(uv), getToColor(uv), opening ? 1.0 - edge : edge);
            }
            """
        let (width, height) = (96, 54)
        let (from, to) = Self.pictures(width: width, height: height)
        let shader = try render(source, progress: progress, width: width, height: height)
        let swift = TransitionPicture(width: width, height: height)
        let kernel = try #require(TransitionCatalogue.kernel("circle-open", [:]))
        TransitionRenderer.render(kernel, progress: progress, from: from, to: to, into: swift)
        let worst = Self.largestDifference(shader, swift)
        #expect(worst < 1e-4, "largest difference \(worst)")
    }

    @Test func theSameInputGivesTheSameBytes() throws {
        let source = "vec4 transition(vec2 uv) { float w = sin(uv.x * 40.0 + progress * 7.0) * 0.5 + 0.5; return mix(getFromColor(uv), getToColor(uv), w); }\n"
        let a = try render(source, progress: 0.37, width: 160, height: 90), b = try render(source, progress: 0.37, width: 160, height: 90)
        #expect((0..<(160 * 90)).allSatisfy { a.pixels[$0] == b.pixels[$0] })
    }
}
