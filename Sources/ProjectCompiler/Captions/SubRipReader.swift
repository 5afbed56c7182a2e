/// Reads a SubRip (`.srt`) file: blocks of a cue number, `hh:mm:ss,ttt --> hh:mm:ss,ttt` and
/// the cue's text lines, separated by blank lines. Text markup (`<i>`, `<font …>`) is dropped.
enum SubRipReader {
    static func read(_ file: NumberedLines) throws(CueProblem) -> [Cue] {
        var cues: [Cue] = []
        for block in blocks(file.lines) {
            let number = block[0]
            guard number.text.trimmingBlanks().allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw CueProblem(location: file.location(number), message: "expected a cue number, got '\(number.text)'",
                                 hint: "each SubRip cue starts with its number, then its times, then its text; blank lines only between cues")
            }
            guard block.count >= 2 else {
                throw CueProblem(location: file.location(number), message: "cue \(number.text) has no times",
                                 hint: "the line after a cue number is 00:00:01,000 --> 00:00:02,000")
            }
            let (start, end) = try CueTiming.read(block[1], in: file, .subRip)
            let text = try CueText.read(Array(block.dropFirst(2)), in: file, start: start, end: end)
            cues.append(Cue(start: start, end: end, text: text.text, words: text.words, location: file.location(number)))
        }
        return cues
    }

    /// Runs of non-blank lines.
    static func blocks(_ lines: [NumberedLines.Line]) -> [[NumberedLines.Line]] {
        var blocks: [[NumberedLines.Line]] = [], current: [NumberedLines.Line] = []
        for line in lines {
            if line.text.trimmingBlanks().isEmpty {
                if !current.isEmpty { blocks.append(current) }
                current = []
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { blocks.append(current) }
        return blocks
    }
}
