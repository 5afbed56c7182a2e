import CompositionGraph
import Foundation
import MediaTime

/// An interchange timeline as a Reel project document. A clip's `from`/`to` are its source
/// range less its media's start timecode, widened by the handles the transitions beside it
/// use (an OpenTimelineIO transition runs `in_offset` before the cut and `out_offset` after
/// it; Reel's overlaps its two clips for `in_offset + out_offset`). Video clips are muted:
/// sound comes from the audio tracks, as in the editing system.
struct ProjectWriter {
    let timeline: InterchangeTimeline
    var resolver: MediaResolver
    let projectDirectory: String
    private(set) var warnings: [ImportWarning] = []

    init(timeline: InterchangeTimeline, resolver: MediaResolver, projectDirectory: String) {
        self.timeline = timeline
        self.resolver = resolver
        self.projectDirectory = projectDirectory
    }

    var fps: Rational { timeline.rate }

    mutating func document() throws(InterchangeError) -> [TextEntry] {
        var video: [TextValue] = [], audio: [TextValue] = []
        for track in timeline.tracks {
            let value = TextValue.map([TextEntry("name", .string(track.name)), TextEntry("clips", .list(try items(track)))].filter { e in
                if case .string(let s) = e.value { return !s.isEmpty } else { return true }
            })
            if track.kind == .video { video.append(value) } else { audio.append(value) }
        }
        let media = resolver.order.compactMap { resolver.resolved[$0] }
        var root = [TextEntry("reel", .number("1")), TextEntry("output", .map([
            TextEntry("size", .list(size(media).map { .number(String($0)) })), TextEntry("fps", .number(Self.fpsText(fps))),
        ]))]
        if !media.isEmpty {
            root.append(TextEntry("media", .map(media.map { m in
                TextEntry(m.name, .string(relative(m.path)), comment: m.found ? m.startOrigin.map { "starts at \($0)" } : "not found")
            })))
        }
        if !video.isEmpty { root.append(TextEntry("video", .list(video))) }
        if !audio.isEmpty { root.append(TextEntry("audio", .list(audio))) }
        let markers = timeline.markers.filter { m in
            if m.at.isNegative { warnings.append(ImportWarning("marker '\(m.name)' lies before the timeline's start (\(TimeNotation.seconds(m.at))): left out", at: m.place)) }
            return !m.at.isNegative
        }
        if !markers.isEmpty {
            root.append(TextEntry("markers", .list(markers.map { m in
                .map([TextEntry("at", time(m.at)), m.duration.isZero ? nil : TextEntry("duration", duration(m.duration)),
                      m.name.isEmpty ? nil : TextEntry("name", .string(m.name)), m.color.map { TextEntry("color", .string($0)) }].compactMap { $0 })
            })))
        }
        return root
    }

    /// The first video file's picture size (even), else 1920 × 1080.
    private func size(_ media: [ResolvedMedia]) -> [Int] {
        guard let s = media.lazy.compactMap({ $0.facts?.naturalSize }).first else { return [1920, 1080] }
        return [s.width + s.width % 2, s.height + s.height % 2]
    }

    private func relative(_ path: String) -> String {
        let prefix = projectDirectory.hasSuffix("/") ? projectDirectory : projectDirectory + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// Shortens transitions that reach past a neighbour's record range (OpenTimelineIO allows
    /// it; Reel's transitions must fit in both clips, and a clip between two must hold both).
    private mutating func fitTransitions(_ items: [InterchangeItem]) throws(InterchangeError) -> [InterchangeItem] {
        var items = items
        for i in items.indices {
            guard case .transition(var t) = items[i], i > 0, i + 1 < items.count,
                  case .clip(let a) = items[i - 1], case .clip(let b) = items[i + 1] else { continue }
            var usedOfA = MediaTime.zero
            if i >= 2, case .transition(let before) = items[i - 2] { usedOfA = before.outOffset }
            var inLimit = max(.zero, a.sourceRange.duration - usedOfA)
            if case .media(let source) = b.source {
                // The part before the cut plays the incoming clip from before its in-point, never before its media starts.
                let preroll = (b.sourceRange.start - (try resolver.media(for: source, at: b.place)).start) / b.speed
                inLimit = min(inLimit, max(.zero, preroll))
            }
            let outLimit = b.sourceRange.duration
            if t.inOffset > inLimit || t.outOffset > outLimit {
                let before = t.inOffset + t.outOffset
                t.inOffset = min(t.inOffset, inLimit)
                t.outOffset = min(t.outOffset, outLimit)
                warnings.append(ImportWarning("the transition between '\(a.name)' and '\(b.name)' (\(TimeNotation.seconds(before))) reaches past a clip beside it: shortened to \(TimeNotation.seconds(t.inOffset + t.outOffset))", at: t.place))
                items[i] = .transition(t)
            }
        }
        return items
    }

    private mutating func items(_ track: InterchangeTrack) throws(InterchangeError) -> [TextValue] {
        var result: [TextValue] = []
        var track = track
        track.items = try fitTransitions(track.items)
        for (i, item) in track.items.enumerated() {
            switch item {
            case .gap(let d, _):
                if i > 0, case .gap = track.items[i - 1] { continue }  // written with the first of a run
                var run = d
                for case .gap(let next, _) in track.items[(i + 1)...].prefix(while: { if case .gap = $0 { true } else { false } }) { run += next }
                result.append(.map([TextEntry("gap", duration(run))]))
            case .transition(let t):
                result.append(.map([TextEntry("transition", .string(t.kind)), TextEntry("duration", duration(t.inOffset + t.outOffset))]))
            case .clip(let c):
                var before = MediaTime.zero, after = MediaTime.zero
                if i > 0, case .transition(let t) = track.items[i - 1] { before = t.inOffset }
                if i + 1 < track.items.count, case .transition(let t) = track.items[i + 1] { after = t.outOffset }
                result.append(.map(try clip(c, before: before, after: after, audio: track.kind == .audio)))
            }
        }
        return result
    }

    private mutating func clip(_ c: InterchangeClip, before: MediaTime, after: MediaTime, audio: Bool) throws(InterchangeError) -> [TextEntry] {
        var entries = c.name.isEmpty ? [] : [TextEntry("name", .string(c.name))]
        switch c.source {
        case .color(let color):
            entries += [TextEntry("color", .string(color)), TextEntry("duration", duration(before + c.sourceRange.duration + after))]
            return entries
        case .media(let source):
            let c = wholeFrameSpeed(c)
            let media = try resolver.media(for: source, at: c.place)
            var from = c.sourceRange.start - before * c.speed - media.start
            let to = c.sourceRange.start + (c.sourceRange.duration + after) * c.speed - media.start
            if from.isNegative {
                warnings.append(ImportWarning("clip '\(c.name)' starts \(TimeNotation.seconds(-from)) before its media's start timecode: it starts at the media's start instead", at: c.place))
                from = .zero
            }
            entries += [TextEntry("media", .string(media.name)), TextEntry("from", time(from, at: c.place)), TextEntry("to", time(to, at: c.place))]
            if c.speed != .one { entries.append(TextEntry("speed", Self.speedText(c.speed))) }
            if !audio { entries.append(TextEntry("mute", .bool(true))) }
            return entries
        }
    }

    /// A speed at which the clip reads a whole number of source frames (an EDL's `M2` rate and
    /// OpenTimelineIO's float time scalar rarely do): the nearest such speed Reel plays, so
    /// `to` stays on a frame; said in a warning.
    private mutating func wholeFrameSpeed(_ c: InterchangeClip) -> InterchangeClip {
        guard c.speed != .one, let frames = Timecode(rate: fps, dropFrame: false).frames(at: c.sourceRange.duration), frames > 0 else { return c }
        let read = Rational(frames) * c.speed
        guard !read.isInteger else { return c }
        let snapped = Rational(max(1, read.rounded), frames)
        guard snapped.denominator <= 1001, snapped >= Rational(1, 100), snapped <= Rational(100) else { return c }
        var c = c
        warnings.append(ImportWarning("clip '\(c.name)': speed \(c.speed.doubleValue) reads \(read.doubleValue) source frames: played at \(snapped) so that it reads \(snapped * Rational(frames)) whole frames", at: c.place))
        c.speed = snapped
        return c
    }

    /// `29.97`, `24`, `"12.5"`: the frame rate as the format reads it.
    static func fpsText(_ r: Rational) -> String {
        switch r {
        case Rational(24000, 1001): "23.976"
        case Rational(30000, 1001): "29.97"
        case Rational(60000, 1001): "59.94"
        default: r.isInteger ? "\(r.numerator)" : "\"\(r)\""
        }
    }

    static func speedText(_ s: Rational) -> TextValue {
        decimal(s).map { .number($0) } ?? .string("\(s.numerator)/\(s.denominator)")
    }

    /// Exact decimal text with at most 6 decimals, if `r` has one.
    static func decimal(_ r: Rational) -> String? {
        let scaled = r.magnitude * Rational(1_000_000)
        guard scaled.isInteger else { return nil }
        let micro = scaled.numerator
        var text = "\(micro / 1_000_000)"
        var fraction = String(micro % 1_000_000)
        if fraction != "0" {
            fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return (r.isNegative ? "-" : "") + text
    }

    /// A point in time: timecode `"HH:MM:SS:FF"` at the project's rate when on a frame, else exact seconds.
    private mutating func time(_ t: MediaTime, at place: Place? = nil) -> TextValue {
        let timecode = Timecode(rate: fps, dropFrame: false)
        if let n = timecode.frames(at: t) { return .string(timecode.string(frames: n)) }
        return seconds(t, at: place)
    }

    /// A length: `12f` under a second, else like `time`.
    private mutating func duration(_ t: MediaTime) -> TextValue {
        if let n = Timecode(rate: fps, dropFrame: false).frames(at: t), n < fps.ceiling { return .string("\(n)f") }
        return time(t)
    }

    private mutating func seconds(_ t: MediaTime, at place: Place?) -> TextValue {
        if let text = Self.decimal(t.value) { return .string(text + "s") }
        let frame = (t.value * fps).rounded
        if let place {
            warnings.append(ImportWarning("\(t) s is neither a whole frame at \(Self.fpsText(fps)) fps nor a decimal: rounded to frame \(frame)", at: place))
        }
        return .string(Timecode(rate: fps, dropFrame: false).string(frames: frame))
    }
}
