import Foundation
import MediaIO
import MediaTime
import Testing
import TestSupport

@Suite struct ProbeTests {
    /// ffprobe's decimal seconds, exactly.
    static func seconds(_ value: Any?) -> Rational? { (value as? String).flatMap { Rational(exactly: $0) } }

    /// ffprobe prints times rounded to microseconds.
    static func expectClose(_ ours: MediaTime?, _ theirs: Any?, _ what: String) {
        guard let theirs = seconds(theirs) else {
            #expect(ours == nil, "\(what): ffprobe has none")
            return
        }
        guard let ours else {
            Issue.record("\(what): ffprobe says \(theirs), we have none")
            return
        }
        #expect((ours.value - theirs).magnitude <= Rational(1, 1_000_000), "\(what): \(ours) vs \(theirs)")
    }

    static func ratio(_ value: Any?) -> Rational? {
        guard let text = value as? String, text != "0/0", text != "0:1" else { return nil }
        let parts = text.split(whereSeparator: { $0 == "/" || $0 == ":" }).compactMap { Int64($0) }
        return parts.count == 2 && parts[1] != 0 && parts[0] != 0 ? Rational(parts[0], parts[1]) : nil
    }

    @Test(arguments: MediaRecipe.probed)
    func factsMatchFFprobe(_ probeCase: MediaRecipe) throws {
        let path = try probeCase.make()
        let info = try MediaProbe.probe(path: path)
        let json = try MediaFactory.ffprobe(path, ["-show_format", "-show_streams", "-show_chapters"])
        let format = json["format"] as! [String: Any]
        #expect(info.format == format["format_name"] as? String)
        Self.expectClose(info.duration, format["duration"], "duration")
        Self.expectClose(info.startTime, format["start_time"] ?? "0", "start time")
        #expect(info.bitRate.map(String.init) == format["bit_rate"] as? String)
        #expect(info.metadata == (format["tags"] as? [String: String] ?? [:]))
        let streams = json["streams"] as! [[String: Any]]
        #expect(info.streams.count == streams.count)
        for (ours, theirs) in zip(info.streams, streams) {
            let what = "\(probeCase.name) stream \(ours.index)"
            #expect(ours.kind.rawValue == theirs["codec_type"] as? String, "\(what)")
            #expect(ours.codec == theirs["codec_name"] as? String, "\(what)")
            #expect(ours.profile == theirs["profile"] as? String, "\(what)")
            #expect(ours.timeBase == Rational(exactly: theirs["time_base"] as! String), "\(what)")
            Self.expectClose(ours.startTime, theirs["start_time"], "\(what) start")
            Self.expectClose(ours.duration, theirs["duration"], "\(what) duration")
            #expect(ours.frameCount.map(String.init) == (theirs["nb_frames"] as? String).flatMap { $0 == "0" ? nil : $0 }, "\(what)")
            #expect(ours.bitRate.map(String.init) == theirs["bit_rate"] as? String, "\(what)")
            if let video = ours.video {
                #expect(video.width == theirs["width"] as? Int && video.height == theirs["height"] as? Int, "\(what)")
                #expect(video.pixelFormat == theirs["pix_fmt"] as? String, "\(what)")
                #expect(video.sampleAspectRatio == Self.ratio(theirs["sample_aspect_ratio"]), "\(what)")
                #expect(video.averageFrameRate == Self.ratio(theirs["avg_frame_rate"]), "\(what)")
                #expect(video.realFrameRate == Self.ratio(theirs["r_frame_rate"]), "\(what)")
                #expect(video.colorRange == theirs["color_range"] as? String, "\(what)")
                #expect(video.colorMatrix == theirs["color_space"] as? String, "\(what)")
                #expect(video.colorPrimaries == theirs["color_primaries"] as? String, "\(what)")
                #expect(video.colorTransfer == theirs["color_transfer"] as? String, "\(what)")
                #expect(video.fieldOrder == theirs["field_order"] as? String, "\(what)")
                #expect(!video.isVariableFrameRate, "\(what)")
            }
            if let audio = ours.audio {
                #expect(String(audio.sampleRate) == theirs["sample_rate"] as? String, "\(what)")
                #expect(audio.channels == theirs["channels"] as? Int, "\(what)")
                #expect(audio.channelLayout == theirs["channel_layout"] as? String ?? "\(audio.channels) channels", "\(what)")
                #expect(audio.sampleFormat == theirs["sample_fmt"] as? String, "\(what)")
            }
        }
        #expect(info.isStillImage == [".png", ".jpg", ".webp"].contains { probeCase.name.hasSuffix($0) })
    }

    @Test func displaySizeAppliesSampleAspectRatio() throws {
        let info = try MediaProbe.probe(path: try MediaRecipe.probed[1].make())
        #expect(info.video?.video?.displayWidth == 213 && info.video?.video?.displayHeight == 120)
        #expect(info.video?.video?.hasAlpha == false)
        #expect(try MediaProbe.probe(path: try MediaRecipe.probed[8].make()).video?.video?.hasAlpha == true)
    }

    @Test func chaptersAndMetadata() throws {
        let path = try MediaFactory.file("chapters.mkv") { path in
            let metadata = MediaFactory.path("chapters.ffmeta")
            try """
            ;FFMETADATA1
            title=Chaptered
            [CHAPTER]
            TIMEBASE=1/1000
            START=0
            END=400
            title=Intro
            [CHAPTER]
            TIMEBASE=1/1000
            START=400
            END=1000
            title=Main
            """.write(toFile: metadata, atomically: true, encoding: .utf8)
            try MediaFactory.ffmpeg(MediaRecipe.video + ["-i", metadata, "-map_metadata", "1", "-map_chapters", "1", "-c:v", "libx264", path])
        }
        let info = try MediaProbe.probe(path: path)
        #expect(info.metadata["title"] == "Chaptered")
        #expect(info.chapters.map(\.title) == ["Intro", "Main"])
        #expect(info.chapters.map(\.start) == [.zero, MediaTime(2, 5)] && info.chapters.map(\.end) == [MediaTime(2, 5), MediaTime(1, 1)])
        #expect(info.text.contains("chapter") && info.text.contains("\"Main\""))
    }

    @Test func variableFrameRateIsDetected() throws {
        let path = try NumberedClip.all.first { $0.name == "nvfr.mp4" }!.make()
        #expect(try MediaProbe.probe(path: path).video?.video?.isVariableFrameRate == true)
        let constant = try NumberedClip.all.first { $0.name == "n2997.mkv" }!.make()
        #expect(try MediaProbe.probe(path: constant).video?.video?.isVariableFrameRate == false)
    }

    @Test func jsonRoundTripsExactly() throws {
        let info = try MediaProbe.probe(path: try MediaRecipe.probed[0].make())
        let decoded = try JSONDecoder().decode(MediaInfo.self, from: Data(info.json.utf8))
        #expect(decoded == info)
        #expect(info.json.contains("\"averageFrameRate\" : \"30000/1001\""))
        #expect(info.text.contains("video h264") && info.text.contains("30000/1001 fps") && info.text.contains("audio aac"))
    }
}
