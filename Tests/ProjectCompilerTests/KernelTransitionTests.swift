import CompositionGraph
import Foundation
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

/// The gl-transitions kinds take their parameters beside `transition:` (or `kind:` in a
/// `default_transition`), checked against the kernel's declaration at their line; the graph
/// holds every parameter, defaults filled in, and the progress ramp.
@Suite struct KernelTransitionTests {
    func compile(_ clips: String) throws -> CompositionGraph {
        let document = try DocumentLoader.load(text: "reel: 1\noutput: { size: [640, 360], fps: 30 }\nvideo:\n  - clips:\n" + clips,
                                               name: MediaFactory.path("kernel-transition.yaml"))
        let graph = try ProjectPipeline.load(document, media: FakeMediaFacts.promo, fonts: FakeFonts()).graph
        #expect(graph.checkInvariants() == [])
        return graph
    }

    func problems(_ clips: String) -> [String] {
        do {
            _ = try compile(clips)
            return []
        } catch let error as ProjectError {
            return error.diagnostics.filter { $0.severity == .error }.map { "\($0.location.line): \($0.message)" + ($0.hint.map { " (\($0))" } ?? "") }
        } catch {
            return ["\(error)"]
        }
    }

    @Test func aKernelsParametersReachTheGraphWithItsDefaults() throws {
        let graph = try compile("""
                  - { color: red, duration: 2s }
                  - { transition: circle-open, duration: 1s, smoothness: 0.2 }
                  - { color: blue, duration: 2s }
            """)
        let transition = try #require(graph.videoComposition.instructions.flatMap(\.transitions).first)
        let mix = try #require(transition.mix)
        #expect(transition.kind == "circle-open" && transition.dissolve == nil)
        #expect(mix.kernel == "circle-open")
        #expect(mix.parameters == ["smoothness": .number(0.2), "opening": .boolean(true)])
        #expect(mix.progress.value(at: .init(seconds: 1)) == 0 && mix.progress.value(at: .init(seconds: 2)) == 1)
    }

    @Test func aPictureParameterNamesAnImageAndIsRequired() throws {
        let text = "reel: 1\noutput: { size: [640, 360], fps: 30 }\nmedia: { map: logo.png, clip: A.mp4 }\nvideo:\n  - clips:\n"
        func load(_ transition: String) throws -> CompositionGraph {
            let document = try DocumentLoader.load(text: text + """
                      - { media: clip, duration: 2s }
                      - \(transition)
                      - { media: clip, from: 3s, duration: 2s }
                """, name: MediaFactory.path("picture-parameter.yaml"))
            return try ProjectPipeline.load(document, media: FakeMediaFacts.promo, fonts: FakeFonts()).graph
        }
        let graph = try load("{ transition: luma, duration: 1s, luminance_map: map }")
        let mix = try #require(graph.videoComposition.instructions.flatMap(\.transitions).compactMap(\.mix).first)
        guard case .picture(let ref)? = mix.parameters["luminance_map"] else { Issue.record("\(mix.parameters)"); return }
        #expect(ref.name == "map" && ref.path.hasSuffix("logo.png"))
        #expect(graph.mediaReferences.contains { $0.name == "map" })
        func messages(_ transition: String) -> [String] {
            do {
                _ = try load(transition)
                return []
            } catch {
                return (error as? ProjectError)?.diagnostics.map(\.message) ?? ["\(error)"]
            }
        }
        #expect(messages("{ transition: luma, duration: 1s }")
                    == ["the luma transition needs 'luminance_map': the picture whose brightness (its red channel) orders the change, stretched over the frame: a media name"])
        #expect(messages("{ transition: displacement, duration: 1s, displacement_map: clip }") == ["'clip' is a video file, which cannot be used here"])
        #expect(messages("{ transition: luma, duration: 1s, luminance_map: [1, 2] }").first == "video[0].clips[1].luminance_map: expected a string, found a list of 2")
    }

    @Test func aDefaultTransitionTakesParametersToo() throws {
        let document = try DocumentLoader.load(text: """
            reel: 1
            output: { size: [640, 360], fps: 30 }
            video:
              - default_transition: { kind: fade-color, duration: 0.5s, color: white }
                clips:
                  - { color: red, duration: 2s }
                  - { color: blue, duration: 2s }
            """, name: MediaFactory.path("kernel-default.yaml"))
        let graph = try ProjectPipeline.load(document, media: FakeMediaFacts.promo, fonts: FakeFonts()).graph
        let mix = try #require(graph.videoComposition.instructions.flatMap(\.transitions).first?.mix)
        #expect(mix.parameters["color"] == .color(.white) && mix.parameters["color_phase"] == .number(0.4))
    }

    @Test func aWrongParameterIsReportedAtItsLine() {
        let clips = "      - { color: red, duration: 2s }\n      - { transition: circle-open, duration: 1s, smoothnes: 0.2 }\n      - { color: blue, duration: 2s }\n"
        // No kind takes `smoothnes`: the schema says so, once.
        #expect(problems(clips) == ["6: unknown key 'smoothnes' in video[0].clips[1]; did you mean 'smoothness'?"])
        let other = "      - { color: red, duration: 2s }\n      - { transition: circle-open, duration: 1s, direction: [1, 0] }\n      - { color: blue, duration: 2s }\n"
        #expect(problems(other) == ["6: 'direction' is not a parameter of the circle-open transition (it takes smoothness, opening)"])
        let typed = "      - { color: red, duration: 2s }\n      - { transition: circle-open, duration: 1s, opening: 3 }\n      - { color: blue, duration: 2s }\n"
        #expect(problems(typed).count == 1 && problems(typed)[0].hasPrefix("6: "), "\(problems(typed))")
        let builtIn = "      - { color: red, duration: 2s }\n      - { transition: crossfade, duration: 1s, smoothness: 0.2 }\n      - { color: blue, duration: 2s }\n"
        #expect(problems(builtIn).count == 1 && problems(builtIn)[0].hasPrefix("6: "), "\(problems(builtIn))")
    }
}
