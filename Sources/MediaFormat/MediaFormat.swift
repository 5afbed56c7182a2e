/// The vocabulary of output files that the project format and the writer share: containers
/// and codecs, and the one rule that tells a container from a file name.

/// A container format Reel writes.
public enum Container: String, Hashable, Sendable, Codable, CaseIterable {
    case mp4, mov, mkv, webm

    /// The container an output file's extension names (`mp4`/`m4v`, `mov`, `mkv`, `webm`;
    /// any case), if any.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "mp4", "m4v": self = .mp4
        case "mov": self = .mov
        case "mkv": self = .mkv
        case "webm": self = .webm
        default: return nil
        }
    }

    /// The extensions `init(fileExtension:)` knows, for messages.
    public static let fileExtensions = ["mp4", "m4v", "mov", "mkv", "webm"]
}

/// A video codec Reel encodes.
public enum VideoCodec: String, Hashable, Sendable, Codable, CaseIterable { case h264, h265, vp9, av1, prores }

/// An audio codec Reel encodes.
public enum AudioCodec: String, Hashable, Sendable, Codable, CaseIterable { case aac, opus, mp3, flac, pcm }
