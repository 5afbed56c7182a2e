import ProjectFile

/// Reads a WebVTT (`.vtt`) file: the `WEBVTT` line, then blocks separated by blank lines:
/// cues (an optional identifier, `[hh:]mm:ss.ttt --> [hh:]mm:ss.ttt [settings]`, text lines
/// that may time their words with `<00:00:01.500>`), `NOTE`, `STYLE` and `REGION` blocks
/// (skipped). Cue settings and markup are ignored: the caption's style decides the look.
enum WebVTTReader {
    static func read(_ file: NumberedLines) throws(CueProblem) -> [Cue] {
        guard let first = file.lines.first, first.text == "WEBVTT" || first.text.hasPrefix("WEBVTT ") || first.text.hasPrefix("WEBVTT\t") else {
            throw CueProblem(location: SourceLocation(file: file.file, line: 1, column: 1), message: "a WebVTT file starts with the line 'WEBVTT'",
                             hint: "add 'WEBVTT' as the first line, or name the file .srt if it is SubRip")
        }
        var cues: [Cue] = []
        // The first block is the header (WEBVTT and its metadata lines).
        for block in SubRipReader.blocks(file.lines).dropFirst() {
            let head = block[0].text
            if head == "NOTE" || head.hasPrefix("NOTE ") || head.hasPrefix("NOTE\t") || head == "STYLE" || head == "REGION" { continue }
            let timingIndex = head.contains("-->") ? 0 : 1
            guard timingIndex < block.count, block[timingIndex].text.contains("-->") else {
                throw CueProblem(location: file.location(block[min(timingIndex, block.count - 1)]),
                                 message: timingIndex < block.count ? "expected a cue's times 'start --> end', got '\(block[timingIndex].text)'"
                                                                    : "cue '\(head)' has no times",
                                 hint: "a cue is an optional name line, then 00:00:01.000 --> 00:00:02.000, then its text")
            }
            let (start, end) = try CueTiming.read(block[timingIndex], in: file, .webVTT)
            let text = try CueText.read(Array(block.dropFirst(timingIndex + 1)), in: file, start: start, end: end)
            cues.append(Cue(start: start, end: end, text: text.text, words: text.words, location: file.location(block[timingIndex])))
        }
        return cues
    }
}
