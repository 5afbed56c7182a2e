/// Which rows one of N independent workers renders: row r (numbered from 1) falls to shard
/// (r − 1) mod N, so the N shards cover every row exactly once, each row's shard depends only
/// on its number, and with N equal to the number of rows shard K is row K + 1. Shards count
/// from 0, as Kubernetes' `JOB_COMPLETION_INDEX` does.
public struct BatchShard: Sendable, Equatable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    /// Every row (shard 0 of 1).
    public static let all = BatchShard(index: 0, count: 1)

    public init(index: Int, count: Int) {
        precondition(count >= 1 && (0..<count).contains(index), "shard \(index)/\(count)")
        self.index = index
        self.count = count
    }

    /// Parses `K/N` (0 ≤ K < N); nil with the reason otherwise.
    public static func parse(_ text: String) -> Result<BatchShard, ShardProblem> {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            return .failure(ShardProblem(text: text, reason: .notKOfN))
        }
        guard count >= 1 else { return .failure(ShardProblem(text: text, reason: .noShards)) }
        guard (0..<count).contains(index) else { return .failure(ShardProblem(text: text, reason: .indexOutOfRange(count: count))) }
        return .success(BatchShard(index: index, count: count))
    }

    public func contains(row: Int) -> Bool { (row - 1) % count == index }

    /// The shard a row falls to.
    public func shard(ofRow row: Int) -> Int { (row - 1) % count }

    public var description: String { "\(index)/\(count)" }
}

/// Why a shard's text does not parse; a front end puts `reason` after the name of its input.
public struct ShardProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// Not two whole numbers `K/N`.
        case notKOfN
        /// N < 1.
        case noShards
        /// K outside 0..<N.
        case indexOutOfRange(count: Int)

        public var description: String {
            switch self {
            case .notKOfN: "expected K/N, e.g. 0/4 for the first of 4 shards"
            case .noShards: "the number of shards must be at least 1"
            case .indexOutOfRange(let count): "shards of \(count) are numbered 0 to \(count - 1)"
            }
        }
    }

    /// As given.
    public var text: String
    public var reason: Reason

    /// `shard 2/2: shards of 2 are numbered 0 to 1`.
    public var message: String { "shard \(text): \(reason)" }
    public var description: String { message }
}
