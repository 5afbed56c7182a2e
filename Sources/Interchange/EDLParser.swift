import MediaTime

/// Reads the lines of a CMX 3600 EDL into events, each with its line number. Timecodes are
/// read at the EDL's rate (`EDLReader` decides it), drop-frame after `FCM: DROP FRAME`. What cannot be read is an error at its line; notes Reel does not act on
/// are kept for warnings.
struct EDLParser {
    /// More events than a Reel project can hold: refused at the first one over (so a huge file
    /// costs a bounded time and memory).
    static let maxEvents = 5000

    let file: String
    let rate: Rational
    private(set) var title: String?
    private(set) var dropFrame = false
    private(set) var events: [EDLEvent] = []
    private(set) var warnings: [ImportWarning] = []

    init(file: String, rate: Rational) {
        self.file = file
        self.rate = rate
    }

    mutating func parse(_ text: String) throws(InterchangeError) {
        var number = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            number += 1
            try parseLine(rawLine.trimmingCharacters, line: number)
        }
        guard !events.isEmpty else {
            throw InterchangeError("no events: this is not a CMX 3600 EDL, or it is empty", at: .line(max(number, 1), in: file),
                                   hint: "an event line looks like '001  REEL  V  C  01:00:00:00 01:00:05:00 00:00:00:00 00:00:05:00'")
        }
    }

    private func place(_ line: Int) -> Place { .line(line, in: file) }

    private mutating func parseLine(_ text: Substring, line: Int) throws(InterchangeError) {
        guard !text.isEmpty else { return }
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let head = fields[0].uppercased()
        if head == "TITLE:" {
            title = fields.dropFirst().joined(separator: " ")
        } else if head == "FCM:" {
            dropFrame = text.uppercased().contains("DROP") && !text.uppercased().contains("NON")
            if dropFrame && !Timecode.dropFrameIsDefined(at: rate) {
                throw InterchangeError("drop-frame timecode at \(rate) fps: drop-frame exists only at 29.97 and 59.94 fps", at: place(line),
                                       hint: "read it at 29.97 (or 59.94) fps, the rate the EDL was made at", remedy: [.frameRate])
            }
        } else if fields[0].allSatisfy(\.isNumber) {
            try parseEvent(fields, line: line)
        } else if head == "M2" {
            try parseMotion(fields, line: line)
        } else if head == "AUD" {
            try amendLastEvent(line) { $0.audio += fields.dropFirst().compactMap { Int($0) }.filter { (3...4).contains($0) } }
        } else {
            try parseNote(text, line: line)
        }
    }

    /// Changes the event the line belongs to: the last one read.
    private mutating func amendLastEvent(_ line: Int, _ change: (inout EDLEvent) -> Void) throws(InterchangeError) {
        guard !events.isEmpty else { throw InterchangeError("this line belongs to an event, but no event line comes before it", at: place(line)) }
        change(&events[events.count - 1])
    }

    private func timecode() -> Timecode { Timecode(rate: rate, dropFrame: dropFrame) }

    private mutating func parseEvent(_ fields: [Substring], line: Int) throws(InterchangeError) {
        guard events.count < Self.maxEvents else {
            throw InterchangeError("more than \(Self.maxEvents) events: more than a Reel project holds", at: place(line),
                                   hint: "split the EDL (by reel or by reel of the programme) and import the parts")
        }
        let form = "an event line is: number, reel, channels, transition (C, D, Wnnn, K) [length], source in, source out, record in, record out"
        guard fields.count == 8 || fields.count == 9 else {
            throw InterchangeError("event \(fields[0]) has \(fields.count) fields; \(form)", at: place(line),
                                   hint: fields.count < 8 ? "the line is incomplete (a truncated file?)" : nil)
        }
        guard let channels = EDLEvent.channels(String(fields[2]).uppercased()) else {
            throw InterchangeError("event \(fields[0]): unknown channels '\(fields[2])'", at: place(line),
                                   hint: "channels are V, A, A2, AA, B, AA/V, A2/V or NONE")
        }
        let transition = String(fields[3]).uppercased()
        var length: Int64?
        if fields.count == 9 {
            guard transition != "C", let frames = Int64(fields[4]), frames >= 0 else {
                throw InterchangeError("event \(fields[0]): '\(fields[4])' is not a transition length in frames", at: place(line), hint: form)
            }
            length = frames
        } else if transition != "C" {
            throw InterchangeError("event \(fields[0]): the \(transition) transition has no length", at: place(line), hint: form)
        }
        var times: [Int64] = []
        for field in fields.suffix(4) {
            do { times.append(try timecode().frames(field)) } catch {
                throw InterchangeError("event \(fields[0]): \(error.message)", at: place(line),
                                       hint: error.message.contains("does not exist at") ? "read it at the rate the EDL was made at (25, 30…)" : nil,
                                       remedy: error.message.contains("does not exist at") ? [.frameRate] : [])
            }
        }
        guard times[1] >= times[0], times[3] >= times[2] else {
            throw InterchangeError("event \(fields[0]) ends before it starts (source \(fields[fields.count - 4])–\(fields[fields.count - 3]), record \(fields[fields.count - 2])–\(fields[fields.count - 1]))",
                                   at: place(line))
        }
        events.append(EDLEvent(number: String(fields[0]), reel: String(fields[1]), video: channels.video, audio: channels.audio,
                               transition: transition, transitionFrames: length, sourceIn: times[0], sourceOut: times[1],
                               recordIn: times[2], recordOut: times[3], line: line))
    }

    /// `M2   REEL   047.6   01:00:06:00`: the source plays at 47.6 frames per second.
    private mutating func parseMotion(_ fields: [Substring], line: Int) throws(InterchangeError) {
        guard fields.count >= 4, let fps = Rational(exactly: String(fields[fields.count - 2])) else {
            throw InterchangeError("a motion line is: M2, reel, speed in frames per second, source timecode", at: place(line))
        }
        try amendLastEvent(line) { $0.motion = (fps, line) }
    }

    private mutating func parseNote(_ text: Substring, line: Int) throws(InterchangeError) {
        var note = text
        while note.first == "*" { note = note.dropFirst().trimmingCharacters }
        let upper = note.uppercased()
        func value(after key: String) -> String? {
            guard upper.hasPrefix(key) else { return nil }
            return String(note.dropFirst(key.count).trimmingCharacters)
        }
        guard !events.isEmpty else {
            if text.first != "*" { warnings.append(ImportWarning("'\(text)' is not an EDL line Reel knows: ignored", at: place(line))) }
            return
        }
        let last = events.count - 1
        if let name = value(after: "FROM CLIP NAME:") {
            events[last].clipName = name
        } else if let name = value(after: "TO CLIP NAME:") {
            events[last].toClipName = name
        } else if let path = value(after: "SOURCE FILE:") ?? value(after: "FROM CLIP:") ?? value(after: "FROM FILE:") {
            events[last].sourceFile = path
        } else if let locator = value(after: "LOC:") {
            try parseLocator(locator, line: line)
        } else if upper.hasPrefix("ASC_") || upper.hasPrefix("AVX") || upper.hasPrefix("EFFECTS NAME IS") || upper.contains("FREEZE FRAME") {
            events[last].unsupported.append((String(note), line))
        } else if text.first != "*" && !upper.hasPrefix("BLEND") {
            warnings.append(ImportWarning("'\(text)' is not an EDL line Reel knows: ignored", at: place(line)))
        }
    }

    /// `LOC: 01:00:01:14 RED ANIM FIX NEEDED`: a marker at a record timecode.
    private mutating func parseLocator(_ text: String, line: Int) throws(InterchangeError) {
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard let first = parts.first else { throw InterchangeError("a locator needs a timecode: LOC: 01:00:00:00 COLOR name", at: place(line)) }
        let frames: Int64
        do { frames = try timecode().frames(first) } catch { throw InterchangeError("locator: \(error.message)", at: place(line)) }
        let color = parts.count > 1 ? String(parts[1]) : nil
        let name = parts.count > 2 ? String(parts[2]) : ""
        events[events.count - 1].locators.append((frames, color, name, line))
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingCharacters: SubSequence {
        var s = self[...]
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}
