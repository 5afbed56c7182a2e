import Foundation
import GRDB

/// Where a render is in its life.
enum RenderStatus: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
    case queued, rendering, done, failed, cancelled

    var isFinished: Bool { self == .done || self == .failed || self == .cancelled }
}

/// One render as the store keeps it (a row of `renders`). Times are Unix seconds.
struct RenderRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "renders"

    var id: String
    /// The name of the token that posted it: a token sees its own renders only.
    var token: String
    var status: RenderStatus
    var progress: Double
    var segmentsTotal: Int
    var segmentsRendered: Int
    var segmentsReused: Int
    var createdAt: Double
    var startedAt: Double?
    var finishedAt: Double?
    var error: String?
    /// The request body as posted: what the worker renders from, after a restart too.
    var request: String
    /// SHA-256 of `request`, to tell a retry from another request under one idempotency key.
    var requestDigest: String
    var idempotencyKey: String?
    var outputPath: String?
    var outputBytes: Int64?
    var outputSHA256: String?
    var contentType: String?
    var leaseUntil: Double?
    var cancelRequested: Bool

    /// A queued render of `request`, with a new random id.
    init(token: String, request: String, idempotencyKey: String?, now: Date = Date()) {
        id = "r_" + randomHex(bytes: 16)
        self.token = token
        status = .queued
        progress = 0
        (segmentsTotal, segmentsRendered, segmentsReused) = (0, 0, 0)
        createdAt = now.timeIntervalSince1970
        self.request = request
        requestDigest = RenderStore.digest(request)
        self.idempotencyKey = idempotencyKey
        cancelRequested = false
    }
}
