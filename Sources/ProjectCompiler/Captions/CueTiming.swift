import MediaTime

/// The `start --> end` line of a SubRip or WebVTT cue.
enum CueTiming {
    /// The cue's times; anything after the end time (WebVTT cue settings, SubRip positions) is ignored.
    static func read(_ line: NumberedLines.Line, in file: NumberedLines, _ style: CueTimestamp.Style) throws(CueProblem) -> (MediaTime, MediaTime) {
        let text = line.text
        guard let arrow = text.range(of: "-->") else {
            throw CueProblem(location: file.location(line), message: "expected a cue's times 'start --> end', got '\(text)'",
                             hint: "write \(CueTimestamp.help[style]!) --> …")
        }
        let startText = text[..<arrow.lowerBound].trimmingBlanks()
        let afterArrow = text[arrow.upperBound...]
        let endBegins = afterArrow.firstIndex { $0 != " " && $0 != "\t" } ?? afterArrow.endIndex
        let endText = afterArrow[endBegins...].prefix { $0 != " " && $0 != "\t" }
        guard let start = CueTimestamp.parse(startText, style) else {
            throw CueProblem(location: file.location(line, at: text.firstIndex { $0 != " " && $0 != "\t" }),
                             message: "'\(startText)' is not a cue time", hint: "write it as \(CueTimestamp.help[style]!)")
        }
        guard let end = CueTimestamp.parse(endText, style) else {
            throw CueProblem(location: file.location(line, at: endBegins), message: "'\(endText)' is not a cue time",
                             hint: "write it as \(CueTimestamp.help[style]!)")
        }
        guard end > start else {
            throw CueProblem(location: file.location(line, at: endBegins),
                             message: "the cue ends (\(endText)) \(end == start ? "when" : "before") it starts (\(startText))",
                             hint: "a cue needs an end after its start")
        }
        return (start, end)
    }
}

extension Substring {
    func trimmingBlanks() -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return self[endIndex...] }
        return self[first...last]
    }
}
