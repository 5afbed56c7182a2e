/// The vocabulary of output files that the project format and the writer share: containers
/// and codecs, the one rule that tells a container from a file name, and what each container
/// holds and takes when no codec is given.

/// A container format Reel writes.
public enum Container: String, Hashable, Sendable, Codable, CaseIterable {
    case mp4, mov, mkv, webm
    /// Audio only: MPEG-4 audio, MP3, WAVE, FLAC, Ogg, Ogg Opus.
    case m4a, mp3, wav, flac, ogg, opus
    /// Pictures only (no audio): an animated GIF, an animated PNG, and image sequences of PNG or
    /// JPEG files (one file a frame, named by a pattern: `frames/%04d.png`).
    case gif, apng, png, jpg

    /// The container an output file's extension names (`mp4`/`m4v`, `mov`, `mkv`, `webm`, `m4a`,
    /// `mp3`, `wav`, `flac`, `ogg`, `opus`, `gif`, `apng`, `png`, `jpg`/`jpeg`; any case), if any.
    public init?(fileExtension: String) {
        let ext = fileExtension.lowercased()
        switch ext {
        case "m4v": self = .mp4
        case "jpeg": self = .jpg
        default:
            guard let container = Container(rawValue: ext) else { return nil }
            self = container
        }
    }

    /// The extensions `init(fileExtension:)` knows, for messages.
    public static let fileExtensions = ["mp4", "m4v", "mov", "mkv", "webm", "m4a", "mp3", "wav", "flac", "ogg", "opus",
                                        "gif", "apng", "png", "jpg"]

    /// The media type (MIME) of a file in this container, as an HTTP server names it; an image
    /// sequence's is its frames'.
    public var mediaType: String {
        switch self {
        case .mp4: "video/mp4"
        case .mov: "video/quicktime"
        case .mkv: "video/x-matroska"
        case .webm: "video/webm"
        case .m4a: "audio/mp4"
        case .mp3: "audio/mpeg"
        case .wav: "audio/wav"
        case .flac: "audio/flac"
        case .ogg, .opus: "audio/ogg"
        case .gif: "image/gif"
        case .apng: "image/apng"
        case .png: "image/png"
        case .jpg: "image/jpeg"
        }
    }

    /// The video codecs Reel writes into this container, the default first; empty for an
    /// audio-only container.
    public var videoCodecs: [VideoCodec] {
        switch self {
        case .mp4: [.h264, .h265, .vp9, .av1]
        case .mov: [.h264, .h265, .prores]
        // Not AV1 in Matroska or WebM: FFmpeg 5.1's Matroska muxer refuses the packets
        // (AVERROR_INVALIDDATA), so it is refused here, before the first frame.
        case .mkv: [.h264, .h265, .vp9, .prores]
        case .webm: [.vp9]
        case .m4a, .mp3, .wav, .flac, .ogg, .opus: []
        case .gif: [.gif]
        case .apng: [.apng]
        case .png: [.png]
        case .jpg: [.jpeg]
        }
    }

    /// The audio codecs Reel writes into this container, the default first.
    public var audioCodecs: [AudioCodec] {
        switch self {
        case .mp4: [.aac, .opus, .mp3, .flac]
        case .mov: [.aac, .mp3, .pcm]
        // Opus first: FFmpeg marks its priming in Matroska (CodecDelay), not AAC's.
        case .mkv: [.opus, .aac, .mp3, .flac, .pcm]
        case .webm: [.opus]
        case .m4a: [.aac]
        case .mp3: [.mp3]
        case .wav: [.pcm]
        case .flac: [.flac]
        case .ogg: [.opus, .flac]
        case .opus: [.opus]
        case .gif, .apng, .png, .jpg: []
        }
    }

    /// The video codecs whose pictures keep an alpha channel in this container, the default
    /// first: what an output with a transparent background may use. MP4 has none (it drops
    /// VP9's alpha, which Matroska stores beside each frame), nor have GIF (one transparent
    /// palette entry, which Reel uses for unchanged pixels) and JPEG.
    public var alphaVideoCodecs: [VideoCodec] {
        switch self {
        case .mov: [.prores]
        case .mkv: [.vp9, .prores]
        case .webm: [.vp9]
        case .png: [.png]
        case .apng: [.apng]
        case .mp4, .m4a, .mp3, .wav, .flac, .ogg, .opus, .gif, .jpg: []
        }
    }

    /// The outputs that keep an alpha channel, for messages.
    public static let alphaOutputs = ".mov (ProRes 4444), .webm or .mkv (VP9), a .png sequence (frames/%04d.png) or .apng"

    /// Whether the container can hold a video stream (else every output in it is audio only).
    public var holdsVideo: Bool { !videoCodecs.isEmpty }

    /// Pictures without sound (GIF, APNG, image sequences): the project's audio is not written.
    public var holdsPicturesOnly: Bool { holdsVideo && audioCodecs.isEmpty }

    /// One file a frame, named by the output path's pattern (`%04d`): PNG and JPEG.
    public var isImageSequence: Bool { self == .png || self == .jpg }
}

/// A video codec Reel encodes.
public enum VideoCodec: String, Hashable, Sendable, Codable, CaseIterable {
    case h264, h265, vp9, av1, prores
    /// The picture formats' codecs (lossless but GIF's palette and JPEG).
    case gif, apng, png, jpeg

    /// The quality when neither a crf nor a bit rate is given; nil: the codec has none (ProRes
    /// takes a profile; the picture codecs have their own rules).
    public var defaultCRF: Int? {
        switch self {
        case .h264: 23
        case .h265: 28
        case .vp9: 32
        case .av1: 35
        case .prores, .gif, .apng, .png, .jpeg: nil
        }
    }

    /// The pixel format that keeps an alpha channel (straight, not premultiplied), for an
    /// output with a transparent background; nil for a codec that has none.
    public var alphaPixelFormat: String? {
        switch self {
        case .prores: "yuva444p10le"
        case .vp9: "yuva420p"
        case .png, .apng: "rgba"
        case .h264, .h265, .av1, .gif, .jpeg: nil
        }
    }

    /// What `output.video.preset` may name for the codec, as its encoder names them: x264's and
    /// x265's speed presets, libvpx's deadlines, SVT-AV1's presets from 0 (slowest) to 13
    /// (libaom's `cpu-used` takes 0 to 8), ProRes's profiles; the picture codecs take none.
    public var presets: [String] {
        switch self {
        case .h264, .h265: ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]
        case .vp9: ["realtime", "good", "best"]
        case .av1: (0...13).map(String.init)
        case .prores: ["proxy", "lt", "standard", "hq", "4444", "4444xq"]
        case .gif, .apng, .png, .jpeg: []
        }
    }

    /// The ProRes profiles (`video.preset`) that hold an alpha channel; 4444 is the default with one.
    public static let proResAlphaProfiles = ["4444", "4444xq"]

    /// The pixel format when none is given. GIF's frames are made RGB, then given Reel's own
    /// palette; JPEG's are full-range Y′CbCr.
    public var defaultPixelFormat: String {
        switch self {
        case .prores: "yuv422p10le"
        case .gif, .apng, .png: "rgb24"
        case .h264, .h265, .vp9, .av1, .jpeg: "yuv420p"
        }
    }
}

/// An audio codec Reel encodes.
public enum AudioCodec: String, Hashable, Sendable, Codable, CaseIterable {
    case aac, opus, mp3, flac, pcm

    /// Bits per second when none is given; nil for the lossless codecs.
    public var defaultBitrate: Int? {
        switch self {
        case .aac, .mp3: 192_000
        case .opus: 128_000
        case .flac, .pcm: nil
        }
    }
}
