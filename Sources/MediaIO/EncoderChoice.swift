import MediaFormat
internal import CFFmpeg

/// Which FFmpeg encoder and muxer each setting means.
extension Container {
    var muxerName: String {
        switch self {
        case .mp4: "mp4"
        case .mov: "mov"
        case .mkv: "matroska"
        case .webm: "webm"
        case .m4a: "ipod"
        case .mp3: "mp3"
        case .wav: "wav"
        case .flac: "flac"
        case .ogg: "ogg"
        case .opus: "opus"
        case .gif: "gif"
        case .apng: "apng"
        // Sequences: the muxer that checks the codecs; Reel writes each packet as its own file.
        case .png, .jpg: "image2"
        }
    }
}

extension VideoCodec {
    /// Encoder names in order of preference; the first this build has is used.
    var encoderNames: [String] {
        switch self {
        case .h264: ["libx264"]
        case .h265: ["libx265"]
        case .vp9: ["libvpx-vp9"]
        case .av1: ["libaom-av1", "libsvtav1"]
        case .prores: ["prores_ks"]
        case .gif: ["gif"]
        case .apng: ["apng"]
        case .png: ["png"]
        case .jpeg: ["mjpeg"]
        }
    }
}

extension AudioCodec {
    var encoderNames: [String] {
        switch self {
        case .aac: ["aac"]
        case .opus: ["libopus"]
        case .mp3: ["libmp3lame"]
        case .flac: ["flac"]
        case .pcm: ["pcm_s16le"]
        }
    }
}

/// The first encoder of `names` this build has, checked to fit in `container` (`format`);
/// `setting` names it in messages (`h264 video`).
func chooseEncoder(_ names: [String], for setting: String, container: Container, format: UnsafePointer<AVOutputFormat>,
                   path: String) throws -> UnsafePointer<AVCodec> {
    guard let codec = names.lazy.compactMap({ avcodec_find_encoder_by_name($0) }).first else {
        throw MediaError(.unsupportedSettings, path: path,
                         "this FFmpeg build has no \(names.joined(separator: " or ")) encoder, needed for \(setting)")
    }
    // 0: it cannot; a negative answer means the muxer does not say (Ogg, MP3), and writing
    // the header decides.
    guard avformat_query_codec(format, codec.pointee.id, FF_COMPLIANCE_NORMAL) != 0 else {
        throw MediaError(.unsupportedSettings, path: path, "a \(container.rawValue) file cannot hold \(setting)")
    }
    return codec
}

/// Sets an encoder's private option, with a clear error when the value is refused.
func setOption(_ context: CodecContext, _ key: String, _ value: String, _ site: FFmpegCallSite) throws {
    try FFmpeg.check(av_opt_set(context.pointer.pointee.priv_data, key, value, 0), "av_opt_set(\(key)=\(value))", site,
                     .unsupportedSettings, "the encoder refuses \(key) = \(value)")
}
