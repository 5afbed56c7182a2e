import Foundation

/// One kind of media file the tests read, and how the ffmpeg CLI makes it: the formats,
/// codecs and oddities real projects bring (B-frames, anamorphic and interlaced, 10-bit,
/// rotation, odd sizes, variable frame rate, 44.1 kHz and 5.1 sound, cover art, stills).
public struct MediaRecipe: CustomStringConvertible, Sendable {
    public let name: String
    public let arguments: [String]
    public var description: String { name }

    public static let video = ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=30000/1001:d=1"]
    public static let tone = ["-f", "lavfi", "-i", "sine=f=440:r=44100:d=1"]

    /// The files `MediaIOTests` checks field by field against ffprobe.
    public static let probed: [MediaRecipe] = [
        MediaRecipe(name: "h264-aac.mp4", arguments: video + tone + ["-c:v", "libx264", "-bf", "2", "-c:a", "aac", "-metadata", "title=Probe me",
                                                                   "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709"]),
        MediaRecipe(name: "anamorphic-interlaced.mkv", arguments: video + ["-vf", "setsar=4/3", "-c:v", "libx264", "-flags", "+ildct+ilme",
                                                                         "-x264opts", "tff=1", "-field_order", "tt", "-color_range", "pc"]),
        MediaRecipe(name: "hevc-10bit.mp4", arguments: video + ["-c:v", "libx265", "-pix_fmt", "yuv420p10le", "-x265-params", "log-level=error"]),
        MediaRecipe(name: "vp9-opus.webm", arguments: video + tone + ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-c:a", "libopus"]),
        MediaRecipe(name: "mpeg2-mp2.ts", arguments: video + tone + ["-c:v", "mpeg2video", "-c:a", "mp2"]),
        MediaRecipe(name: "prores-pcm.mov", arguments: video + tone + ["-c:v", "prores_ks", "-c:a", "pcm_s24le"]),
        MediaRecipe(name: "surround.wav", arguments: ["-f", "lavfi", "-i", "aevalsrc=exprs=0|0|0|0|0|0:c=5.1(side):s=48000:d=1"]),
        MediaRecipe(name: "tone.mp3", arguments: tone + ["-c:a", "libmp3lame", "-metadata", "artist=Reel"]),
        MediaRecipe(name: "alpha.png", arguments: ["-f", "lavfi", "-i", "color=c=red@0.5:s=64x48,format=rgba", "-frames:v", "1"]),
        MediaRecipe(name: "photo.jpg", arguments: ["-f", "lavfi", "-i", "testsrc2=s=64x48", "-frames:v", "1"]),
        MediaRecipe(name: "picture.webp", arguments: ["-f", "lavfi", "-i", "testsrc2=s=64x48", "-frames:v", "1", "-c:v", "libwebp"]),
    ]

    /// `probed` and the rest of what projects bring (an image sequence is named by its pattern).
    public static let all: [MediaRecipe] = probed + [
        MediaRecipe(name: "rotated-90.mp4", arguments: video + ["-c:v", "libx264", "-metadata:s:v:0", "rotate=90"]),
        MediaRecipe(name: "odd-853x479-444.mkv", arguments: ["-f", "lavfi", "-i", "testsrc2=s=853x479:r=25:d=1", "-c:v", "libx264",
                                                            "-pix_fmt", "yuv444p"]),
        MediaRecipe(name: "variable-rate.mkv", arguments: ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=30:d=1",
                                                          "-vf", "setpts='N/30/TB+if(gte(N,10),N/60/TB,0)'", "-fps_mode", "passthrough",
                                                          "-c:v", "libx264"]),
        MediaRecipe(name: "theora-vorbis.ogg", arguments: video + tone + ["-c:v", "libtheora", "-c:a", "libvorbis"]),
        MediaRecipe(name: "audio-only.mkv", arguments: tone + ["-c:a", "flac"]),
        MediaRecipe(name: "one-pixel.mp4", arguments: ["-f", "lavfi", "-i", "color=c=white:s=2x2:r=25:d=1", "-vf", "scale=1:1",
                                                      "-c:v", "libx264", "-pix_fmt", "yuv444p"]),
        MediaRecipe(name: "photo-800x600.jpg", arguments: ["-f", "lavfi", "-i", "testsrc2=s=800x600", "-frames:v", "1"]),
        MediaRecipe(name: "sequence-%03d.png", arguments: ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=0.4"]),
        MediaRecipe(name: "photo-1280x720.webp", arguments: ["-f", "lavfi", "-i", "testsrc2=s=1280x720", "-frames:v", "1", "-c:v", "libwebp"]),
    ]

    /// The file, made once per test process.
    public func make() throws -> String { try MediaFactory.file("probe-" + name, arguments) }
}
