internal import CFFmpeg

/// What FFmpeg may open when Reel reads a media file: the file itself, through the `file`
/// protocol only, with any demuxer but those of playlists and compositions that name other files
/// (HLS, DASH, concat, IMF). A media file Reel reads is the only file it reads for it: its
/// bytes key the segment cache, a render may not overwrite it, and a service keeps projects to
/// their media roots; a playlist would read files none of these rules see.
enum ReadableFormats {
    /// Demuxers that open other files or URLs named inside the file.
    static let referencing: Set<String> = ["hls", "applehttp", "dash", "concat", "imf"]

    /// `format_whitelist`: every demuxer of this FFmpeg but the referencing ones.
    static let demuxers: String = {
        var names: [String] = []
        var state: UnsafeMutableRawPointer?
        while let format = av_demuxer_iterate(&state) {
            let name = String(cString: format.pointee.name)
            if name.split(separator: ",").allSatisfy({ !referencing.contains(String($0)) }) { names.append(name) }
        }
        return names.joined(separator: ",")
    }()

    /// Sets the options that hold `avformat_open_input` to these rules.
    static func restrict(_ options: inout OpaquePointer?) {
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        av_dict_set(&options, "format_whitelist", demuxers, 0)
    }
}
