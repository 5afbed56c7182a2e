import Foundation
import ProjectFile
import SQLStore

/// One webhook message about a render's end, kept until it is delivered or given up: `POST`
/// of `{ "type": "render.done"|"render.failed"|"render.cancelled", "render": {…} }` to the
/// render's webhook URL, signed with its secret (docs/webhooks.md). Stored with the render's
/// end, in the same transaction, so a restart delivers what was due.
struct Delivery: Sendable, Equatable {

    /// `Reel-Delivery`: the same for every attempt, so a receiver can drop a repeat.
    var id: String
    var renderId: String
    var url: String
    var secret: String
    /// The JSON body, the same bytes at every attempt.
    var body: String
    var attempts: Int
    /// When to try (next); nil once delivered or given up.
    var nextAt: Double?
    /// `pending`, `delivered` or `failed`.
    var status: String
    /// What the last attempt got: `200`, `500`, `timed out`… (set by `record`).
    var lastResult: String?

    /// The message: what ended, and the render as `GET` shows it.
    private struct Message: Encodable {
        var type: String
        var render: RenderView
    }

    /// The delivery that tells of `render`'s end, if its request asked for a webhook.
    init?(telling render: RenderRecord, now: Date = Date()) {
        guard let webhook = StoredFields(render.request).webhook else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(Message(type: "render.\(render.status.rawValue)", render: RenderView(render))) else { return nil }
        id = "d_" + render.id.dropFirst(2) + "_" + render.status.rawValue
        renderId = render.id
        url = webhook.url
        secret = webhook.secret
        body = String(decoding: data, as: UTF8.self)
        attempts = 0
        nextAt = now.timeIntervalSince1970
        status = "pending"
    }
}

extension Delivery {
    /// The URL as every log line shows it: credentials written in it (`https://user:pw@host/…`)
    /// as `***`. They are sent to the receiver, and never shown.
    var shownURL: String { URLCredentials.redacted(url) }

    /// Keeps what an attempt got as `lastResult`, with any URL in it shown as `shownURL` is.
    mutating func record(_ result: String) { lastResult = URLCredentials.redacted(result) }
}

extension Delivery: StoredRow {
    static let table = "deliveries", key = ["id"]

    init(_ row: SQLRow) throws {
        (id, renderId, url, secret, body) = (try row["id"], try row["renderId"], try row["url"], try row["secret"], try row["body"])
        (attempts, nextAt, status, lastResult) = (try row["attempts"], try row["nextAt"], try row["status"], try row["lastResult"])
    }

    var columns: [(name: String, value: SQLValue)] {
        [("id", id.sqlValue), ("renderId", renderId.sqlValue), ("url", url.sqlValue), ("secret", secret.sqlValue), ("body", body.sqlValue),
         ("attempts", attempts.sqlValue), ("nextAt", nextAt.sqlValue), ("status", status.sqlValue), ("lastResult", lastResult.sqlValue)]
    }
}
