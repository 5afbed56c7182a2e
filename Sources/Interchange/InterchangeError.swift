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

    public init(_ message: String, at place: Place? = nil, hint: String? = nil, category: Category = .invalidInput) {
        self.category = category
        self.place = place
        self.message = message
        self.hint = hint
    }

    public var description: String {
        (place.map { "\($0): " } ?? "") + "error: " + message + (hint.map { "\n    = hint: \($0)" } ?? "")
    }
}
