import CompositionGraph
import MediaTime

/// Decoded video of one file, by source time (sample and hold: the frame shown at `t`).
/// Pictures returned stay unchanged for as long as the caller references them.
protocol VideoFrameSource: AnyObject {
    /// The frame at `t` as BT.709 limited-range 4:2:0, scaled to `width × height`.
    func yuvFrame(at t: MediaTime, width: Int, height: Int) throws -> YUVFrame
    /// The frame at `t` as premultiplied RGBA, scaled to `width × height`.
    func rgbaFrame(at t: MediaTime, width: Int, height: Int) throws -> PremultipliedImage
}

/// Where the rendered frames and samples go.
protocol MediaSink: AnyObject {
    /// A new output frame of the render size, in memory the sink can encode without a copy.
    func makeFrame() throws -> YUVFrame
    /// Frame `index` (presentation time index × frame duration).
    func writeVideo(_ frame: YUVFrame, index: Int64) throws
    /// The next `count` interleaved float frames of audio.
    func writeAudio(_ samples: UnsafePointer<Float>, count: Int) throws
    /// Flushes the encoders and completes the file.
    func finish() throws
    /// Abandons the file (after an error or a cancel).
    func discard()
}

/// What the pipeline opens media with: one factory per kind (the FFmpeg-backed one in
/// production, fakes in tests).
struct MediaAccess {
    /// A reader of the video (or still image) of a file.
    var openVideo: (MediaReference) throws -> VideoFrameSource
    /// A reader of the audio of a file, resampled to `rate` and the output's channels.
    var openAudio: (MediaReference, _ rate: Int) throws -> AudioSampleSource
}
