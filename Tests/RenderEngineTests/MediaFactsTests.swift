import CompositionGraph
import Foundation
import MediaIO
import MediaTime
import OverlayRendering
@testable import RenderEngine
import TestSupport
import Testing

/// The facts the front end records are what the back end finds when it renders.
@Suite struct MediaFactsTests {
    /// For every kind of file the suite makes: the picture the render decodes has the
    /// recorded upright size (sample aspect applied) and alpha, the sound the recorded rate and
    /// channels, a still the size it is drawn at; and a picture is there exactly when the kind
    /// says so.
    @Test(arguments: MediaRecipe.all)
    func theFactsAreWhatTheRenderFinds(_ recipe: MediaRecipe) throws {
        let path = try recipe.make()
        let facts = try MediaFactsReader().facts(forFileAt: path)
        #expect(facts.hasPicture == (facts.kind != .audio))
        switch facts.kind {
        case .video:
            let reader = try VideoReader(path: path, options: .init(orientation: .display))
            let frame = try reader.frame(at: .zero)
            let stream = try #require(reader.info.streams[reader.streamIndex].video)
            let turned = (stream.quarterTurns ?? 0) % 2 == 1
            let aspect = stream.sampleAspectRatio ?? Rational(1)
            let shownWidth = Int((Rational(Int64(turned ? frame.height : frame.width)) * aspect).rounded)
            let shown = turned ? PixelSize(width: frame.width, height: shownWidth) : PixelSize(width: shownWidth, height: frame.height)
            #expect(shown == facts.naturalSize, "\(recipe): decoded \(frame.width)x\(frame.height) (aspect \(aspect))")
            #expect(frame.pixelFormat.hasAlpha == facts.hasAlpha)
            let duration = try #require(facts.duration)
            // The last moment of the file still shows a picture.
            _ = try reader.frame(at: duration - MediaTime(1, 1000))
        case .image, .svg:
            let still = try StillPicture(path: path)
            #expect(still.naturalSize == facts.naturalSize && still.hasAlpha == facts.hasAlpha && facts.duration == nil)
            let source = try MediaAccess.mediaIO(channels: 2, decoderThreads: 1).openVideo(MediaReference(name: "x", path: path, facts: facts))
            let size = try #require(facts.naturalSize)
            let picture = try source.rgbaFrame(at: .zero, width: size.width, height: size.height)
            #expect(picture.width == size.width && picture.height == size.height)
        case .audio:
            #expect(facts.naturalSize == nil)
        }
        if let audio = facts.audio {
            let reader = try AudioReader(path: path, sampleRate: 48000, channels: 2)
            let native = try #require(reader.info.streams[reader.streamIndex].audio)
            #expect(native.sampleRate == audio.sampleRate && native.channels == audio.channels && native.channelLayout == audio.layout)
            #expect(try reader.read(range: TimeRange(start: .zero, duration: MediaTime(1, 10))).count == 4800 * 2)
        }
    }

    @Test func theKindComesFromTheStreamsNotTheName() throws {
        let ogg = try MediaRecipe.all.first { $0.name == "theora-vorbis.ogg" }!.make()
        let mkv = try MediaRecipe.all.first { $0.name == "audio-only.mkv" }!.make()
        #expect(try MediaFactsReader().facts(forFileAt: ogg).kind == .video)
        #expect(try MediaFactsReader().facts(forFileAt: mkv).kind == .audio)
        // An image sequence is a video: ten PNGs at image2's 25 fps.
        let sequence = try MediaFactsReader().facts(forFileAt: try MediaRecipe.all.first { $0.name == "sequence-%03d.png" }!.make())
        #expect(sequence.kind == .video && sequence.duration == MediaTime(2, 5) && sequence.naturalSize == PixelSize(width: 160, height: 120))
        // A PNG named .mp4 is still a picture.
        let png = try MediaRecipe.probed.first { $0.name == "alpha.png" }!.make()
        let misnamed = MediaFactory.path("facts-misnamed-png.mp4")
        try? FileManager.default.removeItem(atPath: misnamed)
        try FileManager.default.copyItem(atPath: png, toPath: misnamed)
        let facts = try MediaFactsReader().facts(forFileAt: misnamed)
        #expect(facts.kind == .image && facts.hasAlpha && facts.naturalSize == PixelSize(width: 64, height: 48))
    }

    @Test func aFileReplacedAfterItsFactsWereReadIsNotRendered() throws {
        let path = MediaFactory.path("facts-replaced.mp4")
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: try MediaBridgeTests.bars(), toPath: path)
        let bars = try MediaReference.probed("bars", path)
        let graph = EndToEnd.sequence([EndToEnd.Clip(media: bars, source: TimeRange(start: .zero, duration: seconds(1)),
                                                     target: TimeRange(start: .zero, duration: seconds(1)))],
                                      size: PixelSize(width: 320, height: 180), lossless: false)
        // Other bytes under the same name, as when footage is re-exported after a check.
        try FileManager.default.removeItem(atPath: path)
        try MediaFactory.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=2", path])
        let out = MediaFactory.path("facts-replaced-out.mp4")
        #expect(throws: RenderError.changedSinceChecked(path, name: "bars")) {
            try ExportSession(graph: graph, options: ExportOptions(outputPath: out)).run()
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
