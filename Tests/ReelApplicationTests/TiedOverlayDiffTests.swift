import Foundation
import MediaTime
import ProjectDiff
import ReelApplication
import TestSupport
import Testing

/// `reel diff` places the change of an overlay that follows a clip over the overlay's worked-out
/// time, not over the clip that holds it or names it.
@Suite struct TiedOverlayDiffTests {
    static let folder = MediaFactory.folder("tied-overlay-diff")

    /// Two 1.2 s clips; the first's own overlay shows 0.4 s after it ends (1.6 → 2 s), and one
    /// of `overlays:` follows the first clip's start (0 → 0.4 s).
    static func version(_ name: String, own: String, tied: String) throws -> String {
        let text = """
            reel: 1
            output: { size: [160, 90], fps: 25, segment: 0.4s }
            video:
              - clips:
                  - color: "#203040"
                    id: first
                    duration: 1.2s
                    overlays: [{ text: \(own), at: { from: end, offset: 0.4s }, duration: 0.4s }]
                  - { color: "#402030", duration: 1.2s }
            overlays:
              - { text: \(tied), at: { clip: first }, duration: 0.4s }
            """
        let path = folder.appendingPathComponent("\(name).yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func eachChangeIsPlacedOverItsOverlaysTime() throws {
        let old = try Self.version("old", own: "One", tied: "Uno"), new = try Self.version("new", own: "Two", tied: "Dos")
        let comparison = try WorkspaceTests.workspace().compare(DiffRequest(old: old, new: new))
        defer { comparison.close() }
        let difference = try #require(comparison.renditions.first).difference
        let changed = difference.changed.filter(\.video).map { ($0.range.start.seconds, $0.range.end.seconds, $0.causes.map(\.text)) }
        #expect(changed.count == 2, "\(difference.text)")
        #expect(changed.first.map { [$0.0, $0.1] } == [0, 0.4] && changed.first?.2 == ["overlays[0].text"], "\(difference.text)")
        #expect(changed.last.map { [$0.0, $0.1] } == [1.6, 2] && changed.last?.2 == ["video[0].clips[0].overlays[0].text"], "\(difference.text)")
    }
}
