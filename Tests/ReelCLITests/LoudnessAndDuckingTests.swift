import Foundation
import TestSupport
import Testing

/// `output.audio.loudness` and `duck:`, checked on rendered files with ffmpeg's own meters:
/// `ebur128` for integrated loudness and true peak, `astats` over time windows for the level
/// of a ducked track (isolated from the voice by frequency: the music is 60 Hz, the voice
/// 2 kHz).
@Suite(.serialized) struct LoudnessAndDuckingTests {
    static let folder: URL = MediaFactory.folder("loudness-ducking")

    /// Writes the media and `project` (YAML) into the folder; returns the project's path.
    func project(_ name: String, _ text: String) throws -> String {
        let media: [(String, String)] = [
            ("picture.mp4", "color=c=gray:s=160x120:r=25:d=10"),
            // Quiet music (60 Hz, about -23 LUFS) all along.
            ("music.wav", "aevalsrc=0.1*sin(2*PI*60*t)|0.1*sin(2*PI*60*t):s=48000:d=10"),
            // A voice: 2 kHz bursts from 2 s to 4 s and from 6 s to 7.5 s, silent otherwise.
            ("voice.wav", "aevalsrc=0.3*sin(2*PI*2000*t)*(between(t\\,2\\,4)+between(t\\,6\\,7.5)):s=48000:d=10"),
            // A quiet tone with a short loud click every 2 s: lifting it to the target makes
            // the clicks overshoot 0 dBFS, so only the limiter keeps the true peak down.
            ("clicks.wav", "aevalsrc=0.05*sin(2*PI*440*t)+0.3*lt(mod(t\\,2)\\,0.002)*sin(2*PI*3000*t):s=48000:d=8"),
        ]
        for (file, source) in media {
            let path = Self.folder.appendingPathComponent(file).path
            if !FileManager.default.fileExists(atPath: path) {
                try MediaFactory.ffmpeg(["-f", "lavfi", "-i", source] + (file.hasSuffix(".mp4") ? ["-c:v", "libx264"] : []) + [path])
            }
        }
        let path = Self.folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func render(_ project: String, _ output: String, _ extra: [String] = []) throws -> ReelRun {
        let path = Self.folder.appendingPathComponent(output).path
        let run = try ReelCommand.run(["render", project, "-o", path, "--no-cache"] + extra)
        #expect(run.status == 0, "\(run.standardError)")
        return run
    }

    /// What `ffmpeg <arguments>` logs (its meters write to standard error).
    func ffmpegLog(_ arguments: [String]) throws -> String {
        try MediaFactory.run("bash", ["-c", "ffmpeg -hide_banner -nostdin -nostats \"$@\" 2>&1", "ffmpeg"] + arguments)
    }

    /// ffmpeg's `ebur128` summary of a file: integrated loudness (LUFS) and true peak (dBTP, to 0.1).
    func ebur128(_ output: String) throws -> (integrated: Double, truePeak: Double) {
        let path = Self.folder.appendingPathComponent(output).path
        let log = try ffmpegLog(["-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"])
        let summary = try #require(log.range(of: "Summary:")).upperBound
        func value(after label: String) throws -> Double {
            let rest = log[summary...]
            let start = try #require(rest.range(of: label)).upperBound
            let words = rest[start...].split(whereSeparator: { $0 == " " || $0 == "\n" })
            return try #require(Double(words[0]))
        }
        return (try value(after: "I:"), try value(after: "Peak:"))
    }

    /// The RMS level (dBFS) of the 60 Hz music in `[start, end)` seconds of the output.
    func musicLevel(_ output: String, from start: Double, to end: Double) throws -> Double {
        let path = Self.folder.appendingPathComponent(output).path
        let filter = Array(repeating: "lowpass=f=150", count: 4).joined(separator: ",")
            + ",atrim=start=\(start):end=\(end),astats=measure_perchannel=none:measure_overall=RMS_level"
        let log = try ffmpegLog(["-i", path, "-af", filter, "-f", "null", "-"])
        let line = try #require(log.split(separator: "\n").first { $0.contains("RMS level dB:") })
        return try #require(Double(line.split(separator: " ").last.map(String.init) ?? ""))
    }

    // MARK: Loudness

    static let loudProject = """
        reel: 1
        output: { size: [160, 120], fps: 25, segment: 2s, audio: { codec: pcm, loudness: -14, true_peak: -1 } }
        media: { picture: picture.mp4, clicks: clicks.wav }
        video:
          - clips: [ { media: picture, duration: 8s } ]
        audio:
          - clips: [ { media: clicks } ]
        """

    @Test func theMixLandsWithinHalfALUOfTheTargetWithTruePeaksUnderTheLimit() throws {
        let leveled = try project("loud.yaml", Self.loudProject)
        let plain = try project("plain.yaml", Self.loudProject.replacingOccurrences(of: ", loudness: -14, true_peak: -1", with: ""))
        let run = try render(leveled, "loud.mov", ["--progress", "json"])
        _ = try render(plain, "plain.mov")
        let before = try ebur128("plain.mov"), after = try ebur128("loud.mov")
        #expect(before.integrated < -20) // far from the target: the gain does the work
        #expect(before.truePeak < -1)
        #expect(abs(after.integrated - -14) <= 0.5, "output \(after.integrated) LUFS")
        #expect(after.truePeak <= -1, "output true peak \(after.truePeak) dBTP")
        // The report: our meter agrees with ffmpeg's on the unleveled mix, and the gain is the difference.
        let line = try #require(run.standardOutput.split(separator: "\n").last { $0.hasPrefix("{\"loudness\"") })
        let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [String: Any]])["loudness"]
        let measured = try #require(report?["measured"] as? Double), gain = try #require(report?["gain"] as? Double)
        #expect(abs(measured - before.integrated) <= 0.1, "Reel measured \(measured), ffmpeg \(before.integrated)")
        #expect(abs(gain - (-14 - measured)) <= 0.01)
        #expect(abs((report?["output"] as? Double ?? 0) - after.integrated) <= 0.1)
        #expect(report?["true_peak"] as? Double ?? 0 <= -1)
    }

    @Test func aLeveledRenderIsTheSameBytesWithOneJobOrTwo() throws {
        let path = try project("loud-aac.yaml", Self.loudProject.replacingOccurrences(of: "codec: pcm", with: "codec: aac"))
        _ = try render(path, "jobs1.mp4", ["--jobs", "1", "--progress", "none"])
        _ = try render(path, "jobs2.mp4", ["--jobs", "2", "--progress", "none"])
        let one = try Data(contentsOf: Self.folder.appendingPathComponent("jobs1.mp4"))
        let two = try Data(contentsOf: Self.folder.appendingPathComponent("jobs2.mp4"))
        #expect(!one.isEmpty && one == two)
        #expect(abs(try ebur128("jobs1.mp4").integrated - -14) <= 0.5)
    }

    // MARK: Ducking

    static let duckProject = """
        reel: 1
        output: { size: [160, 120], fps: 25, audio: { codec: pcm } }
        media: { picture: picture.mp4, music: music.wav, voice: voice.wav }
        video:
          - clips: [ { media: picture, duration: 10s } ]
        audio:
          - name: voice
            clips: [ { media: voice } ]
          - name: music
            duck: { under: voice, by: 12dB, attack: 0.2s, release: 0.5s }
            clips: [ { media: music } ]
        """

    @Test func theMusicDropsByTheAskedAmountWhileTheVoiceSpeaksAndComesBackAfter() throws {
        _ = try render(try project("duck.yaml", Self.duckProject), "duck.mov", ["--progress", "none"])
        let before = try musicLevel("duck.mov", from: 0.5, to: 1.9)
        let speaking = try musicLevel("duck.mov", from: 2.4, to: 3.9) // after the 0.2 s attack
        let falling = try musicLevel("duck.mov", from: 2.02, to: 2.18)
        let after = try musicLevel("duck.mov", from: 4.6, to: 5.9) // after the 0.5 s release
        let returning = try musicLevel("duck.mov", from: 4.1, to: 4.4)
        let again = try musicLevel("duck.mov", from: 6.4, to: 7.4)
        #expect(abs(before - speaking - 12) <= 0.2, "before \(before) dB, while speaking \(speaking) dB")
        #expect(abs(before - again - 12) <= 0.2)
        #expect(abs(after - before) <= 0.1, "before \(before) dB, after \(after) dB")
        // Ramps, not steps: part of the way down during the attack, part of the way up during the release.
        #expect(falling < before - 1 && falling > speaking + 1, "attack \(falling) dB")
        #expect(returning < after - 1 && returning > speaking + 1, "release \(returning) dB")
    }

    @Test func theTimelinePageDrawsTheDuckingGain() throws {
        let path = try project("duck-page.yaml", Self.duckProject)
        let page = Self.folder.appendingPathComponent("duck.html").path
        let run = try ReelCommand.run(["graph", path, "--html", page])
        #expect(run.status == 0, "\(run.standardError)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let svg = try #require(html.components(separatedBy: "<svg class=\"duck\"").dropFirst().first)
        let points = try #require(svg.components(separatedBy: "<polyline points=\"").dropFirst().first?.prefix { $0 != "\"" })
        let heights = points.split(separator: " ").compactMap { Int($0.split(separator: ",").last ?? "") }
        // The row's top is gain 1 (y 0); −12 dB is gain 0.251 (y 749).
        #expect(heights.first == 0 && heights.last == 0)
        #expect(heights.max() == 749)
        #expect(html.contains("ducks 12 dB under track"))
    }

    // MARK: Bad input

    @Test func validateNamesWhatIsWrongWithADuckAndWhere() throws {
        let cases: [(String, String, String)] = [
            ("under: voice", "under: voise", "duck: no track is named 'voise'"),
            ("under: voice", "under: music", "duck: a track cannot duck under itself"),
            ("by: 12dB", "by: 0dB", "'by' is how far the gain falls and must be more than 0 dB"),
            ("by: 12dB", "by: loud", "decibels"),
        ]
        for (old, new, message) in cases {
            let path = try project("bad-duck.yaml", Self.duckProject.replacingOccurrences(of: old, with: new))
            let run = try ReelCommand.run(["validate", path])
            #expect(run.status == 65)
            #expect(run.standardError.contains("bad-duck.yaml:10:"), "\(run.standardError)")
            #expect(run.standardError.contains(message), "\(run.standardError)")
        }
        let peakAlone = try project("bad-peak.yaml", Self.loudProject.replacingOccurrences(of: "loudness: -14, ", with: ""))
        let run = try ReelCommand.run(["validate", peakAlone])
        #expect(run.status == 65)
        #expect(run.standardError.contains("loudness"), "\(run.standardError)")
    }
}
