import CompositionGraph
import Foundation
import MediaTime
import ProjectFile
import ReelApplication
import TestSupport
import Testing

/// The playback a preview asks ReelApplication for: the project in pieces of 2 s at most that
/// cover it, each a fragmented MP4 made once into the cache and found again there by a later
/// playback of the same graph (an edit that leaves a piece alone reuses it).
@Suite struct PlaybackRenderTests {
    @Test func piecesCoverTheProjectAndAreMadeOnce() throws {
        let text = try String(contentsOfFile: try WorkspaceTests.project("playback.yaml").path, encoding: .utf8)
            .replacingOccurrences(of: "{ media: clip, duration: 1s }", with: Array(repeating: "{ media: clip, duration: 1.6s }", count: 3).joined(separator: ", "))
        let graph = try WorkspaceTests.workspace().open(try DocumentLoader.load(text: text, name: "playback.yaml")).graph
        let cache = WorkspaceTests.folder.appendingPathComponent("playback-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: cache) }

        let playback = try PlaybackRender(graph: graph, size: PixelSize(width: 160, height: 90), cacheFolder: cache)
        #expect(playback.pieces.map(\.index) == Array(playback.pieces.indices))
        #expect(playback.pieces.first?.timeRange.start == .zero)
        #expect(playback.pieces.last?.timeRange.end == graph.duration)
        #expect(zip(playback.pieces, playback.pieces.dropFirst()).allSatisfy { $0.timeRange.end == $1.timeRange.start })
        #expect(playback.pieces.allSatisfy { $0.timeRange.duration.seconds <= 2 })
        #expect(playback.existingPiece(0) == nil)

        let path = try playback.piece(0)
        let probe = try MediaFactory.ffprobe(path, ["-show_streams"])
        let streams = try #require(probe["streams"] as? [[String: Any]])
        #expect(streams.contains { $0["codec_name"] as? String == "h264" && $0["height"] as? Int == 90 })
        #expect(streams.contains { $0["codec_name"] as? String == "flac" })

        let again = try PlaybackRender(graph: graph, size: PixelSize(width: 160, height: 90), cacheFolder: cache)
        #expect(again.pieces == playback.pieces)
        #expect(again.existingPiece(0) == path)

        again.cancel()
        #expect(again.isCancelled)
        #expect(throws: (any Error).self) { try again.piece(1) }
    }
}
