import CompositionGraph
import MediaTime

/// The AudioMix: every heard audio track of the composition (music tracks and the audio of
/// video clips alike), placed sample-accurately, scaled by its volume ramp per sample, a
/// ducked track also by its `Ducker`'s gain, summed in track order and (unless `softLimits`
/// is false, when the caller levels the mix itself) soft-limited, as interleaved float frames
/// at the output rate. Calls must follow one another in time: the duckers' state runs on.
///
/// A segment over `[at, end)` covers timeline samples `[round(at·rate), round(end·rate))`,
/// its first sample being its source's sample `round(from·readRate)`. A segment played at
/// speed k on a `varispeed` track is read at `readRate = round(rate / k)` and played at
/// `rate`: the whole segment is resampled at once by libswresample (band-limited), so its
/// pitch changes with its speed, like tape. On a `timeDomain` track it is read at `rate` and
/// time-stretched by a `TimeStretcher`, which keeps the pitch. A reversed segment reads its
/// source range mirrored (`ReversedAudioSource`), before any time-stretch.
final class AudioMixer {
    typealias SourceFactory = (MediaReference, _ rate: Int) throws -> AudioSampleSource

    let sampleRate: Int
    let channels: Int
    private let parts: [Part]
    private let makeSource: SourceFactory
    private let softLimits: Bool
    /// Mixed tracks in track order: their parts and ducking.
    private let lanes: [Lane]
    /// One per distinct ducking, shared by the lanes of a ducked track.
    private let duckers: [(ducking: Ducking, ducker: Ducker)]
    /// Open sources, by part index; closed once the mix has passed their part.
    private var open: [Int: AudioSampleSource] = [:]
    private var scratch: UnsafeMutablePointer<Float>
    /// Each lane's samples of the current block, then each ducker's key and gains.
    private var laneBuffers: UnsafeMutablePointer<Float>
    private var keyBuffer: UnsafeMutablePointer<Float>
    private var gainBuffers: UnsafeMutablePointer<Float>
    private var scratchFrames = 0
    /// Called with each ducking's gains for a block (start sample, gains), for a curve of them.
    var observeDucking: ((Ducking, Int64, UnsafeBufferPointer<Float>) -> Void)?

    private struct Lane {
        var trackID: Int
        var parts: [Int]
        /// Index into `duckers`.
        var ducker: Int?
    }

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
        /// Set when the segment plays backwards: its source samples (at `readRate`), mirrored.
        var reversedWindow: (start: Int64, count: Int64)?
    }

    init(graph: CompositionGraph, sampleRate: Int, channels: Int, softLimits: Bool = true, makeSource: @escaping SourceFactory) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.makeSource = makeSource
        self.softLimits = softLimits
        var parts: [Part] = []
        var lanes: [Lane] = []
        var duckers: [(ducking: Ducking, ducker: Ducker)] = []
        for track in graph.composition.tracks where track.kind == .audio {
            guard let mix = graph.audioMix.parameters(for: track.id) else { continue }
            var ducker: Int?
            if let ducking = mix.duck {
                ducker = duckers.firstIndex { $0.ducking == ducking }
                if ducker == nil {
                    duckers.append((ducking, Ducker(ducking, sampleRate: sampleRate, channels: channels)))
                    ducker = duckers.count - 1
                }
            }
            let first = parts.count
            for segment in track.segments {
                guard case .media(let ref, let range)? = segment.content else { continue }
                let speed = segment.timeMapping!.speed
                let stretch = speed != .one && mix.timePitch == .timeDomain ? speed : nil
                let readRate = speed == .one || stretch != nil ? sampleRate : Int((Rational(sampleRate) / speed).rounded)
                let first = segment.target.start.samplePosition(rate: sampleRate)
                let end = segment.target.end.samplePosition(rate: sampleRate)
                guard end > first, readRate > 0 else { continue }
                let sourceFirst = range.start.samplePosition(rate: readRate)
                parts.append(Part(media: ref, firstSample: first, endSample: end,
                                  sourceFirstSample: sourceFirst, readRate: readRate, volume: mix.volume, stretch: stretch,
                                  reversedWindow: segment.reversed ? (sourceFirst, range.end.samplePosition(rate: readRate) - sourceFirst) : nil))
            }
            lanes.append(Lane(trackID: track.id, parts: Array(first..<parts.count), ducker: ducker))
        }
        self.parts = parts
        self.lanes = lanes
        self.duckers = duckers
        scratch = .allocate(capacity: 0)
        laneBuffers = .allocate(capacity: 0)
        keyBuffer = .allocate(capacity: 0)
        gainBuffers = .allocate(capacity: 0)
    }

    deinit {
        for buffer in [scratch, laneBuffers, keyBuffer, gainBuffers] { buffer.deallocate() }
    }

    /// Mixes timeline samples `[start, start + count)` into `out` (count × channels floats).
    func mix(from start: Int64, count: Int, into out: UnsafeMutablePointer<Float>) throws {
        ensureScratch(count)
        let size = count * channels
        var sounding = [Bool](repeating: false, count: lanes.count)
        for (l, lane) in lanes.enumerated() {
            sounding[l] = try mixLane(lane, from: start, count: count, into: laneBuffers + l * size)
        }
        for (d, duck) in duckers.enumerated() {
            keyBuffer.update(repeating: 0, count: size)
            for (l, lane) in lanes.enumerated() where sounding[l] && duck.ducking.keyTrackIDs.contains(lane.trackID) {
                for i in 0..<size { keyBuffer[i] += laneBuffers[l * size + i] }
            }
            let gains = gainBuffers + d * count
            duck.ducker.gains(key: keyBuffer, count: count, into: gains)
            observeDucking?(duck.ducking, start, UnsafeBufferPointer(start: gains, count: count))
        }
        out.update(repeating: 0, count: size)
        for (l, lane) in lanes.enumerated() where sounding[l] {
            let samples = laneBuffers + l * size
            if let d = lane.ducker {
                let gains = gainBuffers + d * count
                for i in 0..<count { for c in 0..<channels { out[i * channels + c] += samples[i * channels + c] * gains[i] } }
            } else {
                for i in 0..<size { out[i] += samples[i] }
            }
        }
        if softLimits { for i in 0..<size { out[i] = SoftLimiter.apply(out[i]) } }
    }

    /// Mixes one track's parts over the block into `out`; false when none plays in it (`out`
    /// is then left as it was).
    private func mixLane(_ lane: Lane, from start: Int64, count: Int, into out: UnsafeMutablePointer<Float>) throws -> Bool {
        let end = start + Int64(count)
        var sounding = false
        for index in lane.parts {
            let part = parts[index]
            if part.endSample <= start { open[index] = nil; continue }
            guard part.firstSample < end else { continue }
            if !sounding { out.update(repeating: 0, count: count * channels) }
            sounding = true
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
        return sounding
    }

    private func accumulate(_ frames: Int, gain: Float, into dst: UnsafeMutablePointer<Float>) {
        guard gain != 0 else { return }
        for i in 0..<(frames * channels) { dst[i] += scratch[i] * gain }
    }

    private func source(_ index: Int, _ part: Part) throws -> AudioSampleSource {
        if let s = open[index] { return s }
        var s = try makeSource(part.media, part.readRate)
        if let window = part.reversedWindow {
            s = ReversedAudioSource(s, start: window.start, count: window.count, channels: channels, rate: part.readRate)
        }
        if let speed = part.stretch {
            s = TimeStretcher(s, channels: channels, sampleRate: sampleRate, origin: part.sourceFirstSample, speed: speed)
        }
        open[index] = s
        return s
    }

    private func ensureScratch(_ frames: Int) {
        guard frames > scratchFrames else { return }
        for buffer in [scratch, laneBuffers, keyBuffer, gainBuffers] { buffer.deallocate() }
        scratch = .allocate(capacity: frames * channels)
        laneBuffers = .allocate(capacity: frames * channels * lanes.count)
        keyBuffer = .allocate(capacity: frames * channels)
        gainBuffers = .allocate(capacity: frames * duckers.count)
        scratchFrames = frames
    }
}
