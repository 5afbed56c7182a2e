import CompositionGraph
import MediaTime
import TestSupport
import Testing
@testable import RenderEngine

/// Sources with a white flash and a beep at the same instants, cut, sped up and crossfaded:
/// in the output every beep starts within 1 ms of the start of its flash frame.
@Suite struct AVSyncTests {
    /// 6 s, 320x180 at 25 fps: black, with a white frame at each whole second; 48 kHz audio
    /// silent but for a 20 ms 1 kHz beep starting at each whole second. AAC in MP4.
    static func flashes() throws -> String {
        try MediaFactory.file("render-flash-beep.mp4", [
            "-f", "lavfi", "-i", "color=c=black:s=320x180:r=25:d=6,geq=lum='if(lt(mod(N\\,25)\\,1)\\,235\\,16)':cb=128:cr=128",
            "-f", "lavfi", "-i", "aevalsrc='if(lt(mod(t\\,1)\\,0.02)\\,0.8*sin(2*PI*1000*t)\\,0)':s=48000:d=6",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "12", "-bf", "2", "-c:a", "aac", "-b:a", "192k", "-ac", "2",
        ])
    }

    /// Times (s) of the first frame of each run of white frames.
    static func flashStarts(_ frames: [[UInt8]], width: Int, height: Int, fps: Double) -> [Double] {
        var starts: [Double] = [], wasWhite = false
        for (n, frame) in frames.enumerated() {
            let luma = frame[(height / 2) * width + width / 2]
            let white = luma > 128
            if white && !wasWhite { starts.append(Double(n) / fps) }
            wasWhite = white
        }
        return starts
    }

    /// Times (s) where the signal first exceeds 0.05 after at least 10 ms below it (a beep of
    /// amplitude 0.8 gets there within 10 µs of its start).
    static func beepStarts(_ samples: [Float], rate: Double) -> [Double] {
        var starts: [Double] = [], quiet = Int(rate)
        for (i, s) in samples.enumerated() {
            if abs(s) > 0.05 {
                if quiet >= Int(rate / 100) { starts.append(Double(i) / rate) }
                quiet = 0
            } else {
                quiet += 1
            }
        }
        return starts
    }

    @Test(arguments: [false, true]) func beepsLandOnTheirFlashFrames(aacInMP4: Bool) throws {
        let (flashes, beeps) = try render(try Self.syncGraph(lossless: !aacInMP4), to: aacInMP4 ? "sync.mp4" : "sync.mkv")
        // Source second 0 is shown too (clip 2 starts there): 10 flashes.
        #expect(flashes == [0.5, 1.5, 2.5, 3, 3.5, 4, 4.5, 5.3, 6.3, 7.3], "flashes at \(flashes)")
        #expect(beeps.count == flashes.count, "beeps at \(beeps), flashes at \(flashes)")
        for (flash, beep) in zip(flashes, beeps) {
            #expect(abs(beep - flash) <= 0.001, "beep at \(beep) s, flash frame at \(flash) s")
        }
    }

    /// Keeping the pitch (time-stretching the 2× clip) moves sounds by up to a grain's worth
    /// of source (40 ms plus the 10 ms search radius) divided by the speed: 25 ms at 2×. Clips
    /// at speed 1 stay sample-accurate.
    @Test func withTheirPitchKeptSpedUpBeepsStayWithinAGrainOfTheirFlashes() throws {
        var graph = try Self.syncGraph(lossless: true)
        for i in graph.audioMix.tracks.indices { graph.audioMix.tracks[i].timePitch = .timeDomain }
        let (flashes, beeps) = try render(graph, to: "sync-keep-pitch.mkv")
        #expect(beeps.count == flashes.count, "beeps at \(beeps), flashes at \(flashes)")
        print("keep-pitch sync, beep − flash in ms:", zip(flashes, beeps).map { String(format: "%.2f", ($0.1 - $0.0) * 1000) })
        for (i, (flash, beep)) in zip(flashes, beeps).enumerated() {
            let spedUp = (3...6).contains(i)
            #expect(abs(beep - flash) <= (spedUp ? 0.025 : 0.001), "beep at \(beep) s, flash frame at \(flash) s")
        }
    }

    /// Flash starts and beep starts of a render of `graph`.
    func render(_ graph: CompositionGraph, to name: String) throws -> (flashes: [Double], beeps: [Double]) {
        let out = try EndToEnd.render(graph, to: name)
        let flashes = Self.flashStarts(try EndToEnd.decodedFrames(out, width: 320, height: 180), width: 320, height: 180, fps: 30)
        return (flashes, Self.beepStarts(try EndToEnd.decodedAudio(out), rate: 48000))
    }

    /// Three clips of the flash-and-beep source: trimmed, at 2×, and crossfaded in.
    static func syncGraph(lossless: Bool) throws -> CompositionGraph {
        let media = try MediaReference.probed("flash", Self.flashes())
        let size = PixelSize(width: 320, height: 180)
        let clips = [
            // Trimmed: source 0.5–3.5 s at 0 s (flashes at 0.5, 1.5, 2.5 s).
            EndToEnd.Clip(media: media, source: TimeRange(start: seconds(1, 2), duration: seconds(3)), target: TimeRange(start: .zero, duration: seconds(3))),
            // Twice as fast: source 0–4 s in 3–5 s (flashes at 3, 3.5, 4, 4.5 s).
            EndToEnd.Clip(media: media, source: TimeRange(start: .zero, duration: seconds(4)), target: TimeRange(start: seconds(3), duration: seconds(2))),
            // Crossfaded in over 4.5–5 s, from source 0.2 s (flashes at 5.3, 6.3, 7.3 s).
            EndToEnd.Clip(media: media, source: TimeRange(start: seconds(1, 5), duration: seconds(3)), target: TimeRange(start: seconds(9, 2), duration: seconds(3))),
        ]
        var graph = EndToEnd.sequence(clips, size: size, lossless: lossless)
        // Segments of 1.5 s: the video is cut at 1.5, 3, 4.5 and 6 s, on flash frames, while
        // their beeps sound.
        graph.output.segmentLength = seconds(3, 2)
        return graph
    }
}
