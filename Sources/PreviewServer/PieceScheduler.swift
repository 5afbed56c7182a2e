import Foundation

/// Makes the playback pieces (one segment each, as fragmented MP4) on one worker thread, so
/// rendering never takes more than its share of the cores from the stills and the page.
/// Pieces a page waits for come first; then the ones ahead of its playhead, asked for in the
/// background. A new generation drops the background work of the old one (its session is
/// cancelled by whoever replaced it).
///
/// @unchecked: its state is used only under `condition` (an `NSCondition`: the worker waits).
final class PieceScheduler: @unchecked Sendable {
    /// How many segments from the playhead on are made ahead of time.
    static let ahead = 3

    private struct Job {
        let generation: PreviewGeneration
        let index: Int
        var waiting: [CheckedContinuation<String, any Error>]
    }

    private let condition = NSCondition()
    private var urgent: [Job] = []
    private var background: [Job] = []
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)
    private let log: @Sendable (String) -> Void

    init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
        let thread = Thread { self.work() } // until stop()
        thread.stackSize = 1 << 22
        thread.start()
    }

    /// The path of piece `index` of `generation`, made now unless it is made already.
    func piece(_ generation: PreviewGeneration, _ index: Int) async throws -> String {
        if let path = generation.playback.existingPiece(index) { return path }
        return try await withCheckedThrowingContinuation { continuation in
            condition.withLock {
                guard !stopped else { return continuation.resume(throwing: CancellationError()) }
                if let i = urgent.firstIndex(where: { $0.generation === generation && $0.index == index }) {
                    urgent[i].waiting.append(continuation)
                } else {
                    background.removeAll { $0.generation === generation && $0.index == index }
                    urgent.append(Job(generation: generation, index: index, waiting: [continuation]))
                }
                condition.signal()
            }
        }
    }

    /// Makes the pieces from segment `index` on, `ahead` of them, in the background, instead
    /// of whatever background work was asked for before.
    func prefetch(_ generation: PreviewGeneration, from index: Int) {
        let wanted = Array(index..<min(index + Self.ahead, generation.segments.count))
        condition.withLock {
            background = wanted.filter { i in !urgent.contains { $0.generation === generation && $0.index == i } }
                .map { Job(generation: generation, index: $0, waiting: []) }
            condition.signal()
        }
    }

    /// Stops the worker after the piece it is making (cancel that generation's session to
    /// stop sooner); waiting pages get a cancellation. Returns when the worker has ended.
    func stop() {
        let waiting: [CheckedContinuation<String, any Error>] = condition.withLock {
            stopped = true
            let jobs = urgent
            urgent = []
            background = []
            condition.signal()
            return jobs.flatMap(\.waiting)
        }
        for continuation in waiting { continuation.resume(throwing: CancellationError()) }
        done.wait()
    }

    private func work() {
        defer { done.signal() }
        while let job = next() {
            let result = Result { try job.generation.playback.piece(job.index) }
            if case .failure(let error) = result, !(error is CancellationError), !job.generation.playback.isCancelled {
                log("error: the preview of segment \(job.index) failed: \(error)")
            }
            let waiting: [CheckedContinuation<String, any Error>] = condition.withLock {
                guard let i = urgent.firstIndex(where: { $0.generation === job.generation && $0.index == job.index }) else { return [] }
                return urgent.remove(at: i).waiting
            }
            for continuation in waiting { continuation.resume(with: result) }
        }
    }

    /// The next job, urgent first (it stays listed until done, so later askers join it).
    private func next() -> Job? {
        condition.withLock {
            while !stopped {
                if let job = urgent.first { return job }
                if !background.isEmpty {
                    let job = background.removeFirst()
                    if job.generation.playback.existingPiece(job.index) == nil, !job.generation.playback.isCancelled { return job }
                    continue
                }
                condition.wait()
            }
            return nil
        }
    }
}
