import Foundation

/// What a batch did, for its last line.
public struct BatchSummary: Sendable, Equatable {
    public var rendered: Int
    public var upToDate: Int
    public var failedRows: [Int]
    public var invalidRows: [Int]
    public var seconds: Double

    public init(plan: BatchPlan, outcomes: [BatchRunner.Outcome], seconds: Double) {
        rendered = outcomes.filter { $0 == .rendered }.count
        upToDate = outcomes.filter { $0 == .upToDate }.count
        failedRows = zip(plan.jobs, outcomes).compactMap { job, outcome in
            if case .failed = outcome { return job.row }
            return nil
        }
        invalidRows = plan.rejected.map(\.row)
        self.seconds = seconds
    }

    /// `batch: 4 rendered, 0 up to date, 0 failed, 1 invalid (row 4), 41.1s`
    public var line: String {
        func rows(_ list: [Int]) -> String { list.isEmpty ? "" : " (\(Self.rowList(list)))" }
        return "batch: \(rendered) rendered, \(upToDate) up to date, \(failedRows.count) failed\(rows(failedRows)), "
            + "\(invalidRows.count) invalid\(rows(invalidRows)), \(String(format: "%.1f", seconds))s"
    }

    /// `row 4`, `rows 4, 5`, or the first 20 and `and 980 more`.
    /// `2 rows skipped because of the errors above: 3, 5`; nil when no row was rejected.
    public static func skippedLine(_ rejected: [Int]) -> String? {
        rejected.isEmpty ? nil
            : "\(rejected.count) row\(rejected.count == 1 ? "" : "s") skipped because of the errors above: " + rowList(rejected)
    }

    public static func rowList(_ rows: [Int]) -> String {
        let shown = rows.prefix(20).map(String.init).joined(separator: ", ")
        return (rows.count == 1 ? "row " : "rows ") + shown + (rows.count > 20 ? " and \(rows.count - 20) more" : "")
    }
}
