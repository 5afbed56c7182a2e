import CompositionGraph
import Foundation
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

/// `transition: { glsl: …, params: … }`: the file compiled as the project is read, its mistakes
/// at their lines in the .glsl file, its params checked against its uniforms.
@Suite struct ShaderTransitionProjectTests {
    let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reel-glsl-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    func load(_ transition: String, shader: String) throws(ProjectError) -> CompositionGraph {
        try? shader.write(to: folder.appendingPathComponent("t.glsl"), atomically: true, encoding: .utf8)
        let text = """
            reel: 1
            output: { size: [640, 360], fps: 30 }
            media: { a: A.mp4 }
            video:
              - clips:
                  - { media: a, duration: 2s }
                  - \(transition)
                  - { media: a, duration: 2s }
            """
        let document = try DocumentLoader.load(text: text, name: folder.appendingPathComponent("project.yaml").path)
        return try ProjectPipeline.load(document, media: FakeMediaFacts.promo, fonts: FakeFonts()).graph
    }

    static let shader = """
        uniform float amount; // = 0.5
        uniform vec3 tint; // = vec3(1.0)
        uniform bool flip; // = false
        vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), flip ? 1.0 - progress : progress) * vec4(tint, 1.0) * amount; }
        """

    @Test func theMixHoldsTheFileItsDigestAndEveryUniform() throws {
        let graph = try load("{ transition: { glsl: t.glsl, params: { amount: 0.25, tint: \"#ff0000\" } }, duration: 0.5s }", shader: Self.shader)
        let mix = try #require(graph.videoComposition.instructions.flatMap(\.transitions).compactMap(\.mix).first)
        let call = try #require(mix.shader)
        #expect(call.path.hasSuffix("/t.glsl") && call.digest.count == 64)
        #expect(call.uniforms == ["amount": [0.25], "tint": [1, 0, 0], "flip": [0]])
        #expect(mix.kernel == "glsl")
    }

    @Test func aCompileErrorIsReportedAtItsLineInTheGLSLFile() {
        let broken = "uniform float amount; // = 0.5\nvec4 transition(vec2 uv) {\n  return getFromColor(uv) * amont;\n}\n"
        let error = #expect(throws: ProjectError.self) { try load("{ transition: { glsl: t.glsl, duration: 0.5s } }", shader: broken) }
        let d = error?.diagnostics.first
        #expect(error?.diagnostics.count == 1)
        #expect(d?.location.file.hasSuffix("/t.glsl") == true && d?.location.line == 3, "\(String(describing: d))")
        #expect(d?.message.contains("amont") == true)
    }

    @Test func paramsAreCheckedAgainstTheUniforms() {
        let error = #expect(throws: ProjectError.self) {
            try load("{ transition: { glsl: t.glsl, params: { amout: 1, tint: [1, 2], flip: 3 } }, duration: 0.5s }", shader: Self.shader)
        }
        let messages = error?.diagnostics.map(\.message) ?? []
        #expect(Set(messages) == [
            "the shader has no uniform 'amout'",
            "uniform tint is a vec3: 3 numbers or a colour (got a list or a map)",
            "uniform flip is a bool: true or false (got 3)",
        ], "\(messages)")
        #expect(error?.diagnostics.first { $0.message.contains("amout") }?.hint == "did you mean 'amount'?")
    }

    @Test func aMissingFileIsAnErrorAtTheTransition() {
        let error = #expect(throws: ProjectError.self) { try load("{ transition: { glsl: none.glsl }, duration: 0.5s }", shader: Self.shader) }
        #expect(error?.diagnostics.map(\.message) == ["cannot read the GLSL file none.glsl"])
    }
}
