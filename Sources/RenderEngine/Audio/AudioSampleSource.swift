/// Decoded audio of one media file, resampled to a fixed rate and to the output's channel
/// layout, read as interleaved 32-bit float frames by sample position (position p is source
/// time p / rate). Reads are mostly sequential; a jump may seek.
protocol AudioSampleSource: AnyObject {
    /// Reads frames `[position, position + count)` into `buffer` (count × channels floats);
    /// frames past the end of the media are silence.
    func read(from position: Int64, count: Int, into buffer: UnsafeMutablePointer<Float>) throws
}
