import CompositionGraph
import Foundation
import MediaTime
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

/// `- glsl: waves.frag, duration:, params:`: a clip a fragment shader draws, compiled as the
/// project is read, its mistakes at their lines in the file.
@Suite struct ShaderClipProjectTests {
    let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reel-glsl-clip-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static let shader = """
        uniform float time;
        uniform vec3 tint; // = vec3(1.0, 0.5, 0.0)
        uniform float bands; // = 4.0
        void main() { gl_FragColor = vec4(tint * fract(gl_FragCoord.y / bands + time), 1.0); }
        """

    func load(_ clips: String, shader: String = Self.shader) throws(ProjectError) -> CompositionGraph {
        try? shader.write(to: folder.appendingPathComponent("waves.frag"), atomically: true, encoding: .utf8)
        let text = """
            reel: 1
            output: { size: [640, 360], fps: 30 }
            media: { a: A.mp4 }
            video:
              - clips:
            \(clips)
            """
        let document = try DocumentLoader.load(text: text, name: folder.appendingPathComponent("project.yaml").path)
        return try ProjectPipeline.load(document, media: FakeMediaFacts.promo, fonts: FakeFonts()).graph
    }

    @Test func theSegmentHoldsTheFileItsDigestAndEveryUniform() throws {
        let graph = try load("      - { glsl: waves.frag, duration: 2s, params: { tint: \"#0000ff\" } }\n      - { media: a, duration: 1s }")
        let segment = try #require(graph.composition.tracks.first?.segments.first)
        guard case .shader(let call)? = segment.content else { Issue.record("\(String(describing: segment.content))"); return }
        #expect(call.path.hasSuffix("/waves.frag") && call.digest.count == 64)
        #expect(call.uniforms == ["tint": [0, 0, 1], "bands": [4]])
        #expect(segment.target == TimeRange(start: .zero, duration: MediaTime(seconds: 2)))
        #expect(graph.shaderCalls.pictures == [call] && graph.shaderCalls.transitions.isEmpty)
    }

    @Test func itNeedsADurationAndTakesNoSourceRange() {
        let error = #expect(throws: ProjectError.self) { try load("      - { glsl: waves.frag, from: 1s }") }
        let messages = error?.diagnostics.map(\.message) ?? []
        #expect(messages.contains("a GLSL clip has no source to take 'from' from"), "\(messages)")
        #expect(messages.contains("a colour, GLSL or still-image clip needs a duration"), "\(messages)")
    }

    @Test func oneSourceAClipAndParamsOnlyForAShader() {
        let both = #expect(throws: ProjectError.self) { try load("      - { glsl: waves.frag, color: \"#fff\", duration: 1s }") }
        #expect(both?.diagnostics.map(\.message) == ["a clip is one thing, but this one has color and glsl"])
        let params = #expect(throws: ProjectError.self) { try load("      - { color: \"#fff\", duration: 1s, params: { bands: 2 } }") }
        #expect(params?.diagnostics.map(\.message) == ["params sets a GLSL clip's uniforms; this clip shows color"])
    }

    @Test func aCompileErrorIsAtItsLineInTheFileAndParamsAreChecked() {
        let broken = "uniform float time;\nvoid main() {\n  gl_FragColor = vec4(tme);\n}\n"
        let error = #expect(throws: ProjectError.self) { try load("      - { glsl: waves.frag, duration: 1s }", shader: broken) }
        let d = error?.diagnostics.first
        #expect(error?.diagnostics.count == 1)
        #expect(d?.location.file.hasSuffix("/waves.frag") == true && d?.location.line == 3, "\(String(describing: d))")
        #expect(d?.hint?.hasPrefix("this file is the clip at project.yaml:") == true, "\(String(describing: d?.hint))")
        let params = #expect(throws: ProjectError.self) { try load("      - { glsl: waves.frag, duration: 1s, params: { band: 2 } }") }
        #expect(params?.diagnostics.map(\.message) == ["the shader has no uniform 'band'"])
        #expect(params?.diagnostics.first?.hint == "did you mean 'bands'?")
    }
}
