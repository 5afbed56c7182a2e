internal import CFFmpeg
import Foundation
import MediaTime

/// Enforces `PictureLimits` (MediaTime) where FFmpeg decodes. A small file can declare a huge
/// picture (a PNG of 30000 x 30000 pixels compresses to 110 KB and would decode to 3.6 GB of
/// RGBA): such a file is refused when it is opened, with the limit named, before its picture
/// is allocated. Image headers (PNG, JPEG, WebP, GIF, BMP) are read before FFmpeg sees the
/// file; FFmpeg's decoders get the pixel cap as `max_pixels`, so probing (which decodes a
/// still's first frame) and decoding stop at the header of anything else; the side cap is
/// checked on the stream's parameters.
public enum DecodeLimits {
    public static var maxSide: Int { PictureLimits.maxSide }
    public static var maxPixels: Int { PictureLimits.maxPixels }

    /// The problem with a picture of this size, or nil when it is within the caps.
    public static func problem(width: Int, height: Int) -> String? { PictureLimits.problem(width: width, height: height) }

    /// Sets the pixel cap on a decoder before it is opened.
    static func apply(to context: UnsafeMutablePointer<AVCodecContext>) {
        context.pointee.max_pixels = Int64(maxPixels)
    }

    /// Runs `avformat_find_stream_info` with the pixel cap on every stream's decoder.
    static func findStreamInfo(_ context: UnsafeMutablePointer<AVFormatContext>) -> Int32 {
        let count = Int(context.pointee.nb_streams)
        guard count > 0 else { return avformat_find_stream_info(context, nil) }
        var options = [OpaquePointer?](repeating: nil, count: count)
        for i in 0..<count { av_dict_set(&options[i], "max_pixels", String(maxPixels), 0) }
        defer { for i in 0..<count { av_dict_free(&options[i]) } }
        return avformat_find_stream_info(context, &options)
    }

    /// Refuses an image file whose header declares a picture beyond the caps, before FFmpeg
    /// reads it (PNG, JPEG, WebP, GIF and BMP headers are read here).
    static func checkHeader(path: String) throws {
        guard let (width, height) = declaredImageSize(path: path), let problem = problem(width: width, height: height) else { return }
        throw MediaError(.tooLarge, path: path, problem, stream: 0)
    }

    /// Refuses a file whose main picture is beyond the caps, as its stream declares it; a
    /// picture the decoder refused to size (over `max_pixels`) is refused too.
    /// A main picture of no size is refused too: FFmpeg could not decode even its first frame
    /// (a text file named `.png` opens as a PNG stream of 0x0, and drawing it divided by zero).
    /// Cover art is not a main picture.
    static func check(_ file: InputFile) throws {
        guard let index = file.bestStream(AVMEDIA_TYPE_VIDEO),
              (file.stream(index).pointee.disposition & AV_DISPOSITION_ATTACHED_PIC) == 0 else { return }
        let parameters = file.stream(index).pointee.codecpar.pointee
        let width = Int(parameters.width), height = Int(parameters.height)
        if let problem = problem(width: width, height: height) {
            throw MediaError(.tooLarge, path: file.path, problem, stream: index)
        }
        guard width <= 0 || height <= 0 else { return }
        let log = FFmpeg.lastLog
        if log.contains("max pixel") || log.contains("Picture size") || log.contains("Invalid image size") {
            throw MediaError(.tooLarge, path: file.path,
                             "its picture is larger than Reel decodes (at most \(maxSide) pixels a side and \(maxPixels) pixels in all)",
                             stream: index, ffmpegMessage: log)
        }
        let codec = String(cString: avcodec_get_name(parameters.codec_id))
        let detail = log.isEmpty ? "it has no size" : "FFmpeg: " + log.trimmingCharacters(in: .whitespacesAndNewlines)
        throw MediaError(.notMedia, path: file.path, "its \(codec) picture cannot be decoded (\(detail))", stream: index)
    }

    /// The picture size an image file's header declares; nil for other files or when the
    /// header is not where it should be.
    static func declaredImageSize(path: String) -> (Int, Int)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 256 * 1024) else { return nil }
        let b = [UInt8](data)
        func be16(_ i: Int) -> Int { i + 1 < b.count ? Int(b[i]) << 8 | Int(b[i + 1]) : 0 }
        func be32(_ i: Int) -> Int { i + 3 < b.count ? be16(i) << 16 | be16(i + 2) : 0 }
        func le16(_ i: Int) -> Int { i + 1 < b.count ? Int(b[i + 1]) << 8 | Int(b[i]) : 0 }
        func le24(_ i: Int) -> Int { i + 2 < b.count ? Int(b[i + 2]) << 16 | le16(i) : 0 }
        func le32(_ i: Int) -> Int { i + 3 < b.count ? le16(i + 2) << 16 | le16(i) : 0 }
        func ascii(_ i: Int, _ text: String) -> Bool { b.count >= i + text.utf8.count && Array(b[i..<(i + text.utf8.count)]) == Array(text.utf8) }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), ascii(12, "IHDR") { return (be32(16), be32(20)) }
        if ascii(0, "GIF8") { return (le16(6), le16(8)) }
        if ascii(0, "BM"), b.count >= 26 { return (le32(18), abs(Int(Int32(truncatingIfNeeded: le32(22))))) }
        if ascii(0, "RIFF"), ascii(8, "WEBP") {
            if ascii(12, "VP8X") { return (1 + le24(24), 1 + le24(27)) }
            if ascii(12, "VP8L"), b.count >= 25 {
                let bits = le32(21)
                return (1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF))
            }
            if ascii(12, "VP8 ") { return (le16(26) & 0x3FFF, le16(28) & 0x3FFF) }
            return nil
        }
        if b.starts(with: [0xFF, 0xD8]) {
            // JPEG: walk the segments to the first start of frame (SOF0…SOF15 but DHT, JPG, DAC).
            var i = 2
            while i + 9 < b.count, b[i] == 0xFF {
                let marker = b[i + 1]
                if marker == 0xFF { i += 1; continue }
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return (be16(i + 7), be16(i + 5)) }
                if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
                i += 2 + be16(i + 2)
            }
        }
        return nil
    }
}

extension MediaInfo {
    /// Why the file's main picture or sound cannot be decoded by this FFmpeg build (a codec
    /// without a decoder), or nil. `reel probe` still describes such a file; `reel validate`
    /// refuses it instead of letting the render fail at its first frame.
    public var undecodableProblem: String? {
        for stream in [video, audio].compactMap({ $0 }) {
            let id = avcodec_descriptor_get_by_name(stream.codec)?.pointee.id ?? AV_CODEC_ID_NONE
            if id == AV_CODEC_ID_NONE || avcodec_find_decoder(id) == nil {
                return "its \(stream.kind.rawValue) (stream \(stream.index)) uses codec '\(stream.codec)', which this FFmpeg build cannot decode; transcode the file to a common codec (H.264, HEVC, VP9, AAC, …) first"
            }
        }
        return nil
    }
}
