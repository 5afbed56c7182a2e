import CompositionGraph
import Foundation
import MediaFormat
import MediaIO
import MediaTime

/// How the picture formats (GIF, APNG, PNG and JPEG sequences) are made from a segmented
/// render. Every segment's part holds pictures coded one a packet, each on its own, so the
/// parts are the same whichever worker made them (`--jobs N`, the same bytes):
///
/// - PNG and JPEG sequences: the parts hold the files' own bytes (PNG, or JPEG at a fixed
///   quantizer); the join writes packet n as file n + 1 of the pattern (`ImageSequenceWriter`).
/// - APNG and GIF: the parts hold lossless RGB PNG pictures, and the join encodes the
///   animation from them in frame order. A GIF takes two passes over the parts: the first
///   counts the colours of every frame (`GIFColorCount`), the second maps each frame to the one
///   palette made from them (`GIFPalette`, median cut, ordered dither) for FFmpeg's GIF encoder.
///
/// None of them holds sound: the project's audio is not written.
enum PictureOutput {
    /// The settings a segment's part is encoded with: the file's own for a sequence, RGB PNG
    /// (RGBA when the file keeps alpha) for an animation the join encodes; nil for a video
    /// container.
    static func partSettings(_ settings: WriterSettings) -> WriterSettings? {
        guard settings.container.holdsPicturesOnly, var video = settings.video else { return nil }
        guard !settings.container.isImageSequence else { return settings }
        video.codec = .png
        video.pixelFormat = video.pixelFormat.hasAlpha ? .rgba : .rgb24
        return WriterSettings(container: .png, video: video, audio: nil)
    }

    /// The settings of the file the join writes: a GIF's frames are paletted (`pal8`).
    static func fileSettings(_ settings: WriterSettings) -> WriterSettings {
        var settings = settings
        if settings.container == .gif { settings.video?.pixelFormat = PixelFormat(name: "pal8")! }
        return settings
    }

    /// Writes `frames` (every output frame's packet, in order, as the parts give them; called
    /// once a pass: twice for a GIF) into `path`. Opens the output before asking for the first
    /// frame, so an output that cannot be written fails before anything is rendered.
    static func write(_ settings: WriterSettings, to path: String,
                      frames: (_ each: (EncodedPacket) throws -> Void) throws -> Void) throws {
        if settings.container.isImageSequence {
            let sequence = try opened { try ImageSequenceWriter(pattern: path) }
            do {
                var index = 0
                try frames { packet in
                    try sequence.write(packet.data, frame: index)
                    index += 1
                }
                try sequence.finish()
            } catch {
                sequence.discard()
                throw error
            }
            return
        }
        let file = fileSettings(settings)
        let writer = try opened { try MediaWriter(path: path, settings: file) }
        do {
            var palette: GIFPalette?
            if file.container == .gif {
                var count = GIFColorCount()
                try frames { packet in
                    let picture = try PictureDecoder.decodePNG(packet.data, path: path)
                    picture.withRGB { count.add(rgb: $0, width: picture.width, height: picture.height, stride: $1) }
                }
                palette = GIFPalette(count)
            }
            var lookup = GIFColorLookup()
            var index: Int64 = 0
            try frames { packet in
                let picture = try PictureDecoder.decodePNG(packet.data, path: path)
                if let palette {
                    let indices = picture.withRGB { palette.indices(rgb: $0, width: picture.width, height: picture.height, stride: $1, lookup: &lookup) }
                    try writer.append(video: try VideoFrame.paletted(width: picture.width, height: picture.height, indices: indices,
                                                                     palette: palette.colors), at: index)
                } else {
                    try writer.append(video: picture, at: index)
                }
                index += 1
            }
            try writer.finish()
        } catch {
            writer.cancel()
            throw error
        }
    }

    /// Runs `open`, turning a file that cannot be written into `RenderError.unwritable`.
    private static func opened<T>(_ open: () throws -> T) throws -> T {
        do {
            return try open()
        } catch let error as MediaError where error.kind == .writingFailed {
            throw RenderError.unwritable(path: error.path, reason: error.message)
        }
    }
}

extension CompositionGraph {
    /// The graph within its GIF limits (`output.gif`): at most that wide (every position and
    /// pixel size scaled with it) and at most that frame rate; unchanged for other outputs.
    func withinGIFLimits() -> CompositionGraph {
        guard let limits = output.gifLimits else { return self }
        var g = self
        let longest = MediaTime(limits.maxFrameRate.reciprocal)
        if g.videoComposition.frameDuration < longest { g.videoComposition.frameDuration = longest }
        let size = videoComposition.renderSize
        guard size.width > limits.maxWidth else { return g }
        let width = limits.maxWidth - limits.maxWidth % 2
        let height = max(2, 2 * Int((Double(size.height) * Double(width) / Double(size.width) / 2).rounded()))
        return g.resized(to: PixelSize(width: width, height: height))
    }
}

private extension VideoFrame {
    /// Plane 0 of a packed RGB24 picture and its bytes a row.
    func withRGB<R>(_ body: (UnsafeRawBufferPointer, Int) throws -> R) rethrows -> R {
        precondition(pixelFormat == .rgb24, "the parts of a GIF hold RGB24 pictures, not \(pixelFormat)")
        return try withPlanes { planes in
            try body(UnsafeRawBufferPointer(start: planes[0].baseAddress, count: planes[0].bytesPerRow * height), planes[0].bytesPerRow)
        }
    }
}
