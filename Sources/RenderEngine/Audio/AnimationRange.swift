import CompositionGraph
import MediaTime

extension Animation {
    /// True when the value is the same at every time in `[start, end)`.
    func isConstant(from start: MediaTime, to end: MediaTime) -> Bool {
        if isConstant { return true }
        let frames = keyframes
        if end <= frames[0].time || start >= frames[frames.count - 1].time { return true }
        for i in 0..<(frames.count - 1) where frames[i].time <= start && end <= frames[i + 1].time {
            return frames[i].value == frames[i + 1].value || frames[i].ease == .hold
        }
        return false
    }
}
