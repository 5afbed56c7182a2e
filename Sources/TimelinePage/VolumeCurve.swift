import CompositionGraph
import MediaTime

/// An audio track's volume ramp as an inline SVG over its row: x in the time area's
/// ten-thousandths of a percent, y from the full gain at the top to silence at the bottom.
enum VolumeCurve {
    /// SVG units of the row's height.
    static let height = 1000
    /// Points sampled inside each eased keyframe segment (linear ones need only their ends).
    static let samplesPerEase = 16

    /// The gain at the top of the row: 1, or more when the curve goes above it.
    static func top(of volume: Animation) -> Double { max(1, volume.keyframes.map(\.value).max() ?? 1) }

    /// The curve over each of `segments` (the parts of the track that play), in one SVG of
    /// CSS class `cssClass` (`volume`, or `duck` for a ducking gain).
    static func svg(_ volume: Animation, over segments: [TimeRange], scale: TimelineScale, class cssClass: String = "volume") -> String {
        let top = top(of: volume)
        var shapes = ""
        for range in segments {
            let points = curve(volume, over: range).map { t, v in
                "\(scale.position(t).units),\(height - Int((min(max(v / top, 0), 1) * Double(height)).rounded()))"
            }
            let line = points.joined(separator: " ")
            let area = "\(scale.position(range.start).units),\(height) " + line + " \(scale.position(range.end).units),\(height)"
            shapes += "<polygon points=\"\(area)\"/><polyline points=\"\(line)\"/>"
        }
        return "<svg class=\"\(cssClass)\" viewBox=\"0 0 \(Percent.full.units) \(height)\" preserveAspectRatio=\"none\" aria-hidden=\"true\">"
            + shapes + "</svg>"
    }

    /// (time, gain) points across `range`: its ends, the keyframes inside it, samples inside
    /// eased keyframe segments and the corner of a hold.
    static func curve(_ volume: Animation, over range: TimeRange) -> [(MediaTime, Double)] {
        let keyframes = volume.keyframes
        var inside: [(MediaTime, Double)] = []
        for (i, k) in keyframes.enumerated() {
            if i > 0 {
                let a = keyframes[i - 1]
                if a.time >= range.end { break }
                if a.time < k.time, k.time > range.start {
                    switch a.ease {
                    case .linear: break
                    case .hold: inside.append((k.time, a.value))
                    default:
                        for s in 1..<samplesPerEase {
                            let t = a.time + (k.time - a.time) * Rational(Int64(s), Int64(samplesPerEase))
                            inside.append((t, volume.value(at: t)))
                        }
                    }
                }
            }
            inside.append((k.time, k.value))
        }
        return [(range.start, volume.value(at: range.start))]
            + inside.filter { $0.0 > range.start && $0.0 < range.end }
            + [(range.end, value(justBefore: range.end, volume))]
    }

    /// The gain as `t` is reached: a step or the end of a hold at `t` has not happened yet.
    static func value(justBefore t: MediaTime, _ volume: Animation) -> Double {
        let keyframes = volume.keyframes
        guard let j = keyframes.firstIndex(where: { $0.time >= t }), j > 0, keyframes[j].time == t else { return volume.value(at: t) }
        return keyframes[j - 1].ease == .hold ? keyframes[j - 1].value : keyframes[j].value
    }
}
