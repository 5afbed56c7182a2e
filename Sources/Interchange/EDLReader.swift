import MediaTime

/// A CMX 3600 EDL as an interchange timeline: one video track (`V`) and one audio track per
/// channel used (`A1`…`A4`); the timeline starts at the first event's record in. A dissolve or
/// wipe event (`D`, `Wnnn` with its length) becomes a transition that starts at its record in
/// and runs into the outgoing clip's handle; the zero-length cut before it (the A side) only
/// names the outgoing source. `M2` sets the speed; gaps between record ranges become gaps.
public enum EDLReader {
    /// `rate` nil: the EDL's own, as far as it says one (`FCM: DROP FRAME` is 29.97 fps, or
    /// 59.94 when a frame number above 29 shows it), else 24 fps.
    public static func read(text: String, file: String, rate given: Rational?) throws(InterchangeError) -> (InterchangeTimeline, [ImportWarning]) {
        var warnings: [ImportWarning] = []
        let rate: Rational
        if let given {
            rate = given
        } else if let (implied, line) = dropFrameRate(in: text) {
            rate = implied
            warnings.append(ImportWarning("the EDL is drop-frame: read at \(implied == Rational(60000, 1001) ? "59.94" : "29.97") fps unless another frame rate is given",
                                          at: .line(line, in: file), remedy: [.frameRate]))
        } else {
            rate = Rational(24)
        }
        var parser = EDLParser(file: file, rate: rate)
        try parser.parse(text)
        var builder = EDLTimelineBuilder(file: file, rate: rate, start: parser.events.map(\.recordIn).min() ?? 0)
        builder.warnings = warnings + parser.warnings
        let tracks = builder.tracks(parser.events)
        let markers = parser.events.flatMap { event in
            event.locators.map { InterchangeMarker(at: builder.time(frames: $0.frames - builder.start), duration: .zero, name: $0.name, color: $0.color, place: .line($0.line, in: file)) }
        }
        return (InterchangeTimeline(name: parser.title, rate: rate, dropFrame: parser.dropFrame, tracks: tracks, markers: markers), builder.warnings)
    }

    /// The rate a drop-frame EDL was made at, and the line of its `FCM: DROP FRAME`: 59.94 fps
    /// when a timecode counts frames past 29, else 29.97. Nil for any other EDL.
    static func dropFrameRate(in text: String) -> (Rational, line: Int)? {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        guard let index = lines.firstIndex(where: {
            let upper = $0.uppercased()
            return upper.hasPrefix("FCM:") && upper.contains("DROP") && !upper.contains("NON")
        }) else { return nil }
        // hh:mm:ss;ff or hh:mm:ss:ff: the frame field is the last two digits.
        var framesPast29 = false
        for line in lines {
            for field in line.split(separator: " ") where field.count == 11 && field.filter(\.isNumber).count == 8 {
                if let frame = Int(field.suffix(2)), frame > 29 { framesPast29 = true }
            }
        }
        return (framesPast29 ? Rational(60000, 1001) : Rational(30000, 1001), index + 1)
    }
}

private struct EDLTimelineBuilder {
    let file: String
    let rate: Rational
    /// Record frame of the timeline's start.
    let start: Int64
    var warnings: [ImportWarning] = []

    func time(frames: Int64) -> MediaTime { MediaTime(Rational(frames) / rate) }
    func place(_ line: Int) -> Place { .line(line, in: file) }

    mutating func tracks(_ events: [EDLEvent]) -> [InterchangeTrack] {
        var result: [InterchangeTrack] = []
        let video = events.filter(\.video)
        if !video.isEmpty { result.append(track(.video, "V", video)) }
        for channel in 1...4 {
            let audio = events.filter { $0.audio.contains(channel) }
            if !audio.isEmpty { result.append(track(.audio, "A\(channel)", audio)) }
        }
        return result
    }

    private mutating func track(_ kind: InterchangeTrack.Kind, _ name: String, _ events: [EDLEvent]) -> InterchangeTrack {
        var items: [InterchangeItem] = []
        var cursor = start
        for (index, event) in events.enumerated() {
            if event.isZeroLength && !event.isTransition {
                checkOutgoingSide(event, next: events.dropFirst(index + 1).first, previous: items.last)
                continue
            }
            var recordIn = event.recordIn, sourceIn = event.sourceIn
            if recordIn > cursor {
                items.append(.gap(time(frames: recordIn - cursor), place(event.line)))
            } else if recordIn < cursor {
                let overlap = min(cursor - recordIn, event.recordFrames)
                warnings.append(ImportWarning("event \(event.number) on \(name) starts \(overlap) frames before the previous event ends: its first \(overlap) frames are left out", at: place(event.line)))
                recordIn += overlap
                sourceIn += overlap
            }
            guard event.recordOut > recordIn else { continue }
            if event.isTransition, let transition = transition(event, after: items.last) { items.append(.transition(transition)) }
            items.append(.clip(clip(event, sourceIn: sourceIn, frames: event.recordOut - recordIn)))
            cursor = event.recordOut
        }
        return InterchangeTrack(kind: kind, name: name, items: items)
    }

    private mutating func clip(_ event: EDLEvent, sourceIn: Int64, frames: Int64) -> InterchangeClip {
        // In a transition event, FROM CLIP NAME names the outgoing clip and TO CLIP NAME this one.
        let ownName = event.isTransition ? event.toClipName : event.clipName
        let name = ownName ?? event.number
        var speed = Rational.one
        if let motion = event.motion {
            let asked = motion.fps / rate
            if asked.isZero || asked.isNegative {
                warnings.append(ImportWarning("event \(event.number) (\(name)): \(asked.isZero ? "a freeze frame" : "reverse motion (\(motion.fps) fps)") is not supported: the clip plays forward at normal speed from its in-point", at: place(motion.line)))
            } else {
                speed = asked
            }
        } else if event.sourceOut - event.sourceIn != event.recordFrames && !event.isTransition {
            warnings.append(ImportWarning("event \(event.number) (\(name)): the source lasts \(event.sourceOut - event.sourceIn) frames but the record \(event.recordFrames): the record length is used", at: place(event.line)))
        }
        for note in event.unsupported where !(event.isTransition && note.note.uppercased().hasPrefix("EFFECTS NAME IS")) {
            if note.note.uppercased().contains("FREEZE FRAME") && event.motion != nil { continue }
            warnings.append(ImportWarning("event \(event.number) (\(name)): '\(note.note)' is not supported: left out", at: place(note.line)))
        }
        let source: ClipSource
        if event.reel.uppercased() == "BL" {
            source = .color("#000000")
        } else {
            let key = event.sourceFile ?? ownName ?? event.reel
            let names = [event.sourceFile.map(fileName), ownName, event.reel].compactMap { $0 }
            source = .media(SourceMedia(key: key, path: event.sourceFile, names: names))
        }
        return InterchangeClip(name: name, source: source, sourceRange: TimeRange(start: time(frames: sourceIn), duration: time(frames: frames)),
                               speed: speed, place: place(event.line))
    }

    private mutating func transition(_ event: EDLEvent, after previous: InterchangeItem?) -> InterchangeTransition? {
        guard case .clip = previous else {
            warnings.append(ImportWarning("event \(event.number): the \(event.transition) transition has no clip before it (from black or a gap): written as a cut", at: place(event.line)))
            return nil
        }
        let kind: String
        switch event.transition {
        case "D": kind = "crossfade"
        case "W001": kind = "wipe-right"
        case "W002": kind = "wipe-down"
        default:
            kind = event.transition.hasPrefix("W") ? "wipe-right" : "crossfade"
            warnings.append(ImportWarning("event \(event.number): transition \(event.transition) is not supported: written as \(kind)", at: place(event.line)))
        }
        let frames = min(event.transitionFrames ?? 0, event.recordFrames)
        return InterchangeTransition(kind: kind, inOffset: .zero, outOffset: time(frames: frames), place: place(event.line))
    }

    /// The A side of a dissolve names where the outgoing clip is cut; Reel extends the
    /// previous clip from its own out-point, and says so when the two disagree.
    private mutating func checkOutgoingSide(_ event: EDLEvent, next: EDLEvent?, previous: InterchangeItem?) {
        guard let next, next.number == event.number, next.isTransition else {
            warnings.append(ImportWarning("event \(event.number) lasts no time and no transition follows it: left out", at: place(event.line)))
            return
        }
        if case .clip(let c) = previous, c.speed == .one, c.sourceRange.end != time(frames: event.sourceIn) {
            warnings.append(ImportWarning("event \(event.number): the outgoing side of the transition starts at source frame \(event.sourceIn), not where the previous clip ends: the previous clip continues from its own out-point", at: place(event.line)))
        }
    }
}

/// The last component of a path, with `/` or `\` separators.
func fileName(_ path: String) -> String {
    String(path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last ?? Substring(path))
}
