import MediaTime

/// The consecutive decoded frames a `VideoReader` kept on its last jump back, in presentation
/// order: each is shown from its time until the next one's (the last until `end`, or for
/// ever at the end of the stream). Holds at most `capacity` frames: the memory bound of
/// reverse playback is that many decoded pictures (64 × 3 MB at 1080p 4:2:0).
struct RewoundFrames {
    static let capacity = 64

    private var frames: [VideoFrame] = []
    private var end: MediaTime?

    init() {}

    init(frames: [VideoFrame], end: MediaTime?) {
        self.frames = frames
        self.end = end
    }

    /// The kept frame shown at `time`, if the kept frames cover it.
    func frame(at time: MediaTime) -> VideoFrame? {
        guard let first = frames.first, time >= first.time, end.map({ time < $0 }) ?? true else { return nil }
        var low = 0, high = frames.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if frames[middle].time <= time { low = middle } else { high = middle - 1 }
        }
        return frames[low]
    }
}
