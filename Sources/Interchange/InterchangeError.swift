/// Why a file could not be imported or a project exported: what, where (an EDL line or an
/// OpenTimelineIO JSON path), and what to do.
public struct InterchangeError: Error, Sendable, CustomStringConvertible {
    public enum Category: Sendable {
        /// The file is not a timeline Reel reads (exit status 65).
        case invalidInput
        /// A named file does not exist (66).
        case missingFile
        /// An option is malformed (64).
        case usage
    }

    public var category: Category
    public var place: Place?
    public var message: String
    public var hint: String?
    /// The value the caller gave that is at fault (a front end names it as its user gave it).
    public var input: InterchangeInput?
    /// Values that, given, would settle it.
    public var remedy: [InterchangeInput]

    public init(_ message: String, at place: Place? = nil, hint: String? = nil, category: Category = .invalidInput,
                input: InterchangeInput? = nil, remedy: [InterchangeInput] = []) {
        self.category = category
        self.place = place
        self.message = message
        self.hint = hint
        self.input = input
        self.remedy = remedy
    }

    public var description: String {
        (place.map { "\($0): " } ?? "") + "error: " + message + (hint.map { "\n    = hint: \($0)" } ?? "")
    }
}

/// A value the caller gives an import or export besides the file itself. The library names it
/// in its own terms; a front end names it as its user gives it (the command line's
/// `--media NAME=PATH`, a request's field).
public enum InterchangeInput: Sendable, Hashable, CustomStringConvertible {
    /// The file given for the media named so.
    case media(String)
    /// The start timecode given for the media named so.
    case mediaStart(String)
    /// The folder media files are looked for in.
    case mediaFolder
    /// The frame rate an EDL is read at.
    case frameRate
    /// The video track an EDL export holds.
    case videoTrack

    public var description: String {
        switch self {
        case .media(let name): "the file for media '\(name)'"
        case .mediaStart(let name): "the start timecode of media '\(name)'"
        case .mediaFolder: "the folder of media files"
        case .frameRate: "the frame rate"
        case .videoTrack: "the video track"
        }
    }
}
