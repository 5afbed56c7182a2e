internal import CFFmpeg
import MediaTime

/// The one error MediaIO throws: what went wrong, with which file (and stream and time where
/// known), the FFmpeg call and FFmpeg's own message, and what to do about it.
public struct MediaError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        case fileNotFound, notAFile, emptyFile, notMedia, truncated
        case noVideoStream, noAudioStream, unsupportedCodec
        case decodingFailed, encodingFailed, writingFailed
        case unsupportedSettings, invalidArgument, outOfMemory
        /// A picture beyond `DecodeLimits` (refused before it is decoded).
        case tooLarge
    }

    public var kind: Kind
    /// The media file concerned.
    public var path: String
    /// What is wrong, in words.
    public var message: String
    public var stream: Int?
    public var time: MediaTime?
    /// The FFmpeg function that failed, e.g. `avformat_open_input`.
    public var call: String?
    /// FFmpeg's message: its last logged error line, else `av_strerror` of the status.
    public var ffmpegMessage: String?
    public var ffmpegStatus: Int32?

    public init(_ kind: Kind, path: String, _ message: String, stream: Int? = nil, time: MediaTime? = nil,
                call: String? = nil, ffmpegMessage: String? = nil, ffmpegStatus: Int32? = nil) {
        self.kind = kind
        self.path = path
        self.message = message
        self.stream = stream
        self.time = time
        self.call = call
        self.ffmpegMessage = ffmpegMessage
        self.ffmpegStatus = ffmpegStatus
    }

    /// `clip.mp4 (stream 0, at 1001/30000 s = 00:00:00.033): cannot decode video: … (FFmpeg
    /// avcodec_send_packet: Invalid data found when processing input). Check that …`
    public var description: String {
        var place = path
        var details: [String] = []
        if let stream { details.append("stream \(stream)") }
        if let time { details.append("at \(time) s = \(TimeNotation.clock(time))") }
        if !details.isEmpty { place += " (" + details.joined(separator: ", ") + ")" }
        var text = "\(place): \(message)"
        if let call {
            text += " (FFmpeg \(call)" + (ffmpegMessage.map { ": \($0)" } ?? "") + ")"
        }
        if let advice { text += ". " + advice }
        return text
    }

    /// What to do, for the kinds where there is something to say.
    var advice: String? {
        switch kind {
        case .fileNotFound: "Check the path (relative paths are resolved against the project file's folder)."
        case .notAFile: "Give the path of a media file, not a folder or device."
        case .emptyFile, .truncated: "The file is incomplete; copy or export it again."
        case .notMedia: "Use a video, audio or image file that ffprobe can read."
        case .noVideoStream: "Use this file as audio only, or pick a file with video."
        case .noAudioStream: "Turn the clip's audio off, or pick a file with sound."
        case .unsupportedCodec: "Transcode the file to a common codec (H.264, HEVC, VP9, AAC, …) first."
        case .unsupportedSettings: "Choose a codec the container can hold and this FFmpeg build provides (`ffmpeg -encoders`)."
        case .tooLarge: "Scale the picture down (e.g. `ffmpeg -i in.png -vf scale=4096:-1 out.png`) first."
        case .decodingFailed, .encodingFailed, .writingFailed, .invalidArgument, .outOfMemory: nil
        }
    }
}

/// Where an FFmpeg call happens, so that a failure can say so.
struct FFmpegCallSite {
    var path: String
    var stream: Int?
    var time: MediaTime?
}

enum FFmpeg {
    static let eagain = reel_averror_eagain()
    static let eof = reel_averror_eof()
    static let noPTS = reel_av_nopts_value()

    /// `av_strerror` for a status code.
    static func message(for status: Int32) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
            reel_av_strerror(status, buffer.baseAddress, buffer.count)
            return String(cString: buffer.baseAddress!)
        }
    }

    /// The one place a C status becomes an error: returns a non-negative status, throws a
    /// `MediaError` carrying the call, FFmpeg's message and the place for a negative one.
    @discardableResult
    static func check(_ status: Int32, _ call: String, _ site: FFmpegCallSite, _ kind: MediaError.Kind,
                      _ message: @autoclosure () -> String) throws -> Int32 {
        guard status < 0 else { return status }
        throw error(status, call, site, kind, message())
    }

    static func error(_ status: Int32, _ call: String, _ site: FFmpegCallSite, _ kind: MediaError.Kind,
                      _ message: String) -> MediaError {
        let logged = lastLog
        clearLog()
        let generic = Self.message(for: status)
        let ffmpegMessage = logged.isEmpty || logged == generic ? generic : "\(logged); \(generic)"
        let resolvedKind: MediaError.Kind = status == reel_averror_enomem() ? .outOfMemory : kind
        return MediaError(resolvedKind, path: site.path, message, stream: site.stream, time: site.time,
                          call: call, ffmpegMessage: ffmpegMessage, ffmpegStatus: status)
    }

    /// Checks a pointer an allocator returned.
    static func allocated<T>(_ pointer: T?, _ call: String, _ site: FFmpegCallSite) throws -> T {
        guard let pointer else {
            throw MediaError(.outOfMemory, path: site.path, "out of memory", stream: site.stream, call: call)
        }
        return pointer
    }

    /// FFmpeg's last error-level log line on this thread. The shim's `static inline` functions
    /// are emitted once per Swift file that calls them, each with its own buffer, so every use
    /// of the log buffer stays in this file: `@inline(never)`, or a release build (-O) inlines
    /// the call into the caller's file, whose copy of the buffer the callback never writes (the
    /// release reel then said "is not a media file" for an MP4 cut short, not "has no index").
    @inline(never) static var lastLog: String { String(cString: reel_last_log()) }

    /// Routes FFmpeg's log into the per-thread "last error line" instead of stderr (part of
    /// `setUp`; installed here because the buffer the callback writes is this file's own copy).
    static let installLogCallback: Void = reel_install_log_callback()

    /// Clears the last logged line before a call whose failure should report only its own log.
    @inline(never) static func clearLog() { _ = setUp; reel_clear_last_log() }
}
