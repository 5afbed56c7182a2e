import Foundation
import SQLStore

/// Where a render is in its life.
enum RenderStatus: String, Codable, Sendable, CaseIterable, SQLColumn {
    case queued, rendering, done, failed, cancelled

    var isFinished: Bool { self == .done || self == .failed || self == .cancelled }
}

/// One render as the store keeps it (a row of `renders`). Times are Unix seconds.
struct RenderRecord: Sendable, Equatable {

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
    /// The request body as posted (for a batch's row, its fields with the row's vars): what the
    /// worker renders from, after a restart too.
    var request: String
    /// A template's render: the template's name and its body as it was when the render was
    /// posted (the project rendered); nil for a render posted with its project.
    var templateName: String?
    var templateBody: String?
    /// SHA-256 of `request` (and of the template's), to tell a retry from another request under
    /// one idempotency key.
    var requestDigest: String
    var idempotencyKey: String?
    var outputPath: String?
    var outputBytes: Int64?
    var outputSHA256: String?
    var contentType: String?
    var leaseUntil: Double?
    /// The node (`reel serve` process) whose worker holds the lease.
    var leaseOwner: String?
    var cancelRequested: Bool
    /// How many times a node died while rendering it: a render that keeps killing its node
    /// (a crash in a decoder, say) is failed after `RenderStore.interruptionLimit`, not retried forever.
    var interruptions: Int

    /// A queued render of `request` (of `template`'s project, when one is given), with a new random id.
    init(token: String, request: String, template: TemplateRecord? = nil, idempotencyKey: String?, now: Date = Date()) {
        id = "r_" + randomHex(bytes: 16)
        self.token = token
        status = .queued
        progress = 0
        (segmentsTotal, segmentsRendered, segmentsReused) = (0, 0, 0)
        createdAt = now.timeIntervalSince1970
        self.request = request
        (templateName, templateBody) = (template?.name, template?.body)
        requestDigest = RenderStore.digest(template.map { "template \($0.name) \($0.body.utf8.count):\($0.body)\n" + request } ?? request)
        self.idempotencyKey = idempotencyKey
        cancelRequested = false
        interruptions = 0
    }
}

extension RenderRecord: StoredRow {
    static let table = "renders", key = ["id"]

    init(_ row: SQLRow) throws {
        (id, token, status, progress) = (try row["id"], try row["token"], try row["status"], try row["progress"])
        (segmentsTotal, segmentsRendered, segmentsReused) = (try row["segmentsTotal"], try row["segmentsRendered"], try row["segmentsReused"])
        (createdAt, startedAt, finishedAt, error) = (try row["createdAt"], try row["startedAt"], try row["finishedAt"], try row["error"])
        (request, requestDigest, idempotencyKey) = (try row["request"], try row["requestDigest"], try row["idempotencyKey"])
        (templateName, templateBody) = (try row["templateName"], try row["templateBody"])
        (outputPath, outputBytes, outputSHA256, contentType) = (try row["outputPath"], try row["outputBytes"], try row["outputSHA256"], try row["contentType"])
        (leaseUntil, leaseOwner, cancelRequested, interruptions) = (try row["leaseUntil"], try row["leaseOwner"], try row["cancelRequested"], try row["interruptions"])
    }

    var columns: [(name: String, value: SQLValue)] {
        [("id", id.sqlValue), ("token", token.sqlValue), ("status", status.sqlValue), ("progress", progress.sqlValue),
         ("segmentsTotal", segmentsTotal.sqlValue), ("segmentsRendered", segmentsRendered.sqlValue), ("segmentsReused", segmentsReused.sqlValue),
         ("createdAt", createdAt.sqlValue), ("startedAt", startedAt.sqlValue), ("finishedAt", finishedAt.sqlValue), ("error", error.sqlValue),
         ("request", request.sqlValue), ("templateName", templateName.sqlValue), ("templateBody", templateBody.sqlValue),
         ("requestDigest", requestDigest.sqlValue), ("idempotencyKey", idempotencyKey.sqlValue),
         ("outputPath", outputPath.sqlValue), ("outputBytes", outputBytes.sqlValue), ("outputSHA256", outputSHA256.sqlValue),
         ("contentType", contentType.sqlValue), ("leaseUntil", leaseUntil.sqlValue), ("leaseOwner", leaseOwner.sqlValue),
         ("cancelRequested", cancelRequested.sqlValue), ("interruptions", interruptions.sqlValue)]
    }
}
