import MediaTime
import ProjectFile

/// One cue of a caption track: when it shows, its text and, when the file times its words,
/// the time of each word.
public struct Cue: Sendable {
    /// Timeline times; the cue shows during `start ..< end`.
    public var start: MediaTime
    public var end: MediaTime
    /// The cue's lines joined by "\n" (the author's line breaks), markup removed.
    public var text: String
    /// Timed runs of `text` in text order (empty: the cue times no words).
    public var words: [TimedWord]
    /// Where the cue starts in its file (or in the project, for inline cues).
    public var location: SourceLocation
}

/// A run of a cue's text (usually one word) and when it is spoken.
public struct TimedWord: Sendable, Hashable {
    /// UTF-8 byte offsets into the cue's text, without surrounding blanks.
    public var range: Range<Int>
    public var start: MediaTime
    public var end: MediaTime
}

/// Lines of a text file with their numbers, for parsers that report `path:line:col`.
struct NumberedLines {
    struct Line {
        var number: Int
        var text: Substring
    }

    let file: String
    let lines: [Line]

    /// Lines break at "\n", "\r\n" or a lone "\r", as the project reader counts them; a
    /// leading byte order mark is dropped.
    init(text: String, file: String) {
        self.file = file
        var body = Substring(text)
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        // "\r\n" is one Character in Swift, so splitting on newlines keeps the counts right.
        lines = body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .enumerated().map { Line(number: $0.offset + 1, text: $0.element) }
    }

    /// The place of `index` in `line` (columns count Unicode scalars, from 1).
    func location(_ line: Line, at index: Substring.Index? = nil) -> SourceLocation {
        let column = index.map { line.text.unicodeScalars[line.text.startIndex..<$0].count + 1 } ?? 1
        return SourceLocation(file: file, line: line.number, column: column)
    }
}

/// A problem in a cue file, at its place.
struct CueProblem: Error {
    var location: SourceLocation
    var message: String
    var hint: String?
}
