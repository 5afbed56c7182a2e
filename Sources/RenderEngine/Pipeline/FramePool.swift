/// Output frames reused from frame to frame: a frame is handed out again once nobody but
/// the pool holds it (the encoder has consumed it), so a render allocates a few frames in
/// all, however long it is.
final class FramePool {
    private var frames: [YUVFrame] = []
    let width: Int
    let height: Int
    private let allocate: () throws -> YUVFrame

    /// A pool of `width × height` frames made by `allocate` (by default plain `YUVFrame`s).
    init(width: Int, height: Int, allocate: (() throws -> YUVFrame)? = nil) {
        self.width = width
        self.height = height
        self.allocate = allocate ?? { YUVFrame(width: width, height: height) }
    }

    func take() throws -> YUVFrame {
        for i in frames.indices where isKnownUniquelyReferenced(&frames[i]) { return frames[i] }
        let frame = try allocate()
        frames.append(frame)
        return frame
    }

    var allocatedCount: Int { frames.count }
}
