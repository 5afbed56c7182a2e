import MediaTime

/// Consecutive segments of a track that play one stretch of a file at changing speeds: the
/// pieces a speed ramp compiles to, shown as one by listings.
public struct SegmentRun: Sendable {
    /// The first piece alone, or the whole ramp.
    public var segments: ArraySlice<Segment>

    public var target: TimeRange { TimeRange(start: segments.first!.target.start, end: segments.last!.target.end) }

    /// The source read over the run (the pieces' ranges joined).
    public var source: TimeRange? {
        guard let first = segments.first?.timeMapping?.source, let last = segments.last?.timeMapping?.source else { return nil }
        return segments.first!.reversed ? TimeRange(start: last.start, end: first.end) : TimeRange(start: first.start, end: last.end)
    }

    /// The pieces' speeds, when they change (a ramp).
    public var speeds: (first: Rational, last: Rational)? {
        guard segments.count > 1, let a = segments.first?.timeMapping?.speed, let b = segments.last?.timeMapping?.speed else { return nil }
        return (a, b)
    }
}

extension CompositionTrack {
    /// The segments in order, with each speed ramp's pieces together: media segments of one
    /// file and direction that follow one another on the timeline and in the source, at
    /// speeds that change from piece to piece (a held frame is never part of a ramp).
    public var runs: [SegmentRun] {
        var runs: [SegmentRun] = []
        var start = 0
        while start < segments.count {
            var end = start + 1
            while end < segments.count, Self.continues(segments[end - 1], with: segments[end]) { end += 1 }
            runs.append(SegmentRun(segments: segments[start..<end]))
            start = end
        }
        return runs
    }

    private static func continues(_ a: Segment, with b: Segment) -> Bool {
        guard case .media(let ra, let sa)? = a.content, case .media(let rb, let sb)? = b.content, ra.path == rb.path,
              a.reversed == b.reversed, a.target.end == b.target.start,
              let ka = a.timeMapping?.speed, let kb = b.timeMapping?.speed, ka != kb, !ka.isZero, !kb.isZero else { return false }
        return a.reversed ? sb.end == sa.start : sb.start == sa.end
    }
}
