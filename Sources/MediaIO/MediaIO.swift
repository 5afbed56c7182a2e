internal import CFFmpeg

/// The FFmpeg library version this build links, e.g. `59.27.100` (libavformat).
public var ffmpegVersion: String {
    let v = avformat_version()
    return "\(v >> 16).\((v >> 8) & 0xff).\(v & 0xff)"
}
