/// Output frames reused from frame to frame: a frame is handed out again once nobody but
/// the pool holds it (the encoder has consumed it), so a render allocates a few frames in
/// all, however long it is.
final class FramePool {
    private var frames: [YUVFrame] = []
    let width: Int
    let height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    func take() -> YUVFrame {
        for i in frames.indices where isKnownUniquelyReferenced(&frames[i]) { return frames[i] }
        let frame = YUVFrame(width: width, height: height)
        frames.append(frame)
        return frame
    }

    var allocatedCount: Int { frames.count }
}
