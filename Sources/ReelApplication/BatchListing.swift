import Batch
import Foundation
import ProjectFile

/// A batch's rows as planned (`reel batch --plan`): what the batch (or its shard) would render,
/// in row order, as text or JSON.
public struct BatchListing: Encodable {
    public struct Row: Encodable, Sendable {
        public var row: Int
        /// Null when the batch is not sharded.
        public var shard: Int?
        /// The project's rendition this entry makes (absent for a project without renditions).
        public var rendition: String?
        public var output: String?
        public var key: String?
        /// `render`, `up to date` or `invalid`.
        public var status: String
        public var exitStatus: Int32?
        public var errors: [String]?

        private enum CodingKeys: String, CodingKey { case row, shard, rendition, output, key, status, exitStatus, errors }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(row, forKey: .row)
            try c.encode(shard, forKey: .shard) // null, not left out
            try c.encodeIfPresent(rendition, forKey: .rendition)
            try c.encodeIfPresent(output, forKey: .output)
            try c.encodeIfPresent(key, forKey: .key)
            try c.encode(status, forKey: .status)
            try c.encodeIfPresent(exitStatus, forKey: .exitStatus)
            try c.encodeIfPresent(errors, forKey: .errors)
        }
    }

    public var rowCount: Int
    public var shards: Int
    /// Null when the batch is not sharded.
    public var shard: Int?
    public var rows: [Row]
    /// The batch's warnings (ignored columns), rendered.
    public var warnings: [String]

    private enum CodingKeys: String, CodingKey { case rowCount, shards, shard, rows, warnings }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rowCount, forKey: .rowCount)
        try c.encode(shards, forKey: .shards)
        try c.encode(shard, forKey: .shard)
        try c.encode(rows, forKey: .rows)
        try c.encode(warnings, forKey: .warnings)
    }

    /// `exitStatus` is the front end's status for a rejected row's error.
    public init(plan: BatchPlan, rowCount: Int, shard: BatchShard?, force: Bool, sources: [SourceText],
                exitStatus: (ProjectError) -> Int32) {
        let shards = shard ?? .all
        func shardOf(_ row: Int) -> Int? { shard == nil ? nil : shards.shard(ofRow: row) }
        var rows = plan.jobs.map { job in
            Row(row: job.row, shard: shardOf(job.row), rendition: job.rendition, output: job.outputPath, key: job.contentHash,
                status: !force && BatchRunner.isUpToDate(job) ? "up to date" : "render")
        }
        rows += plan.rejected.map { row, error in
            Row(row: row, shard: shardOf(row), status: "invalid", exitStatus: exitStatus(error),
                errors: error.diagnostics.map {
                    DiagnosticRenderer(sources: error.sources).render([$0]).trimmingCharacters(in: .newlines)
                })
        }
        self.rowCount = rowCount
        self.shards = shards.count
        self.shard = shard?.index
        self.rows = rows.sorted { $0.row < $1.row }
        warnings = plan.warnings.map { DiagnosticRenderer(sources: sources).render([$0]).trimmingCharacters(in: .newlines) }
    }

    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
    }

    /// `row 3: render out/c.mp4 (key 1a2b3c4d5e6f)`; an invalid row with its problems below it.
    public var text: String {
        rows.map { row in
            switch row.status {
            case "invalid": "row \(row.row): invalid\n" + (row.errors ?? []).joined(separator: "\n") + "\n"
            default: "row \(row.row): \(row.status) \(row.output ?? "") (key \(row.key?.prefix(12) ?? ""))\n"
            }
        }.joined()
    }
}
