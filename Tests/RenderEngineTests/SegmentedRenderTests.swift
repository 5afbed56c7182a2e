import CompositionGraph
import Digest
import Foundation
import MediaTime
@testable import RenderEngine
import TestSupport
import Testing

/// The video is rendered in segments and joined: the file depends on the graph alone, never
/// on how many workers made it or in what order, and shows no seam.
@Suite struct SegmentedRenderTests {
    let size = PixelSize(width: 320, height: 180)

    func folder(_ name: String) throws -> String {
        let path = MediaFactory.path(name)
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func sha(_ path: String) throws -> String { try SHA256.hexDigest(ofFileAt: path) }

    /// Bars, then the flash clip crossfaded in, a box that slides across the frame, and a title
    /// that moves: every kind of change crossing the 0.5 s segment boundaries.
    func graph(lossless: Bool, segment: MediaTime = seconds(1, 2)) throws -> CompositionGraph {
        let bars = try MediaReference.probed("bars", MediaBridgeTests.bars())
        let flash = try MediaReference.probed("flash", AVSyncTests.flashes())
        var g = EndToEnd.sequence([
            EndToEnd.Clip(media: bars, source: TimeRange(start: .zero, duration: seconds(2)), target: TimeRange(start: .zero, duration: seconds(2))),
            EndToEnd.Clip(media: flash, source: TimeRange(start: .zero, duration: seconds(2)), target: TimeRange(start: seconds(7, 5), duration: seconds(2))),
        ], size: size, lossless: lossless)
        // The incoming clip slides in from the right over the crossfade (1.4–2 s).
        let overlap = TimeRange(start: seconds(7, 5), end: seconds(2))
        g.videoComposition.instructions[1].layers[1].transform.positionX = .ramp(from: 420, to: 160, over: overlap)
        g.overlays = [OverlayLayer(content: .text("Seams?", TextStyle(font: "DejaVu Sans", size: 40)), timeRange: TimeRange(start: .zero, end: seconds(17, 5)),
                                   positionX: .ramp(from: 40, to: 280, over: TimeRange(start: .zero, end: seconds(17, 5))), positionY: .constant(150))]
        g.output.segmentLength = segment
        return g
    }

    func render(_ graph: CompositionGraph, to name: String, jobs: Int = 1, parts: String? = nil) throws -> (String, ExportSession.Report) {
        let path = MediaFactory.path(name)
        let report = try ExportSession(graph: graph, options: ExportOptions(outputPath: path, jobs: jobs, partsFolder: parts)).run()
        return (path, report)
    }

    @Test func theSameBytesFromAnyNumberOfWorkersAndAnyOrder() throws {
        let g = try graph(lossless: false)
        let (one, report) = try render(g, to: "seg-jobs1.mp4", jobs: 1)
        #expect(report.rendered.count == 7 && report.reused.isEmpty) // 3.4 s in 0.5 s segments
        for jobs in [2, 3] {
            #expect(try sha(try render(g, to: "seg-jobs\(jobs).mp4", jobs: jobs).0) == (try sha(one)), "--jobs \(jobs)")
        }
        // One segment at a time, last first, each by its own session (as separate workers
        // would), then joined by yet another.
        let parts = try folder("seg-parts-reverse")
        let out = MediaFactory.path("seg-reverse.mp4")
        let options = ExportOptions(outputPath: out, partsFolder: parts)
        for k in (0..<7).reversed() { try ExportSession(graph: g, options: options).renderSegment(k) }
        try ExportSession(graph: g, options: options).join()
        #expect(try sha(out) == (try sha(one)))
    }

    /// Lossless: every decoded frame of a render in 0.5 s segments equals the frame of a render
    /// in one segment, the frames on both sides of each boundary included.
    @Test func noSeams() throws {
        let segmented = try render(try graph(lossless: true), to: "seg-seams.mkv").0
        let whole = try render(try graph(lossless: true, segment: seconds(60)), to: "seg-whole.mkv").0
        let a = try EndToEnd.decodedFrames(segmented, width: 320, height: 180)
        let b = try EndToEnd.decodedFrames(whole, width: 320, height: 180)
        #expect(a.count == 102 && b.count == 102)
        for (n, (x, y)) in zip(a, b).enumerated() where x != y { Issue.record("frame \(n) differs (boundaries every 15 frames)") }
        #expect(try EndToEnd.decodedAudio(segmented) == (try EndToEnd.decodedAudio(whole)))
    }

    @Test func aMissingTruncatedOrForeignPartIsNamedAndNeverJoined() throws {
        let g = try graph(lossless: false)
        let parts = try folder("seg-parts-faults")
        let out = MediaFactory.path("seg-faults.mp4")
        let session = try ExportSession(graph: g, options: ExportOptions(outputPath: out, partsFolder: parts))
        for k in [0, 1, 3, 4, 5, 6] { try session.renderSegment(k) }
        #expect { try session.join() } throws: { error in
            guard case .partMissing(let place, _) = error as? RenderError else { return false }
            return place.hasPrefix("segment 2 (frames 30–44, 00:00:01.000–00:00:01.500)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        // A worker killed mid-write leaves no part; a truncated or damaged one is refused.
        try session.renderSegment(2)
        let two = session.partPath(session.plan.segments[2])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: two))
        try bytes.prefix(bytes.count - 100).write(to: URL(fileURLWithPath: two))
        #expect { try session.join() } throws: { error in
            guard case .partUnusable(let place, _, let reason) = error as? RenderError else { return false }
            return place.hasPrefix("segment 2 ") && reason.contains("truncated")
        }
        var damaged = bytes
        damaged[damaged.count / 2] ^= 0xFF
        try damaged.write(to: URL(fileURLWithPath: two))
        #expect { try session.join() } throws: { error in
            guard case .partUnusable(_, _, let reason) = error as? RenderError else { return false }
            return reason.contains("digest")
        }
        // Segment 3's part in segment 2's place.
        try FileManager.default.removeItem(atPath: two)
        try FileManager.default.copyItem(atPath: session.partPath(session.plan.segments[3]), toPath: two)
        #expect { try session.join() } throws: { error in
            guard case .partUnusable(_, _, let reason) = error as? RenderError else { return false }
            return reason.contains("other content")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        // A run renders the unusable part again and joins.
        let report = try session.run()
        #expect(report.rendered == [2] && report.reused == [0, 1, 3, 4, 5, 6])
        #expect(try sha(out) == (try sha(try render(g, to: "seg-faults-clean.mp4").0)))
    }

    @Test func anEditReRendersOnlyTheSegmentsItTouches() throws {
        let cache = try folder("seg-cache")
        var g = try graph(lossless: false)
        #expect(try render(g, to: "seg-cached.mp4", parts: cache).1.rendered.count == 7)
        let first = try keptFiles(cache)
        #expect(first.keys.filter { $0.hasSuffix(".reelpart") }.count == 7 && first.keys.filter { $0.hasSuffix(".reelaudio") }.count == 1,
                "7 segments and the join's audio: \(first)")
        // A title over 2.6–3 s only: segment 5 (2.5–3 s); the audio is the one kept.
        g.overlays.append(OverlayLayer(content: .text("New", TextStyle(font: "DejaVu Sans", size: 30)), timeRange: TimeRange(start: seconds(13, 5), end: seconds(3)),
                                       positionX: .constant(160), positionY: .constant(40)))
        let (cached, report) = try render(g, to: "seg-cached.mp4", parts: cache)
        #expect(report.rendered == [5], "\(report)")
        #expect(try sha(cached) == (try sha(try render(g, to: "seg-clean.mp4").0)))
        let second = try keptFiles(cache)
        #expect(second.count == 9 && first.allSatisfy { second[$0.key] == $0.value }, "nothing kept is written again: \(first) → \(second)")
        // Audio alone: no segment is rendered again, the audio is mixed and kept anew, and the
        // file still equals a clean render.
        g.audioMix.tracks[0].volume = .constant(0.5)
        let (quieter, audioOnly) = try render(g, to: "seg-cached.mp4", parts: cache)
        #expect(audioOnly.rendered.isEmpty)
        #expect(try sha(quieter) == (try sha(try render(g, to: "seg-clean-quiet.mp4").0)))
        #expect(try keptFiles(cache).count == 10)
        // A damaged kept audio part is never used: it is mixed again, and the file is still right.
        let audioPart = try keptFiles(cache).keys.first { !second.keys.contains($0) }!
        let damaged = cache + "/" + audioPart
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: damaged)))
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        #expect(try sha(try render(g, to: "seg-cached.mp4", parts: cache).0) == (try sha(quieter)))
    }

    /// The parts and kept audio in `cache` by name, with their inodes (a file made again is a new one).
    private func keptFiles(_ cache: String) throws -> [String: UInt64] {
        var files: [String: UInt64] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: cache) where name.hasSuffix(".reelpart") || name.hasSuffix(".reelaudio") {
            let attributes = try FileManager.default.attributesOfItem(atPath: cache + "/" + name)
            files[name] = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
        }
        return files
    }

    /// Two renders sharing a cache at once: each waits for a part the other is making instead
    /// of failing or writing it twice; both files are whole and equal, and no temporary file is
    /// left in the cache.
    @Test func twoRendersShareACache() throws {
        let cache = try folder("seg-cache-shared")
        let g = try graph(lossless: false)
        let outputs = [MediaFactory.path("seg-shared-a.mp4"), MediaFactory.path("seg-shared-b.mp4")]
        let failure = LockedErrors()
        let group = DispatchGroup()
        for output in outputs {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do { try ExportSession(graph: g, options: ExportOptions(outputPath: output, jobs: 2, partsFolder: cache)).run() } catch { failure.add(error) }
            }
        }
        group.wait()
        #expect(failure.all.isEmpty, "\(failure.all)")
        #expect(try sha(outputs[0]) == (try sha(outputs[1])))
        #expect(try sha(outputs[0]) == (try sha(try render(g, to: "seg-shared-clean.mp4").0)))
        let names = try FileManager.default.contentsOfDirectory(atPath: cache)
        // 7 segments and the join's audio, each kept once.
        #expect(names.filter { $0.hasSuffix(".reelpart") }.count == 7 && names.filter { $0.hasSuffix(".reelaudio") }.count == 1
                && !names.contains { $0.hasSuffix(".partial") }, "\(names)")
    }
}

/// Errors from several threads.
final class LockedErrors: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [Error] = []
    func add(_ error: Error) { lock.withLock { errors.append(error) } }
    var all: [Error] { lock.withLock { errors } }
}
