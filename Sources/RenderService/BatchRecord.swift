import Foundation
import ProjectFile
import ReelApplication
import SQLStore

/// A template rendered once per row (`POST /v1/templates/{name}/batches`): every row checked
/// first, as `reel batch` does; a valid row became a render, an invalid one is kept with its
/// problems. The rows share the segment cache, so what no row changes is rendered once.
struct BatchRecord: Sendable {

    var id: String
    var token: String
    var template: String
    var createdAt: Double
    /// JSON text of `[Row]`.
    var rows: String

    struct Row: Codable, Sendable {
        /// 1-based, as `reel batch` numbers rows.
        var row: Int
        var render: String?
        /// The row's problems (JSON text of `[DiagnosticView]`), when it is invalid.
        var problems: String?

        var decodedProblems: [DiagnosticView]? {
            problems.flatMap { try? JSONDecoder().decode([DiagnosticView].self, from: Data($0.utf8)) }
        }
    }

    var decodedRows: [Row] { (try? JSONDecoder().decode([Row].self, from: Data(rows.utf8))) ?? [] }

    /// A row's problems as they are kept.
    static func problemsText(_ diagnostics: [DiagnosticValue]) throws -> String {
        String(decoding: try JSONEncoder().encode(diagnostics.map(DiagnosticView.init)), as: UTF8.self)
    }
}

extension BatchRecord: StoredRow {
    static let table = "batches", key = ["id"]

    init(_ row: SQLRow) throws {
        (id, token, template, createdAt, rows) = (try row["id"], try row["token"], try row["template"], try row["createdAt"], try row["rows"])
    }

    var columns: [(name: String, value: SQLValue)] {
        [("id", id.sqlValue), ("token", token.sqlValue), ("template", template.sqlValue), ("createdAt", createdAt.sqlValue), ("rows", rows.sqlValue)]
    }
}
