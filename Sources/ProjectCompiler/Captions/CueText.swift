import MediaTime
import ProjectFile

/// The text of a cue, read from WebVTT cue text: markup tags (`<i>`, `<b>`, `<c.x>`,
/// `<v Name>`, SubRip's `<font …>`…) are dropped, character references (`&amp;`, `&lt;`,
/// `&gt;`, `&nbsp;`, `&lrm;`, `&rlm;`) become their characters, and timestamp tags
/// (`<00:00:01.500>`) time the text after them: each stretch between timestamps is one timed
/// word (highlighted as one), the stretch before the first starting with the cue.
struct CueText {
    var text = ""
    var words: [TimedWord] = []

    /// `lines` are the cue's text lines; `time` the cue's range. Tags do not span lines.
    static func read(_ lines: [NumberedLines.Line], in file: NumberedLines, start: MediaTime, end: MediaTime) throws(CueProblem) -> CueText {
        var result = CueText()
        var runStart = 0, runTime = start
        var timed = false
        for (index, line) in lines.enumerated() {
            if index > 0 { result.text += "\n" }
            var i = line.text.startIndex
            while i < line.text.endIndex {
                let c = line.text[i]
                if c == "<" {
                    guard let close = line.text[i...].firstIndex(of: ">") else {
                        throw CueProblem(location: file.location(line, at: i), message: "a tag opened with '<' is not closed with '>'",
                                         hint: "write &lt; for a literal '<'")
                    }
                    let tag = line.text[line.text.index(after: i)..<close]
                    if let first = tag.first, first.isASCII, first.isNumber {
                        guard let t = CueTimestamp.parse(tag, .webVTT) else {
                            throw CueProblem(location: file.location(line, at: i), message: "'<\(tag)>' is not a timestamp",
                                             hint: "write a word's time as <\(CueTimestamp.help[.webVTT]!)>")
                        }
                        guard t >= runTime, t <= end else {
                            throw CueProblem(location: file.location(line, at: i),
                                             message: "the timestamp <\(tag)> is \(t < runTime ? "before the one before it" : "after the cue's end") (the cue runs \(TimeNotation.clock(start)) to \(TimeNotation.clock(end)))",
                                             hint: "timestamps inside a cue go forward and stay within the cue")
                        }
                        result.closeRun(from: runStart, at: runTime, until: t)
                        runStart = result.text.utf8.count
                        runTime = t
                        timed = true
                    }
                    i = line.text.index(after: close)
                } else if c == "&", let (character, next) = reference(in: line.text, at: i) {
                    result.text.append(character)
                    i = next
                } else {
                    result.text.append(c)
                    i = line.text.index(after: i)
                }
            }
        }
        if timed { result.closeRun(from: runStart, at: runTime, until: end) }
        return result
    }

    /// Records the text since `offset` as a word timed `start ..< end` (trimmed; skipped if blank).
    private mutating func closeRun(from offset: Int, at start: MediaTime, until end: MediaTime) {
        let utf8 = Array(text.utf8)
        var lower = offset, upper = utf8.count
        func blank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 }
        while lower < upper, blank(utf8[lower]) { lower += 1 }
        while upper > lower, blank(utf8[upper - 1]) { upper -= 1 }
        guard lower < upper, end > start else { return }
        words.append(TimedWord(range: lower..<upper, start: start, end: end))
    }

    private static let references: [Substring: Character] = ["amp": "&", "lt": "<", "gt": ">", "nbsp": "\u{A0}", "lrm": "\u{200E}", "rlm": "\u{200F}",
                                                              "quot": "\"", "apos": "'"]

    /// A character reference at `i` (`&amp;`): the character and the index after the ';'.
    private static func reference(in line: Substring, at i: Substring.Index) -> (Character, Substring.Index)? {
        guard let semicolon = line[i...].prefix(8).firstIndex(of: ";") else { return nil }
        guard let character = references[line[line.index(after: i)..<semicolon]] else { return nil }
        return (character, line.index(after: semicolon))
    }
}
