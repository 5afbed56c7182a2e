import CompositionGraph
import MediaTime

/// The AudioMix: every heard audio track of the composition (music tracks and the audio of
/// video clips alike), placed sample-accurately, scaled by its volume ramp per sample,
/// summed in track order and soft-limited, as interleaved float frames at the output rate.
///
/// A segment over `[at, end)` covers timeline samples `[round(at·rate), round(end·rate))`,
/// its first sample being its source's sample `round(from·readRate)`. A segment played at
/// speed k on a `varispeed` track is read at `readRate = round(rate / k)` and played at
/// `rate`: the whole segment is resampled at once by libswresample (band-limited), so its
/// pitch changes with its speed, like tape. On a `timeDomain` track it is read at `rate` and
/// time-stretched by a `TimeStretcher`, which keeps the pitch.
final class AudioMixer {
    typealias SourceFactory = (MediaReference, _ rate: Int) throws -> AudioSampleSource

    let sampleRate: Int
    let channels: Int
    private let parts: [Part]
    private let makeSource: SourceFactory
    /// Open sources, by part index; closed once the mix has passed their part.
    private var open: [Int: AudioSampleSource] = [:]
    private var scratch: UnsafeMutablePointer<Float>
    private var scratchFrames = 0

    /// One audible segment of one track.
    private struct Part {
        var media: MediaReference
        var firstSample: Int64
        var endSample: Int64
        var sourceFirstSample: Int64
        var readRate: Int
        var volume: Animation
        /// Set when the segment is time-stretched (played at another speed, keeping its pitch).
        var stretch: Rational?
    }

    init(graph: CompositionGraph, sampleRate: Int, channels: Int, makeSource: @escaping SourceFactory) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.makeSource = makeSource
        var parts: [Part] = []
        for track in graph.composition.tracks where track.kind == .audio {
            guard let mix = graph.audioMix.parameters(for: track.id) else { continue }
            for segment in track.segments {
                guard case .media(let ref, let range)? = segment.content else { continue }
                let speed = segment.timeMapping!.speed
                let stretch = speed != .one && mix.timePitch == .timeDomain ? speed : nil
                let readRate = speed == .one || stretch != nil ? sampleRate : Int((Rational(sampleRate) / speed).rounded)
                let first = segment.target.start.samplePosition(rate: sampleRate)
                let end = segment.target.end.samplePosition(rate: sampleRate)
                guard end > first, readRate > 0 else { continue }
                parts.append(Part(media: ref, firstSample: first, endSample: end,
                                  sourceFirstSample: range.start.samplePosition(rate: readRate), readRate: readRate, volume: mix.volume,
                                  stretch: stretch))
            }
        }
        self.parts = parts
        scratch = .allocate(capacity: 0)
    }

    deinit { scratch.deallocate() }

    /// Mixes timeline samples `[start, start + count)` into `out` (count × channels floats).
    func mix(from start: Int64, count: Int, into out: UnsafeMutablePointer<Float>) throws {
        out.update(repeating: 0, count: count * channels)
        ensureScratch(count)
        let end = start + Int64(count)
        for (index, part) in parts.enumerated() {
            if part.endSample <= start { open[index] = nil; continue }
            guard part.firstSample < end else { continue }
            let s0 = max(start, part.firstSample), s1 = min(end, part.endSample)
            let n = Int(s1 - s0), position = part.sourceFirstSample + (s0 - part.firstSample)
            do {
                try source(index, part).read(from: position, count: n, into: scratch)
            } catch {
                throw RenderError.media(path: part.media.path, sourceTime: .sample(position, rate: part.readRate),
                                        timelineTime: .sample(s0, rate: sampleRate), reason: "\(error)")
            }
            let dst = out + Int(s0 - start) * channels
            let t0 = MediaTime.sample(s0, rate: sampleRate), t1 = MediaTime.sample(s1, rate: sampleRate)
            if part.volume.isConstant(from: t0, to: t1) {
                accumulate(n, gain: Float(part.volume.value(at: t0)), into: dst)
            } else {
                for i in 0..<n {
                    let gain = Float(part.volume.value(at: .sample(s0 + Int64(i), rate: sampleRate)))
                    for c in 0..<channels { dst[i * channels + c] += scratch[i * channels + c] * gain }
                }
            }
            if part.endSample <= end { open[index] = nil }
        }
        for i in 0..<(count * channels) { out[i] = SoftLimiter.apply(out[i]) }
    }

    private func accumulate(_ frames: Int, gain: Float, into dst: UnsafeMutablePointer<Float>) {
        guard gain != 0 else { return }
        for i in 0..<(frames * channels) { dst[i] += scratch[i] * gain }
    }

    private func source(_ index: Int, _ part: Part) throws -> AudioSampleSource {
        if let s = open[index] { return s }
        var s = try makeSource(part.media, part.readRate)
        if let speed = part.stretch {
            s = TimeStretcher(s, channels: channels, sampleRate: sampleRate, origin: part.sourceFirstSample, speed: speed)
        }
        open[index] = s
        return s
    }

    private func ensureScratch(_ frames: Int) {
        guard frames > scratchFrames else { return }
        scratch.deallocate()
        scratch = .allocate(capacity: frames * channels)
        scratchFrames = frames
    }
}
