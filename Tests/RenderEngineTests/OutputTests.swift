import CompositionGraph
import Foundation
import MediaTime
import TestSupport
import Testing
@testable import RenderEngine

/// Whole renders through `ExportSession` checked on the decoded output.
@Suite struct OutputTests {
    let size = PixelSize(width: 320, height: 180)

    /// Colour bars (BT.709 source) scaled 2× into the output: flat regions keep their values.
    @Test func colourBarsKeepTheirValues() throws {
        let bars = try MediaReference.probed("bars", MediaBridgeTests.bars())
        let out = PixelSize(width: 640, height: 360)
        let clip = EndToEnd.Clip(media: bars, source: TimeRange(start: .zero, duration: seconds(1, 2)),
                                 target: TimeRange(start: .zero, duration: seconds(1, 2)))
        let rendered = try EndToEnd.render(EndToEnd.sequence([clip], size: out), to: "bars-2x.mkv")
        let source = try EndToEnd.decodedFrames(bars.path, width: 320, height: 180)[0]
        let output = try EndToEnd.decodedFrames(rendered, width: 640, height: 360)[0]
        let sourceFrame = YUVFrame(width: 320, height: 180)
        fill(sourceFrame, from: source)
        var checked = 0
        for y in [40, 130] {
            for x in MediaBridgeTests.flatColumns(sourceFrame, y: y) {
                for plane in 0..<3 {
                    let s = plane == 0 ? 0 : 1
                    let a = Int(sample(source, width: 320, height: 180, plane: plane, x: x >> s, y: y >> s))
                    let b = Int(sample(output, width: 640, height: 360, plane: plane, x: (2 * x) >> s, y: (2 * y) >> s))
                    #expect(abs(a - b) <= 1, "(\(x), \(y)) plane \(plane): source \(a), output \(b)")
                    checked += 1
                }
            }
        }
        #expect(checked > 100)
    }

    /// Copies packed yuv420p bytes into a frame.
    func fill(_ frame: YUVFrame, from bytes: [UInt8]) {
        var i = 0
        for plane in 0..<3 {
            let p = frame.plane(plane)
            let rows = plane == 0 ? frame.height : frame.chromaHeight, cols = plane == 0 ? frame.width : frame.chromaWidth
            for r in 0..<rows { for c in 0..<cols { p.base[r * p.stride + c] = bytes[i]; i += 1 } }
        }
    }

    /// Two colour clips (red, then blue) with a 1 s transition at 30 fps; returns the
    /// decoded frame in the transition's middle (frame 45 of 0…89).
    func transitionMiddle(_ name: String, _ change: @escaping (TimeRange, PixelSize) -> (out: EndToEnd.LayerInstructionChange, in: EndToEnd.LayerInstructionChange))
        throws -> [UInt8] {
        let red = Color(red: 1, green: 0, blue: 0), blue = Color(red: 0, green: 0, blue: 1)
        let a = Segment(target: TimeRange(start: .zero, duration: seconds(2)), content: .color(red))
        let b = Segment(target: TimeRange(start: seconds(1), duration: seconds(2)), content: .color(blue))
        let overlap = TimeRange(start: seconds(1), duration: seconds(1))
        let (outChange, inChange) = change(overlap, size)
        let tracks = [CompositionTrack(id: 1, kind: .video, name: "video 1 A", segments: [a]),
                      CompositionTrack(id: 2, kind: .video, name: "video 1 B", segments: [b])]
        let instructions = [
            VideoInstruction(timeRange: TimeRange(start: .zero, duration: seconds(1)), background: .black, layers: [layer(1, size: size)]),
            VideoInstruction(timeRange: overlap, background: .black, layers: [outChange(layer(1, size: size)), inChange(layer(2, size: size))]),
            VideoInstruction(timeRange: TimeRange(start: seconds(2), duration: seconds(1)), background: .black, layers: [layer(2, size: size)]),
        ]
        let graph = CompositionGraph(composition: Composition(duration: seconds(3), tracks: tracks),
                                     videoComposition: VideoComposition(renderSize: size, frameDuration: seconds(1, 30), background: .black,
                                                                        instructions: instructions),
                                     audioMix: AudioMix(tracks: []), overlays: [], fonts: [], output: EndToEnd.output(size: size))
        let frames = try EndToEnd.decodedFrames(try EndToEnd.render(graph, to: "transition-\(name).mkv"), width: 320, height: 180)
        #expect(frames.count == 90)
        return frames[45]
    }

    let redY: UInt8 = 63, blueY: UInt8 = 32

    @Test func crossfadeIsHalfAndHalfInItsMiddle() throws {
        let mid = try transitionMiddle("crossfade", EndToEnd.crossfade)
        // 63 + (32 − 63) · 128/256 = 47.5 → 47 (integer blend rounds half down here).
        #expect(abs(Int(sample(mid, width: 320, height: 180, plane: 0, x: 160, y: 90)) - 47) <= 1)
        #expect(abs(Int(sample(mid, width: 320, height: 180, plane: 1, x: 80, y: 45)) - (102 + 240) / 2) <= 1)
    }

    @Test func wipeShowsTheIncomingClipOverHalfTheFrame() throws {
        // Wipe left: the incoming clip is revealed from the right, its left crop going 1 → 0.
        let mid = try transitionMiddle("wipe") { overlap, _ in
            ({ $0 }, { var l = $0; l.crop = CropAnimation(left: .ramp(from: 1, to: 0, over: overlap)); return l })
        }
        #expect(sample(mid, width: 320, height: 180, plane: 0, x: 150, y: 90) == redY)
        #expect(sample(mid, width: 320, height: 180, plane: 0, x: 170, y: 90) == blueY)
    }

    @Test func slideMovesTheIncomingClipHalfWayIn() throws {
        // Slide left: the incoming clip's centre moves from 1.5 widths to 0.5 widths.
        let mid = try transitionMiddle("slide") { overlap, size in
            ({ $0 }, { var l = $0; l.transform.positionX = .ramp(from: 1.5 * Double(size.width), to: 0.5 * Double(size.width), over: overlap); return l })
        }
        #expect(sample(mid, width: 320, height: 180, plane: 0, x: 150, y: 90) == redY)
        #expect(sample(mid, width: 320, height: 180, plane: 0, x: 170, y: 90) == blueY)
    }

    /// The short sync project rendered twice, and once with every thread on CPU 0: the same bytes.
    @Test func renderingIsDeterministic() throws {
        let media = try MediaReference.probed("flash", AVSyncTests.flashes())
        let bars = try MediaReference.probed("bars", MediaBridgeTests.bars())
        let clips = [
            EndToEnd.Clip(media: media, source: TimeRange(start: .zero, duration: seconds(2)), target: TimeRange(start: .zero, duration: seconds(2))),
            EndToEnd.Clip(media: bars, source: TimeRange(start: .zero, duration: seconds(2)), target: TimeRange(start: seconds(3, 2), duration: seconds(2))),
        ]
        let graph = EndToEnd.sequence(clips, size: size, lossless: false)
        let first = try Data(contentsOf: URL(fileURLWithPath: EndToEnd.render(graph, to: "determinism-1.mp4")))
        let second = try Data(contentsOf: URL(fileURLWithPath: EndToEnd.render(graph, to: "determinism-2.mp4")))
        let pinned = try onCPU0 { try Data(contentsOf: URL(fileURLWithPath: EndToEnd.render(graph, to: "determinism-cpu0.mp4"))) }
        #expect(first.count > 10_000)
        #expect(first == second)
        #expect(first == pinned)
    }

    /// Runs `body` with this thread (and the threads it starts) pinned to CPU 0, like `taskset -c 0`.
    func onCPU0<T>(_ body: () throws -> T) throws -> T {
        let task = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
        let tid = String(task.split(separator: "/").last!)
        // "pid 123's current affinity mask: 3"
        let mask = try MediaFactory.run("taskset", ["-p", tid]).split(separator: " ").last!.trimmingCharacters(in: .whitespacesAndNewlines)
        try MediaFactory.run("taskset", ["-p", "-c", "0", tid])
        defer { _ = try? MediaFactory.run("taskset", ["-p", mask, tid]) }
        return try body()
    }
}

/// Sources that are not the output's size, rate or orientation.
@Suite struct SourceVarietyTests {
    /// The 320x180 bars file tagged with a 90° display rotation (stream copy), so it shows 180x320.
    static func rotatedBars() throws -> String {
        try MediaFactory.file("render-bars-rotated.mp4") { path in
            try MediaFactory.ffmpeg(["-i", try MediaBridgeTests.bars(), "-c", "copy", "-metadata:s:v:0", "rotate=90", path])
        }
    }

    @Test func aRotatedSourceIsTurnedUprightAndFitted() throws {
        let media = try MediaReference.probed("turned", Self.rotatedBars())
        let size = PixelSize(width: 320, height: 180)
        let clip = EndToEnd.Clip(media: media, source: TimeRange(start: .zero, duration: seconds(1, 2)), target: TimeRange(start: .zero, duration: seconds(1, 2)))
        let frame = try EndToEnd.decodedFrames(try EndToEnd.render(EndToEnd.sequence([clip], size: size), to: "rotated.mkv"), width: 320, height: 180)[0]
        // Upright it is 180x320; contained in 320x180 it is 102 px wide (even) at x = 110, black beside it.
        #expect(sample(frame, width: 320, height: 180, plane: 0, x: 40, y: 90) == 16)
        #expect(sample(frame, width: 320, height: 180, plane: 0, x: 280, y: 90) == 16)
        // The same picture as ffmpeg's own autorotation, scaled and padded alike, wherever it is flat.
        let reference = MediaFactory.path("rotated-reference.yuv")
        try MediaFactory.ffmpeg(["-i", media.path, "-vf", "scale=102:180:flags=bicubic,pad=320:180:110:0:black", "-frames:v", "1",
                                 "-f", "rawvideo", "-pix_fmt", "yuv420p", reference])
        let expected = [UInt8](try Data(contentsOf: URL(fileURLWithPath: reference)))
        var compared = 0
        for y in stride(from: 4, to: 176, by: 4) {
            for x in stride(from: 114, to: 208, by: 2) {
                let v = sample(expected, width: 320, height: 180, plane: 0, x: x, y: y)
                let flat = (-3...3).allSatisfy { d in
                    sample(expected, width: 320, height: 180, plane: 0, x: x + d, y: y) == v
                        && sample(expected, width: 320, height: 180, plane: 0, x: x, y: y + d) == v
                }
                guard flat else { continue }
                compared += 1
                #expect(abs(Int(sample(frame, width: 320, height: 180, plane: 0, x: x, y: y)) - Int(v)) <= 2, "(\(x), \(y))")
            }
        }
        #expect(compared > 200)
    }

    @Test func a25fpsSourceIsSampledAndHeldAt30fps() throws {
        let media = try MediaReference.probed("flash", AVSyncTests.flashes())
        let clip = EndToEnd.Clip(media: media, source: TimeRange(start: .zero, duration: seconds(2)), target: TimeRange(start: .zero, duration: seconds(2)))
        let frames = try EndToEnd.decodedFrames(try EndToEnd.render(EndToEnd.sequence([clip], size: PixelSize(width: 320, height: 180)), to: "25to30.mkv"),
                                                width: 320, height: 180)
        #expect(frames.count == 60)
        // Source frames 0 and 25 are white. Output frame n shows source frame ⌊n · 25/30⌋: 0, 1, 30 and 31.
        let white = frames.indices.filter { sample(frames[$0], width: 320, height: 180, plane: 0, x: 160, y: 90) > 128 }
        #expect(white == [0, 1, 30, 31])
    }
}
