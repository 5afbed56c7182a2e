import AtomicFiles
import CompositionGraph
import Digest
import Foundation
import MediaIO
import MediaTime
import ReelVersion
import Synchronization

/// What an export is asked for, beyond the graph.
public struct ExportOptions: Sendable {
    /// Where to write; the container is the graph's `output.container`, else the one the
    /// file's extension names.
    public var outputPath: String
    /// The part of the timeline to render (AVAssetExportSession.timeRange); nil: all of it.
    public var range: TimeRange?
    /// Threads per video decoder (at least 1); the pictures, and so the file, are the same for
    /// any count.
    public var decoderThreads: Int
    public var preset: ExportPreset?
    /// Segments rendered at the same time (at least 1); the file is the same for any count.
    public var jobs: Int
    /// Where the rendered segments (parts) are kept: a cache shared by renders, which reuse a
    /// part whose content key they need; nil: a temporary folder beside the output, removed
    /// once the file is joined (its parts are named by the files' stamps, not their bytes).
    public var partsFolder: String?
    /// The most a cache folder may hold; the parts used longest ago go first.
    public var cacheLimit: Int64

    public init(outputPath: String, range: TimeRange? = nil, decoderThreads: Int = ExportOptions.defaultThreads, preset: ExportPreset? = nil, jobs: Int = 1,
                partsFolder: String? = nil, cacheLimit: Int64 = 4 << 30) {
        precondition(decoderThreads >= 1 && jobs >= 1, "decoder threads and jobs must be at least 1")
        self.outputPath = outputPath
        self.range = range
        self.decoderThreads = decoderThreads
        self.preset = preset
        self.jobs = jobs
        self.partsFolder = partsFolder
        self.cacheLimit = cacheLimit
    }

    /// Threads per video decoder by default: one. Segments render in parallel already, and a
    /// decoder's frame threads cost it about a sixth more CPU (docs/render.md, *Measured*).
    public static let defaultThreads = 1
}

/// Reel's AVAssetExportSession: checks everything, renders the video in segments (each on its
/// own through decoding, compositing and overlays into its own encoder, several at once), then
/// joins their packets without re-encoding into the output file with the mix of the whole
/// range's audio. The bytes depend on the graph, the media and Reel's version only.
///
/// The file appears only when complete: it is written to a temporary file next to it and
/// renamed at the end; on an error or a cancel the temporary file is removed and an existing
/// file at the output path is left as it was. Parts are written the same way, so a killed
/// worker leaves none that a join accepts.
public final class ExportSession: Sendable {
    public let graph: CompositionGraph
    public let options: ExportOptions
    public let plan: SegmentPlan
    private let partsFolder: String
    private let keepsParts: Bool
    private let digests: MediaDigests
    /// The pipelines rendering now, and whether `cancel()` was called.
    private let running = Mutex<(pipelines: [RenderPipeline], cancelled: Bool)>(([], false))
    /// The loudness of the unleveled mix of the plan's range, once measured (the inner nil:
    /// silent); held while it is measured, so it is measured once.
    private let measuredLoudness = Mutex<Double??>(nil)

    /// What a run did with the segments and the audio, and with the loudness when the output
    /// asks for one.
    public struct Report: Sendable, Equatable {
        public var rendered: [Int]
        public var reused: [Int]
        public var loudness: LoudnessReport?
        /// What the join did with the audio (nil: the output has none).
        public var audio: AudioWork?
    }

    /// Whether a join mixed and encoded its audio, or reused what an earlier join kept.
    public enum AudioWork: Sendable, Equatable {
        case mixed, reused
    }

    /// What a join did.
    private struct Joined {
        var loudness: LoudnessReport?
        var audio: AudioWork?
    }

    /// Applies the preset, checks the range (nil: the whole timeline) and plans the segments
    /// (reading the digest of every file the graph uses). Throws `RenderError`.
    public init(graph: CompositionGraph, options: ExportOptions) throws(RenderError) {
        self.graph = (options.preset.map { $0.apply(to: graph) } ?? graph).withinGIFLimits()
        self.options = options
        let range = options.range ?? TimeRange(start: .zero, duration: self.graph.duration)
        guard !range.isEmpty, !range.start.isNegative, range.end <= self.graph.duration else {
            throw .invalidSettings("nothing to render: the range \(range) is empty or outside the timeline [0, \(self.graph.duration))")
        }
        try MediaValidation.check(self.graph)
        keepsParts = options.partsFolder != nil
        partsFolder = options.partsFolder ?? PartialFolder.path(for: options.outputPath)
        digests = MediaDigests(file: options.partsFolder.map { URL(fileURLWithPath: $0).appendingPathComponent("digests.json").path })
        do {
            // Kept parts are named by the media's bytes; parts that live for this render only
            // by the files' stamps (no need to read every file's bytes first).
            plan = try SegmentPlan(graph: self.graph, range: range, identity: keepsParts ? digests.digest(of:) : MediaDigests.stamp(of:),
                                   version: ReelVersion.current)
        } catch {
            throw .invalidSettings("cannot read a file the project uses: \(error)")
        }
    }

    /// Frames the output will have.
    public var frameCount: Int64 { plan.segments.reduce(0) { $0 + $1.frameCount } }

    /// The part file of a segment.
    public func partPath(_ segment: SegmentPlan.Segment) -> String { PartFile.path(key: segment.key, in: partsFolder) }

    /// Renders the segments that have no part yet (`jobs` at once) and joins them into the
    /// output as they arrive in order, so the join and the audio overlap the rendering. `progress`
    /// gets the frames done so far (reused segments count at once), from any thread, one call
    /// at a time. Throws `RenderError`.
    @discardableResult
    public func run(progress: @escaping @Sendable (Int64) -> Void = { _ in }) throws -> Report {
        let temporaryParts = try claimPartsFolder()
        defer { temporaryParts?.remove() }
        let missing = plan.segments.filter { (try? PartFile.read(partPath($0), key: $0.key)) == nil }
        let missingIndices = Set(missing.map(\.index))
        let reused = plan.segments.filter { !missingIndices.contains($0.index) }
        let counter = FrameCounter(start: reused.reduce(0) { $0 + $1.frameCount }, report: progress)
        let arrivals = PartArrivals(present: reused.map(\.index))
        let workers = startWorkers(missing, counter: counter, arrivals: arrivals)
        let joined: Joined
        do {
            joined = try join(plan.segments, range: plan.range, to: options.outputPath, waitingFor: arrivals)
        } catch {
            // A worker's failure that stopped the join, else the join's own (the output cannot
            // be written: found before any frame is rendered, since the join opens it first).
            let workerFailure = arrivals.failure
            cancel()
            workers.wait()
            throw workerFailure ?? error
        }
        workers.wait()
        if keepsParts {
            digests.save()
            PartCache(folder: partsFolder, limit: options.cacheLimit).touch(reused.map(partPath)).evict()
        }
        return Report(rendered: missing.map(\.index), reused: reused.map(\.index), loudness: joined.loudness, audio: joined.audio)
    }

    /// Renders segment `index` into its part, unless a complete part with its key is there
    /// (idempotent; the part appears whole or not at all). Throws `RenderError`.
    public func renderSegment(_ index: Int, progress: @escaping @Sendable (Int64) -> Void = { _ in }) throws {
        precondition(plan.segments.indices.contains(index), "segment \(index) of \(plan.segments.count)")
        let segment = plan.segments[index]
        try makePartsFolder()
        if (try? PartFile.read(partPath(segment), key: segment.key)) != nil { return }
        try renderPart(segment, counter: FrameCounter(start: 0, report: progress))
        digests.save()
    }

    /// Joins the parts of every segment into the output file with the audio of the range,
    /// after checking that each part is there, complete and made for this plan; returns what
    /// loudness normalization did, if the output asks for it. Throws `RenderError`.
    @discardableResult
    public func join() throws -> LoudnessReport? {
        try join(plan.segments, range: plan.range, to: options.outputPath, waitingFor: nil).loudness
    }

    /// The file of segment `index` alone, as a preview plays it: its video (its part, rendered
    /// first unless there) and the mix of the audio over its time range, from time 0, as
    /// fragmented MP4 (what a Media Source Extensions player appends). Kept in the parts
    /// folder under the segment's video and audio keys, so an edit that leaves both alone
    /// reuses it. Appears whole or not at all. Returns its path; throws `RenderError`.
    public func piece(_ index: Int) throws -> String {
        let segment = plan.segments[index]
        if let path = existingPiece(index) { return path }
        let path = piecePath(segment)
        try renderSegment(index)
        try join([segment], range: segment.timeRange, to: path, fragmented: true, waitingFor: nil)
        PartCache(folder: partsFolder, limit: options.cacheLimit).touch([partPath(segment)]).evict()
        return path
    }

    /// The path of segment `index`'s piece when it is made already (marked as just used).
    public func existingPiece(_ index: Int) -> String? {
        let path = piecePath(plan.segments[index])
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        _ = PartCache(folder: partsFolder, limit: options.cacheLimit).touch([path])
        return path
    }

    private func piecePath(_ segment: SegmentPlan.Segment) -> String {
        URL(fileURLWithPath: partsFolder).appendingPathComponent(segment.pieceKey + PartCache.pieceSuffix).path
    }

    /// Joins `segments` (in order, covering `range`) with the audio of `range` into `path`;
    /// with `arrivals`, each part is waited for until a worker has made it. With a loudness
    /// target, the audio is leveled by the gain measured over the plan's whole range (so a
    /// preview's piece has the gain of the whole).
    @discardableResult
    private func join(_ segments: [SegmentPlan.Segment], range: TimeRange, to path: String, fragmented: Bool = false,
                      waitingFor arrivals: PartArrivals?) throws -> Joined {
        var settings = try WriterSettings(graph, path: path, threads: SegmentPlan.encoderThreads)
        settings.fragmented = fragmented
        if settings.container.holdsPicturesOnly {
            try joinPictures(segments, settings: settings, to: path, waitingFor: arrivals)
            return Joined()
        }
        let writer: MediaWriter
        do {
            writer = try MediaWriter(path: path, settings: settings, encodedVideo: true, encodedAudio: true)
        } catch let error as MediaError where error.kind == .writingFailed {
            throw RenderError.unwritable(path: path, reason: error.message)
        } catch {
            throw RenderError.invalidSettings("output \(path): \(error)")
        }
        var keeping: PartFile.Writer?
        do {
            let audio = graph.hasAudio ? try joinAudio(range, settings: settings, path: path, keeps: keepsParts && !fragmented, keeping: &keeping) : nil
            defer { audio?.cancel() }
            let first = segments.first?.firstFrame ?? 0
            for segment in segments {
                try arrivals?.wait(for: segment.index)
                let packets = try checkedPart(segment, extradata: writer.videoExtradata)
                for packet in packets {
                    try writer.append(encoded: packet, offset: segment.firstFrame - first)
                    // Audio up to the end of the frame, so the muxer gets both streams in step.
                    try audio?.write(until: .frame(segment.firstFrame + max(packet.pts, packet.dts) + 1, duration: graph.videoComposition.frameDuration), to: writer)
                }
            }
            let report = try audio?.finish(to: writer)
            try writer.finish()
            if let keeping {
                // Keeping the audio for the next render is worth no failure of this one.
                do {
                    try keeping.append(note: Array(try JSONEncoder().encode(KeptAudioNote(loudness: report ?? nil))))
                    try keeping.finish()
                } catch {
                    keeping.discard()
                }
            }
            return Joined(loudness: report ?? nil, audio: audio.map { $0.isKept ? .reused : .mixed })
        } catch {
            keeping?.discard()
            writer.cancel()
            if let error = error as? RenderError { throw error }
            throw RenderError.output(path: path, reason: "\(error)")
        }
    }

    /// The audio of a join: with `keeps`, the packets an earlier join of the same audio kept in
    /// the parts folder (a part under the key of the range's mix and the container), else the
    /// mix encoded ahead, kept through `keeping` (which the join finishes once the file is
    /// written).
    private func joinAudio(_ range: TimeRange, settings: WriterSettings, path: String, keeps: Bool,
                           keeping: inout PartFile.Writer?) throws -> AudioAhead<LoudnessReport?> {
        let encoder = try AudioPacketEncoder(settings: settings, path: path)
        guard keeps else { return mixAhead(range, encoder: encoder, keep: nil) }
        var hash = SHA256()
        hash.update("reel-join-audio-1\n\(plan.audioKey)\n\(settings.container.rawValue)\n")
        let key = hash.hexDigest()
        let partPath = PartFile.audioPath(key: key, in: partsFolder)
        if let kept = try? PartFile.Checked(partPath, key: key), kept.header.extradata == encoder.extradata,
           let note = kept.note.flatMap({ try? JSONDecoder().decode(KeptAudioNote.self, from: Data($0) as Data) }) {
            _ = PartCache(folder: partsFolder, limit: options.cacheLimit).touch([partPath])
            return AudioAhead(range: range, sampleRate: graph.output.audio.sampleRate, kept: { take in
                try kept.readAgain { record in
                    guard case .audio(let packet) = record else { throw RenderError.partUnusable("the kept audio", path: partPath, reason: "it holds video") }
                    try take(packet)
                }
            }, outcome: note.loudness)
        }
        // Another render may be keeping the same audio right now: then this one keeps nothing.
        let writer = try? PartFile.Writer(path: partPath, header: .init(key: key, firstFrame: 0, frameCount: 0, extradata: encoder.extradata))
        keeping = writer
        var keep: (@Sendable (EncodedAudioPacket) -> Void)?
        // A part that cannot be written (a full disk) is dropped, never the render: once
        // discarded, its later writes and its finish fail, and the join discards it again.
        if let writer { keep = { if (try? writer.append(audio: $0)) == nil { writer.discard() } } }
        return mixAhead(range, encoder: encoder, keep: keep)
    }

    /// The mix of `range`, encoded on its own thread ahead of the join (`AudioAhead`). With a
    /// loudness target it is leveled by the gain measured over the plan's whole range, and
    /// the thread's outcome is the report of the levels.
    private func mixAhead(_ range: TimeRange, encoder: AudioPacketEncoder,
                          keep: (@Sendable (EncodedAudioPacket) -> Void)?) -> AudioAhead<LoudnessReport?> {
        AudioAhead(range: range, sampleRate: graph.output.audio.sampleRate, encoder: encoder, keep: keep) { [self] encode in
            let channels = graph.output.audio.channels
            let access = MediaAccess.mediaIO(channels: channels, decoderThreads: options.decoderThreads)
            let target = graph.output.audio.loudness
            let measured = try target.map { _ in try measuredMix(access) }
            let gain = target.map { LoudnessNormalization.gain(measured: measured ?? nil, target: $0) } ?? 0
            let leveling = target.map { LoudnessNormalization.leveling(gain: gain, target: $0) }
            let feed = AudioFeed(graph: graph, range: range, blockSize: 1024, leveling: leveling, open: access.openAudio) { samples, count in
                try encode(UnsafeBufferPointer(start: samples, count: count * channels))
            }
            try feed.write(until: range.end)
            guard let target, let meter = feed.meter else { return nil }
            return LoudnessReport(target: target, measured: measured ?? nil, gain: gain, output: meter.integrated,
                                  outputTruePeak: meter.truePeakDecibels)
        }
    }

    /// Joins the parts of a GIF, APNG or image sequence (`PictureOutput`); no audio.
    private func joinPictures(_ segments: [SegmentPlan.Segment], settings: WriterSettings, to path: String,
                              waitingFor arrivals: PartArrivals?) throws {
        do {
            try PictureOutput.write(settings, to: path) { each in
                for segment in segments {
                    try arrivals?.wait(for: segment.index)
                    // Pictures coded one a packet have no global header.
                    for packet in try checkedPart(segment, extradata: []) { try each(packet) }
                }
            }
        } catch let error as RenderError {
            throw error
        } catch {
            throw RenderError.output(path: path, reason: "\(error)")
        }
    }

    /// The loudness of the unleveled mix of the plan's range (nil: silent), measured once.
    private func measuredMix(_ access: MediaAccess) throws -> Double? {
        try measuredLoudness.withLock { known in
            if let known { return known }
            let measured = try LoudnessNormalization.measure(graph, range: plan.range, open: access.openAudio) { isCancelled }
            known = .some(measured)
            return measured
        }
    }

    /// The integrated loudness (LUFS) of the mix of `range` before any leveling, as the join
    /// mixes it; nil: silent. For a review of two versions' sound (`reel diff --html`).
    public func loudness(of range: TimeRange) throws -> Double? {
        let access = MediaAccess.mediaIO(channels: graph.output.audio.channels, decoderThreads: options.decoderThreads)
        return try LoudnessNormalization.measure(graph, range: range, open: access.openAudio) { isCancelled }
    }

    /// Stops a running render within a frame or two (safe from any thread or a signal handler's queue).
    public func cancel() {
        let pipelines: [RenderPipeline] = running.withLock {
            $0.cancelled = true
            return $0.pipelines
        }
        for pipeline in pipelines { pipeline.cancel() }
    }

    /// Whether `cancel()` was called: the session renders nothing more.
    public var isCancelled: Bool { running.withLock { $0.cancelled } }

    // MARK: Rendering segments

    private func makePartsFolder() throws {
        do {
            try Folders.make(partsFolder)
        } catch {
            throw RenderError.unwritable(path: partsFolder, reason: "\(error) (where the rendered segments go)")
        }
    }

    /// The parts folder for a run: the one the options give, made if missing (nil returned), or
    /// this run's own temporary folder beside the output, claimed for the run. A second render
    /// of the same output meanwhile is refused before it renders anything and leaves the folder
    /// alone, so the first one's parts stay until its join.
    private func claimPartsFolder() throws -> PartialFolder? {
        guard !keepsParts else {
            try makePartsFolder()
            return nil
        }
        do {
            return try PartialFolder(output: options.outputPath)
        } catch {
            throw RenderError.unwritable(path: options.outputPath, reason: error.message)
        }
    }

    /// Renders `segments` with `options.jobs` workers, each walking a contiguous run of them
    /// with its readers kept open from one segment to the next (`SegmentScheduler`), telling
    /// `arrivals` of each part made; the first failure stops the others. Wait on the group returned.
    private func startWorkers(_ segments: [SegmentPlan.Segment], counter: FrameCounter, arrivals: PartArrivals) -> DispatchGroup {
        let scheduler = SegmentScheduler(segments.map(\.index))
        let group = DispatchGroup()
        for _ in 0..<min(options.jobs, segments.count) {
            group.enter()
            let thread = Thread { [self] in
                defer { group.leave() }
                let shelf = ReaderShelf()
                var last: Int?
                while arrivals.failure == nil, let index = scheduler.next(after: last) {
                    last = index
                    do {
                        try renderPart(plan.segments[index], counter: counter, shelf: shelf)
                        arrivals.arrived(index)
                    } catch {
                        arrivals.fail(error)
                        cancel()
                    }
                }
            }
            thread.stackSize = 1 << 22
            thread.start()
        }
        return group
    }

    private func renderPart(_ segment: SegmentPlan.Segment, counter: FrameCounter, shelf: ReaderShelf? = nil) throws {
        // Another render sharing the cache may be making this very part: wait, then use it.
        let path = partPath(segment)
        var made: PartSink?
        while made == nil {
            PartialFile.waitForWriter(of: path)
            if (try? PartFile.read(path, key: segment.key)) != nil {
                counter.add(segment.frameCount)
                return
            }
            do {
                made = try PartSink(graph: graph, segment: segment, path: path)
            } catch where PartialFile.isBeingWritten(path) {
                continue // it started between the look and the lock
            }
        }
        guard let sink = made else { return }
        let config = RenderPipeline.Configuration(graph: graph, range: segment.timeRange, mixesAudio: false)
        let pipeline = RenderPipeline(config, access: .mediaIO(channels: graph.output.audio.channels, decoderThreads: options.decoderThreads),
                                      sink: sink, overlays: try OverlayBridge.make(graph: graph), shelf: shelf)
        let alreadyCancelled: Bool = running.withLock {
            $0.pipelines.append(pipeline)
            return $0.cancelled
        }
        defer { running.withLock { $0.pipelines.removeAll { $0 === pipeline } } }
        if alreadyCancelled { pipeline.cancel() }
        var done: Int64 = 0
        do {
            try pipeline.run { frames in
                counter.add(frames - done)
                done = frames
            }
        } catch {
            sink.discard()
            throw error
        }
    }

    /// The packets of a segment's part, checked to be there, whole and made for this plan and
    /// these settings.
    private func checkedPart(_ segment: SegmentPlan.Segment, extradata: [UInt8]) throws -> [EncodedPacket] {
        let path = partPath(segment)
        let place = "segment \(segment.index) (frames \(segment.firstFrame)–\(segment.firstFrame + segment.frameCount - 1), "
            + "\(TimeNotation.clock(segment.timeRange.start))–\(TimeNotation.clock(segment.timeRange.end)))"
        do {
            let (header, packets) = try PartFile.read(path, key: segment.key)
            guard header.frameCount == segment.frameCount, header.firstFrame == segment.firstFrame, header.extradata == extradata,
                  packets.first?.isKeyframe == true else {
                throw RenderError.partUnusable(place, path: path, reason: "it was made with other settings")
            }
            return packets
        } catch let problem as PartFile.Problem {
            switch problem {
            case .missing: throw RenderError.partMissing(place, path: path)
            case .damaged(let why): throw RenderError.partUnusable(place, path: path, reason: why)
            case .foreign(_, let found): throw RenderError.partUnusable(place, path: path, reason: "it holds other content (key \(found.prefix(12))…)")
            }
        }
    }
}

/// Frames done across workers, reported one call at a time.
private final class FrameCounter: Sendable {
    /// Held while reporting, so reports come one at a time and in order.
    private let done: Mutex<Int64>
    private let report: @Sendable (Int64) -> Void

    init(start: Int64, report: @escaping @Sendable (Int64) -> Void) {
        done = Mutex(start)
        self.report = report
        if start > 0 { report(start) }
    }

    func add(_ frames: Int64) {
        done.withLock { done in
            done += frames
            report(done)
        }
    }
}

/// Which parts the workers have made, for a join that takes them in order as they come;
/// the first failure of a worker ends every wait.
/// @unchecked: its state is used only under `condition` (an `NSCondition`: the join waits on it).
private final class PartArrivals: @unchecked Sendable {
    private let condition = NSCondition()
    private var made: Set<Int>
    private var firstError: Error?

    init(present: [Int]) { made = Set(present) }

    var failure: Error? { condition.withLock { firstError } }

    func arrived(_ index: Int) {
        condition.withLock {
            made.insert(index)
            condition.broadcast()
        }
    }

    func fail(_ error: Error) {
        condition.withLock {
            if firstError == nil { firstError = error }
            condition.broadcast()
        }
    }

    /// Returns once part `index` is made; throws the workers' first error instead.
    func wait(for index: Int) throws {
        try condition.withLock {
            while !made.contains(index) {
                if let firstError { throw firstError }
                condition.wait()
            }
        }
    }
}

/// What a kept join audio part ends with: the loudness report of its mix.
private struct KeptAudioNote: Codable {
    var loudness: LoudnessReport?
}
