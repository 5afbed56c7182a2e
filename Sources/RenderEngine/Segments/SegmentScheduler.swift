import Synchronization

/// Hands segments to the workers of one render so that each walks a contiguous run of them:
/// a worker keeps its video readers from one segment to the next (`ReaderShelf`), so the
/// next segment continues decoding where the last one stopped instead of seeking to the
/// keyframe before its first frame and decoding up to it again.
///
/// A worker that finished segment k takes k + 1 when nobody has it. Otherwise it takes the
/// run of segments nobody has that gives it the most to walk: a run no worker is about to
/// walk into from its start, or the far half of one (range splitting: the worker walking
/// into it keeps the near half). Which worker renders what never changes a byte of the output.
final class SegmentScheduler: Sendable {
    private let state: Mutex<Positions>

    /// `indices`: the plan indices of the segments to render, in plan order.
    init(_ indices: [Int]) { state = Mutex(Positions(indices: indices)) }

    /// The plan index a worker renders next, given the one it rendered last (nil for its
    /// first); nil when nothing is left.
    func next(after previous: Int?) -> Int? { state.withLock { $0.next(after: previous) } }
}

/// Which segments are open and which are being rendered, by position in the plan indices.
private struct Positions {
    let indices: [Int]
    /// Positions nobody has taken yet.
    var open: [Bool]
    /// Positions being rendered now, each worker's last one.
    var taken: Set<Int> = []

    init(indices: [Int]) {
        self.indices = indices
        open = Array(repeating: true, count: indices.count)
    }

    mutating func next(after previous: Int?) -> Int? {
        let last = previous.flatMap { indices.firstIndex(of: $0) }
        if let last { taken.remove(last) }
        guard let position = choose(after: last) else { return nil }
        open[position] = false
        taken.insert(position)
        return indices[position]
    }

    private func choose(after last: Int?) -> Int? {
        if let last, last + 1 < open.count, open[last + 1], follows(last + 1, last) {
            return last + 1
        }
        // The run that gives this worker the most segments to walk: a whole run nobody walks
        // into, or the far half of one that a worker walks into (the first of equals).
        var best: (start: Int, count: Int)?
        for run in openRuns() {
            let walkedInto = run.lowerBound > 0 && taken.contains(run.lowerBound - 1) && follows(run.lowerBound, run.lowerBound - 1)
            let start = walkedInto ? run.lowerBound + run.count / 2 : run.lowerBound
            if run.upperBound - start > best?.count ?? 0 { best = (start, run.upperBound - start) }
        }
        return best?.start
    }

    /// Whether the segment at `position` comes right after the one at `previous` in the plan.
    private func follows(_ position: Int, _ previous: Int) -> Bool { indices[position] == indices[previous] + 1 }

    /// The runs of open positions with consecutive plan indices, in order.
    private func openRuns() -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start: Int?
        for position in 0...open.count {
            if let s = start, position == open.count || !open[position] || !follows(position, position - 1) {
                runs.append(s..<position)
                start = nil
            }
            if start == nil, position < open.count, open[position] { start = position }
        }
        return runs
    }
}
