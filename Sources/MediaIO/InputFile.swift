internal import CFFmpeg
import Foundation
import MediaTime

/// An opened media file (`AVFormatContext` for reading, stream info found); closed exactly once.
final class InputFile {
    let path: String
    let context: UnsafeMutablePointer<AVFormatContext>
    /// A sequence of numbered pictures (`shot%04d.png`) read as one video.
    let isImageSequence: Bool

    /// Opens `path`, saying precisely why when it is missing, a folder, empty or not media.
    /// An image sequence (`shot%04d.png`) is read at `sequenceRate` (nil: 25 fps); other
    /// files ignore it.
    init(path: String, sequenceRate: Rational? = nil) throws {
        self.path = path
        let site = FFmpegCallSite(path: path)
        // An image sequence's files are checked as FFmpeg's image2 demuxer opens them; its first
        // file stands for the sequence in the checks made before.
        let sequence = try ImageSequenceInput(path: path, rate: sequenceRate)
        let first = sequence?.firstFile ?? path
        isImageSequence = sequence != nil
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: first, isDirectory: &isDirectory) else {
            throw MediaError(.fileNotFound, path: path, "no such file")
        }
        guard !isDirectory.boolValue else { throw MediaError(.notAFile, path: path, "is a folder, not a media file") }
        let size = (try? FileManager.default.attributesOfItem(atPath: first)[.size] as? NSNumber)?.int64Value
        guard size != 0 else { throw MediaError(.emptyFile, path: path, "is empty (0 bytes)") }

        try DecodeLimits.checkHeader(path: first)
        FFmpeg.clearLog()
        var pointer: UnsafeMutablePointer<AVFormatContext>? = nil
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        for option in sequence?.demuxerOptions ?? [] { av_dict_set(&options, option.key, option.value, 0) }
        ReadableFormats.restrict(&options)
        let status = avformat_open_input(&pointer, path, nil, &options)
        if status < 0, FFmpeg.lastLog.contains("moov atom not found"), Self.startsWithFileTypeBox(path) {
            throw FFmpeg.error(status, "avformat_open_input", site, .truncated,
                               "has no index (moov atom): the MP4/MOV file is incomplete, probably cut short while being written or copied")
        }
        if status < 0, FFmpeg.lastLog.contains("not on whitelist") {
            throw MediaError(.notMedia, path: path, "names other files to read (an HLS or DASH playlist, a concat list or an IMF composition); "
                             + "Reel reads media files themselves: give one of the files it names", call: "avformat_open_input")
        }
        try FFmpeg.check(status, "avformat_open_input", site, .notMedia, "is not a media file FFmpeg can read")
        guard let pointer else { throw MediaError(.outOfMemory, path: path, "out of memory", call: "avformat_open_input") }
        context = pointer
        try FFmpeg.check(DecodeLimits.findStreamInfo(context), "avformat_find_stream_info", site, .notMedia,
                         "its streams cannot be read")
        try DecodeLimits.check(self)
        guard context.pointee.nb_streams > 0 else {
            throw MediaError(.notMedia, path: path, Self.startsWithFileTypeBox(path)
                             ? "contains no audio, video or image stream: its MP4/MOV index (moov atom) is damaged"
                             : "contains no audio, video or image stream")
        }
    }

    /// A real MP4/MOV starts with an `ftyp` box; random bytes that merely fail as MP4 do not.
    private static func startsWithFileTypeBox(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 8)) ?? Data()
        return head.count == 8 && head.suffix(4) == Data("ftyp".utf8)
    }

    deinit {
        var p: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&p)
    }

    var streamCount: Int { Int(context.pointee.nb_streams) }

    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream> { context.pointee.streams[index]! }

    /// The best stream of a kind (FFmpeg's choice among several), or nil.
    func bestStream(_ type: AVMediaType) -> Int? {
        let index = av_find_best_stream(context, type, -1, -1, nil, 0)
        return index >= 0 ? Int(index) : nil
    }

    /// Where presentation time zero is, in microseconds (`AV_TIME_BASE`): the container's start
    /// time, so every stream of the file keeps its offset against the others.
    var startMicroseconds: Int64 {
        let s = context.pointee.start_time
        return s == FFmpeg.noPTS ? 0 : s
    }

    /// Goes back to the first packet: by timestamp, except for formats with timestamp
    /// discontinuities (MPEG-TS/PS), where a timestamp seek to the start lands on a later
    /// keyframe: those go back to their first byte.
    func rewind() throws {
        let site = FFmpegCallSite(path: path)
        if (context.pointee.iformat.pointee.flags & AVFMT_TS_DISCONT) != 0, context.pointee.pb != nil {
            try FFmpeg.check(avformat_seek_file(context, -1, 0, 0, 0, AVSEEK_FLAG_BYTE), "avformat_seek_file", site,
                             .notMedia, "cannot return to the file's start")
        } else {
            try FFmpeg.check(avformat_seek_file(context, -1, Int64.min, startMicroseconds, startMicroseconds, 0),
                             "avformat_seek_file", site, .notMedia, "cannot return to the file's start")
        }
    }

    /// Reads the next packet; false at the end of the file. A packet the demuxer marks corrupt
    /// (the data ends before the index says, or is damaged) is an error, except in MPEG-TS/PS,
    /// where recordings routinely start or end mid-packet.
    func read(into packet: Packet) throws -> Bool {
        let status = av_read_frame(context, packet.pointer)
        if status == FFmpeg.eof { return false }
        try FFmpeg.check(status, "av_read_frame", FFmpegCallSite(path: path), .truncated, "cannot read the file's data")
        let p = packet.pointer.pointee
        if (p.flags & AV_PKT_FLAG_CORRUPT) != 0, (context.pointee.iformat.pointee.flags & AVFMT_TS_DISCONT) == 0 {
            let stream = stream(Int(p.stream_index)).pointee
            let time = p.pts == FFmpeg.noPTS ? nil : MediaTime(ticks: p.pts, timeBase: stream.time_base)
            packet.unref()
            throw MediaError(.truncated, path: path, "the data ends early or is damaged (the file is probably cut short)",
                             stream: Int(p.stream_index), time: time)
        }
        return true
    }
}
