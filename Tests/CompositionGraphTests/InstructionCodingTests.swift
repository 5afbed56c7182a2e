import CompositionGraph
import Foundation
import MediaTime
import Testing

/// `VideoInstruction.transitions` in JSON: written only when there are some, read back either way.
@Suite struct InstructionCodingTests {
    let plain = VideoInstruction(timeRange: TimeRange(start: .zero, duration: MediaTime(seconds: 9)), background: .black, layers: [])

    func json(_ instruction: VideoInstruction) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(instruction), as: UTF8.self)
    }

    @Test func withoutTransitionsTheKeyIsLeftOut() throws {
        let text = try json(plain)
        #expect(!text.contains("transitions"))
        #expect(try JSONDecoder().decode(VideoInstruction.self, from: Data(text.utf8)) == plain)
    }

    @Test func transitionsRoundTrip() throws {
        var crossfade = plain
        crossfade.transitions = [VideoInstruction.Transition(kind: "crossfade", fromTrackID: 1, toTrackID: 2)]
        let text = try json(crossfade)
        #expect(text.contains(#""transitions":[{"fromTrackID":1,"kind":"crossfade","toTrackID":2}]"#))
        #expect(try JSONDecoder().decode(VideoInstruction.self, from: Data(text.utf8)) == crossfade)
    }
}
