import MediaTime

extension Segment {
    /// The source time a video frame starting at timeline time `t` shows. Forward, the
    /// frame shows the source at `t`'s place in the mapping (sample and hold). Reversed, it
    /// shows the mirror image of the frame's middle, `end − (t + ½ frame − start) · speed`,
    /// so at speed 1 and the source's own rate the first frame is the range's last frame and
    /// each next frame the one before it, exactly. Held (source range of length zero): its start.
    public func sourceTime(at t: MediaTime, frameDuration: MediaTime) -> MediaTime? {
        guard let mapping = timeMapping else { return nil }
        guard reversed else { return mapping.sourceTime(at: t) }
        let back = (t - target.start + frameDuration / Rational(2)) * mapping.speed
        return max(mapping.source.start, mapping.source.end - back)
    }

    private enum CodingKeys: String, CodingKey { case target, content, reversed }

    /// `reversed` is written only when true, so forward graphs list as before.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(target: try c.decode(TimeRange.self, forKey: .target), content: try c.decodeIfPresent(SegmentContent.self, forKey: .content),
                  reversed: try c.decodeIfPresent(Bool.self, forKey: .reversed) ?? false)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(target, forKey: .target)
        try c.encodeIfPresent(content, forKey: .content)
        if reversed { try c.encode(true, forKey: .reversed) }
    }
}
