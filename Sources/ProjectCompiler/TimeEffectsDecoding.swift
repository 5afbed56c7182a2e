import CompositionGraph
import MediaTime

extension ProjectDecoder {
    /// A clip's `speed:` keyframes, `reverse:`, `reverse_audio:` and `freeze:`, with the
    /// combinations that cannot play reported at the key that makes them so.
    mutating func timeEffects(_ c: NodeCursor) -> TimeEffects {
        var effects = TimeEffects()
        if let s = c["speed"], !s.elements.isEmpty { effects.ramp = speedCurve(s) }
        effects.reverse = c["reverse"]?.bool ?? false
        if let node = c["reverse_audio"] {
            effects.reverseAudio = node.string.flatMap(ReverseAudio.init(rawValue:)) ?? .backwards
            if !effects.reverse {
                problems.report("reverse_audio says what a reversed clip's sound does, but this clip is not reversed", at: node.origin,
                                hint: "add reverse: true, or remove reverse_audio")
            }
        }
        if let node = c["freeze"] {
            if node.string == "end" { effects.freeze = .end } else if let t = time(node) { effects.freeze = .at(t) }
            for key in ["from", "to", "speed", "reverse"] where c[key] != nil {
                problems.report("a freeze frame holds one source frame, so '\(key)' does not apply to it", at: c[key]!.origin,
                                hint: "freeze names the source time held and duration how long; for a moving part, make another clip")
            }
            if c["color"] != nil { problems.report("a colour clip has no frame to freeze", at: node.origin) }
        }
        if c["loop"]?.bool == true {
            for key in ["reverse", "speed"] where c[key] != nil && (key == "reverse" ? effects.reverse : effects.ramp != nil) {
                problems.report(key == "reverse" ? "a looping clip cannot be reversed" : "a looping clip cannot have a speed ramp",
                                at: c[key]!.origin, hint: "remove loop: true and place the repeats as clips")
            }
        }
        return effects
    }

    /// `speed: [{at: 0s, value: 1}, {at: 2s, value: 4, ease: ease-in-out}]`: times count from the
    /// clip's start (the clip's length follows from the ramp, so they cannot count from its end).
    private mutating func speedCurve(_ c: NodeCursor) -> SpeedCurve? {
        var points: [SpeedCurve.Point] = []
        for k in c.elements {
            guard let atNode = k["at"], let at = keyframeTime(atNode), let valueNode = k["value"] else { return nil }
            guard case .fromStart(let t) = at else {
                problems.report("a speed keyframe counts from the clip's start: the clip's length follows from the speeds", at: atNode.origin,
                                hint: "write the time from the start of the clip, e.g. at: 2s")
                return nil
            }
            guard let speed = valueNode.rational ?? valueNode.string.flatMap(Rational.init(exactly:)), !speed.isNegative, !speed.isZero else {
                problems.report("a speed must be a positive number", at: valueNode.origin, hint: "to hold a frame, use freeze:")
                return nil
            }
            if limit(ProjectLimits.problem(speed: speed, text: valueNode.scalarText ?? ""), at: valueNode.origin) { return nil }
            if let last = points.last, t < last.time {
                problems.report("speed keyframes out of order: this one is at \(TimeNotation.seconds(t)), after one at \(TimeNotation.seconds(last.time))",
                                at: k.origin, hint: "list keyframes in time order")
                return nil
            }
            points.append(SpeedCurve.Point(time: t, speed: speed, ease: ease(k["ease"]), origin: k.origin))
        }
        return points.isEmpty ? nil : SpeedCurve(points: points)
    }
}
