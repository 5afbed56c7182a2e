import MediaTime
import ProjectFile

/// Reads word timing as speech recognisers write it in JSON (Whisper with word timestamps,
/// WhisperX, faster-whisper): `{"segments": [{"start": 0.0, "end": 2.5, "words": [{"word":
/// " Hello", "start": 0.0, "end": 0.4}, …]}, …]}`. Each segment is a cue; its text is its words
/// joined as written when they carry their leading blanks (Whisper: `" Hello"`), else with a
/// blank between them (WhisperX: `"Hello"`). Seconds are read
/// to the microsecond (recognisers write binary fractions such as 1.2399999999999998).
enum WordListReader {
    static func read(_ root: Node) throws(CueProblem) -> [Cue] {
        guard let segments = root["segments"], case .array(let items) = segments.value else {
            throw CueProblem(location: root.location, message: "expected an object with a 'segments' list (Whisper's JSON with word timestamps)",
                             hint: "{\"segments\": [{\"start\": 0, \"end\": 2.5, \"words\": [{\"word\": \"Hello\", \"start\": 0, \"end\": 0.4}]}]}")
        }
        var cues: [Cue] = []
        for segment in items {
            let start = try seconds(segment, "start"), end = try seconds(segment, "end")
            guard end > start else { throw CueProblem(location: segment.location, message: "the segment ends when or before it starts") }
            guard let list = segment["words"], case .array(let words) = list.value, !words.isEmpty else {
                throw CueProblem(location: segment.location, message: "the segment has no 'words' list",
                                 hint: "transcribe with word timestamps (whisper --word_timestamps True)")
            }
            var text = "", timed: [TimedWord] = []
            let blanksWritten = words.contains { w in
                if case .string(let s)? = (w["word"] ?? w["text"])?.value { return s.first.map { " \t\n".contains($0) } ?? false }
                return false
            }
            for word in words {
                guard let node = word["word"] ?? word["text"], case .string(let written) = node.value else {
                    throw CueProblem(location: word.location, message: "a word needs its text as 'word'")
                }
                let wordStart = try seconds(word, "start"), wordEnd = try seconds(word, "end")
                guard wordStart >= start, wordEnd <= end, wordEnd >= wordStart, timed.last.map({ wordStart >= $0.start }) ?? true else {
                    throw CueProblem(location: word.location, message: "the word '\(written)' (\(TimeNotation.clock(wordStart)) to \(TimeNotation.clock(wordEnd))) is out of order or outside its segment (\(TimeNotation.clock(start)) to \(TimeNotation.clock(end)))")
                }
                let trimmed = written.trimmingCharacters(in: " \t\n")
                guard !trimmed.isEmpty else { continue }
                if !text.isEmpty && (!blanksWritten || written.first.map({ " \t\n".contains($0) }) == true) { text += " " }
                let lower = text.utf8.count
                text += trimmed
                timed.append(TimedWord(range: lower..<text.utf8.count, start: wordStart, end: wordEnd))
            }
            cues.append(Cue(start: start, end: end, text: text, words: timed, location: segment.location))
        }
        return cues
    }

    private static func seconds(_ node: Node, _ key: String) throws(CueProblem) -> MediaTime {
        guard let value = node[key], case .number(let text) = value.value, let number = Double(text), number >= 0, number < 86_400 else {
            throw CueProblem(location: node[key]?.location ?? node.location, message: "expected '\(key)' in seconds (a number from 0)")
        }
        let micros = Rational(exactly: text).map { ($0 * Rational(1_000_000)).rounded } ?? Int64((number * 1_000_000).rounded())
        return MediaTime(micros, 1_000_000)
    }
}

private extension String {
    func trimmingCharacters(in blanks: String) -> String {
        String(drop { blanks.contains($0) }.reversed().drop { blanks.contains($0) }.reversed())
    }
}
