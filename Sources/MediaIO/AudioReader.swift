internal import CFFmpeg
import MediaTime

/// Decoded audio at an exact source range (AVAssetReader's audio output): interleaved Float32
/// at the caller's sample rate and channel count.
///
/// Sample k of the output is at source time k / sampleRate, counted from the file's time zero
/// (`MediaInfo.timeZero`), the same zero as `VideoReader`, so the streams stay in sync.
/// Encoder delay / priming (AAC, MP3, Opus) and edit lists are applied by FFmpeg's demuxers and
/// decoders (skip samples) before timestamps are read. Before the stream's first sample and
/// after its last, the output is silence. Reading ranges in order decodes forward without
/// seeking; a jump back or more than 5 s forward seeks. Use from one thread at a time.
///
/// @unchecked: it owns FFmpeg contexts and frames (C pointers); one thread at a time uses it.
public final class AudioReader: @unchecked Sendable {
    public let info: MediaInfo
    public let streamIndex: Int
    public let sampleRate: Int
    public let channels: Int
    private let decoder: StreamDecoder
    private let decoded: Frame
    private let resampler: Resampler

    /// Resampled samples (interleaved) not yet returned: `buffer[bufferOffset...]` starts at
    /// output sample `bufferStart`.
    private var buffer: [Float] = []
    private var bufferOffset = 0
    private var bufferStart: Int64 = 0
    /// The output sample position the resampler's next output has; nil until a frame arrives.
    private var anchored = false
    /// Decoding began at the stream's very beginning (on opening, or after seeking to the start).
    private var decodingFromStart = true
    /// The stream's first output sample, once decoded from the start: nothing exists before it.
    private var firstSample: Int64?
    private var finished = false

    /// Decoding a little before a seek target lets decoders that need earlier data (MP3's bit
    /// reservoir, AAC's overlap) settle before the samples that are returned.
    private static let seekPreroll = MediaTime(1, 5)
    private static let seekAheadThreshold = MediaTime(seconds: 5)
    /// Timestamp gaps longer than this are filled with silence.
    private static let gapTolerance = MediaTime(1, 100)

    /// Seeks so far (tests check that sequential reading never seeks).
    private(set) var seekCount = 0

    /// Opens the best audio stream of `path` (or `stream`). Throws `MediaError`.
    public init(path: String, sampleRate: Int, channels: Int, stream: Int? = nil) throws {
        guard (1...768_000).contains(sampleRate), (1...8).contains(channels) else {
            throw MediaError(.invalidArgument, path: path, "audio must be read at 1…768000 Hz and 1…8 channels, not \(sampleRate) Hz \(channels) ch")
        }
        let file = try InputFile(path: path)
        info = try MediaInfo(file)
        guard let index = stream ?? info.bestAudioStream, index < info.streams.count, info.streams[index].kind == .audio else {
            let kinds = info.streams.map(\.kind.rawValue).joined(separator: ", ")
            throw MediaError(.noAudioStream, path: path, stream.map { "stream \($0) is not an audio stream" }
                             ?? "has no audio stream (it has: \(kinds))", stream: stream)
        }
        streamIndex = index
        self.sampleRate = sampleRate
        self.channels = channels
        decoder = try StreamDecoder(file: file, stream: index, threads: 1, timeZero: info.timeZero)
        decoded = try Frame(decoder.site)
        resampler = Resampler(rate: sampleRate, channels: channels, site: decoder.site)
    }

    /// The samples of [range.start, range.end): `round((end − start) × rate)` frames of
    /// `channels` interleaved floats, the first at output sample `round(start × rate)`.
    public func read(range: TimeRange) throws -> [Float] {
        let count = Int((range.duration.value * Rational(sampleRate)).rounded)
        var result = [Float](repeating: 0, count: count * channels)
        try result.withUnsafeMutableBufferPointer {
            try read(from: range.start.samplePosition(rate: sampleRate), count: count, into: $0)
        }
        return result
    }

    /// `count` sample frames from output sample `start` into `output` (at least
    /// `count × channels` floats). Tiling a timeline by sample positions never overlaps or gaps.
    public func read(from start: Int64, count: Int, into output: UnsafeMutableBufferPointer<Float>) throws {
        precondition(count >= 0 && output.count >= count * channels, "output holds \(output.count) floats, \(count * channels) needed")
        let beforeBuffer = start < bufferStart && !(anchored && firstSample == bufferStart)
        if beforeBuffer || (anchored && !finished && start - bufferEnd > Self.seekAheadThreshold.samplePosition(rate: sampleRate))
            || (!anchored && start > Self.seekAheadThreshold.samplePosition(rate: sampleRate)) {
            try seek(toSample: start)
        }
        while bufferEnd < start + Int64(count), !finished { try decodeMore() }
        dropBuffered(before: start)
        // Silence before the stream's first sample (a stream starting after the file's start).
        var written = 0
        let leadingSilence = Int(min(Int64(count), max(0, bufferStart - start)))
        for i in 0..<(leadingSilence * channels) { output[i] = 0 }
        written = leadingSilence
        let available = min(count - written, Int(bufferEnd - (start + Int64(written))))
        if available > 0 {
            buffer.withUnsafeBufferPointer { samples in
                let from = samples.baseAddress! + bufferOffset
                (output.baseAddress! + written * channels).update(from: from, count: available * channels)
            }
            written += available
        }
        for i in (written * channels)..<(count * channels) { output[i] = 0 } // after the end
    }

    private var bufferEnd: Int64 { bufferStart + Int64((buffer.count - bufferOffset) / channels) }

    /// Forgets buffered samples before output sample `position`.
    private func dropBuffered(before position: Int64) {
        let drop = Int(min(max(0, position - bufferStart), bufferEnd - bufferStart))
        bufferOffset += drop * channels
        bufferStart += Int64(drop)
        if bufferOffset > 0, bufferOffset >= buffer.count / 2 { // keep the storage, move the tail down
            buffer.removeFirst(bufferOffset)
            bufferOffset = 0
        }
    }

    /// Seeks to a little before output sample `position` and restarts decoding there.
    private func seek(toSample position: Int64) throws {
        decodingFromStart = try decoder.seek(before: MediaTime.sample(position, rate: sampleRate) - Self.seekPreroll)
        resampler.reset()
        buffer.removeAll(keepingCapacity: true)
        bufferOffset = 0
        bufferStart = position
        anchored = false
        finished = false
        seekCount += 1
    }

    /// Decodes one frame and appends its resampled samples (at the end: the resampler's tail).
    private func decodeMore() throws {
        if try decoder.next(into: decoded) {
            defer { decoded.unref() }
            try append(decoded.pointer)
        } else {
            if anchored { try appendResampled(nil) }
            finished = true
        }
    }

    private func append(_ frame: UnsafeMutablePointer<AVFrame>) throws {
        guard let ticks = Frame.presentationTicks(frame) else { return try appendResampled(frame) }
        let position = decoder.time(ofTicks: ticks).samplePosition(rate: sampleRate)
        if !anchored {
            // The first frame since opening or seeking fixes where output samples land.
            if buffer.count == bufferOffset { bufferStart = position }
            if decodingFromStart { firstSample = position }
            anchored = true
        } else {
            let expected = bufferEnd + Int64(resampler.maximumOutput(for: 0))
            let gap = position - expected
            if gap > Self.gapTolerance.samplePosition(rate: sampleRate) { // missing audio: silence
                buffer.append(contentsOf: repeatElement(0, count: Int(gap) * channels))
            }
        }
        try appendResampled(frame)
    }

    private func appendResampled(_ frame: UnsafeMutablePointer<AVFrame>?) throws {
        let capacity = resampler.maximumOutput(for: Int(frame?.pointee.nb_samples ?? 0)) + 64
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: capacity * channels))
        let written = try buffer.withUnsafeMutableBufferPointer { samples in
            try resampler.convert(frame, into: samples.baseAddress! + oldCount, capacity: capacity)
        }
        buffer.removeLast((capacity - written) * channels)
    }
}
