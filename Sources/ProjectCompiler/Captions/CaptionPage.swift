import MediaTime

/// The lines of a cue shown together (at most `max_lines`), with the cue's timed words mapped
/// into the page's text and the moments at which the page changes.
struct CaptionPage {
    struct Word {
        /// In the page's text, one range per line the word is on.
        var ranges: [Range<Int>]
        var start: MediaTime
        var end: MediaTime
        /// The page offset after each of the word's letters (grapheme clusters), with the time it appears.
        var letters: [(end: Int, time: MediaTime)]
    }

    struct State: Equatable {
        var highlighted: [Range<Int>]
        var revealedUpTo: Int?
    }

    /// Lines joined by "\n".
    var text: String
    var start: MediaTime
    var end: MediaTime
    var words: [Word]

    /// The cue in pages of `maxLines` of `lines` (UTF-8 ranges of its text). A later page starts
    /// with the first timed word that starts on it, or, when none does, after a share of the cue's time
    /// equal to the share of the letters before it.
    static func pages(of cue: Cue, lines all: [Range<Int>], maxLines: Int) -> [CaptionPage] {
        let lines = all.filter { !$0.isEmpty }
        let utf8 = Array(cue.text.utf8)
        let letterCount = max(cue.text.count, 1)
        var pages: [CaptionPage] = []
        for first in stride(from: 0, to: lines.count, by: max(maxLines, 1)) {
            let group = Array(lines[first..<min(first + maxLines, lines.count)])
            let map = OffsetMap(lines: group)
            let text = group.map { String(decoding: utf8[$0], as: UTF8.self) }.joined(separator: "\n")
            let words = cue.words.compactMap { word -> Word? in
                let ranges = map.ranges(word.range)
                guard !ranges.isEmpty else { return nil }
                let spoken = String(decoding: utf8[word.range], as: UTF8.self)
                let count = Int64(spoken.count)
                var offset = word.range.lowerBound
                let letters = spoken.enumerated().map { index, letter -> (Int, MediaTime) in
                    offset += letter.utf8.count
                    return (map.offset(offset), word.start + (word.end - word.start) * Rational(Int64(index), count))
                }
                return Word(ranges: ranges, start: word.start, end: word.end, letters: letters)
            }
            let lettersBefore = String(decoding: utf8[..<group[0].lowerBound], as: UTF8.self).count
            var start = cue.start + (cue.end - cue.start) * Rational(Int64(lettersBefore), Int64(letterCount))
            let pageRange = group[0].lowerBound..<group[group.count - 1].upperBound
            if pages.isEmpty {
                start = cue.start
            } else if let firstWord = cue.words.first(where: { pageRange.contains($0.range.lowerBound) }) {
                start = firstWord.start
            }
            if let previous = pages.last { start = max(start, previous.start) }
            pages.append(CaptionPage(text: text, start: start, end: cue.end, words: words))
        }
        for i in pages.indices.dropLast() { pages[i].end = pages[i + 1].start }
        return pages
    }

    /// The page's moments, in order: a time range and how the page looks during it.
    func states(reveal: CaptionTrack.Reveal, highlighting: Bool) -> [(TimeRange, State)] {
        var times = Set([start])
        for word in words {
            if highlighting { times.formUnion([word.start, word.end]) }
            switch reveal {
            case .none: break
            case .word: times.insert(word.start)
            case .letter: times.formUnion(word.letters.map(\.time))
            }
        }
        let changes = times.filter { $0 >= start && $0 < end }.sorted() + [end]
        var states: [(TimeRange, State)] = []
        for (t, next) in zip(changes, changes.dropFirst()) {
            let state = self.state(at: t, reveal: reveal, highlighting: highlighting)
            if let last = states.last, last.1 == state {
                states[states.count - 1].0 = TimeRange(start: last.0.start, end: next)
            } else {
                states.append((TimeRange(start: t, end: next), state))
            }
        }
        return states
    }

    private func state(at t: MediaTime, reveal: CaptionTrack.Reveal, highlighting: Bool) -> State {
        let current = highlighting ? words.last { $0.start <= t && t < $0.end } : nil
        var revealedUpTo: Int?
        if reveal != .none, let firstWord = words.first, let lastWord = words.last {
            let shown: [Int]
            switch reveal {
            case .none: shown = []
            case .word: shown = words.filter { $0.start <= t }.compactMap { $0.ranges.last?.upperBound }
            case .letter: shown = words.flatMap { $0.letters.filter { $0.time <= t }.map(\.end) }
            }
            let upTo = shown.max() ?? firstWord.ranges[0].lowerBound
            revealedUpTo = upTo >= lastWord.ranges.last!.upperBound ? nil : upTo
        }
        return State(highlighted: current?.ranges ?? [], revealedUpTo: revealedUpTo)
    }
}

/// Offsets of a cue's text → offsets of a page's text (its lines joined by "\n").
private struct OffsetMap {
    /// Each line's range in the cue's text and where it starts in the page's.
    let lines: [(range: Range<Int>, pageStart: Int)]

    init(lines: [Range<Int>]) {
        var result: [(Range<Int>, Int)] = [], start = 0
        for line in lines {
            result.append((line, start))
            start += line.count + 1
        }
        self.lines = result
    }

    /// A place between lines maps to the end of the line before it.
    func offset(_ o: Int) -> Int {
        var mapped = 0
        for line in lines where o >= line.range.lowerBound {
            mapped = line.pageStart + min(o, line.range.upperBound) - line.range.lowerBound
        }
        return mapped
    }

    /// The parts of `range` on the page's lines.
    func ranges(_ range: Range<Int>) -> [Range<Int>] {
        lines.compactMap { line in
            let lower = max(range.lowerBound, line.range.lowerBound), upper = min(range.upperBound, line.range.upperBound)
            guard lower < upper else { return nil }
            return (line.pageStart + lower - line.range.lowerBound)..<(line.pageStart + upper - line.range.lowerBound)
        }
    }
}
