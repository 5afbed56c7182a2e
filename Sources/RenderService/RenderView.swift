import Foundation
import ProjectFile
import ReelApplication

/// A render as the API shows it (`GET /v1/renders/{id}`): `{ id, status, progress, segments:
/// {total, rendered, reused}, created_at, started_at, finished_at, error, output: { url, bytes,
/// sha256, content_type }, metadata }`; times in ISO 8601 UTC, absent values null.
struct RenderView: Encodable, Equatable {
    var id: String
    var status: RenderStatus
    var progress: Double
    var segments: Segments
    var createdAt: String
    var startedAt: String?
    var finishedAt: String?
    var error: String?
    var output: Output?
    var metadata: AnyJSON?

    struct Segments: Encodable, Equatable {
        var total: Int
        var rendered: Int
        var reused: Int
    }

    struct Output: Encodable, Equatable {
        var url: String
        var bytes: Int64
        var sha256: String
        var contentType: String

        private enum CodingKeys: String, CodingKey {
            case url, bytes, sha256, contentType = "content_type"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, status, progress, segments, createdAt = "created_at", startedAt = "started_at", finishedAt = "finished_at", error, output, metadata
    }

    init(_ render: RenderRecord) {
        (id, status, progress) = (render.id, render.status, render.progress)
        segments = Segments(total: render.segmentsTotal, rendered: render.segmentsRendered, reused: render.segmentsReused)
        (createdAt, startedAt, finishedAt) = (Self.time(render.createdAt), render.startedAt.map(Self.time), render.finishedAt.map(Self.time))
        error = render.error
        if render.status == .done, let bytes = render.outputBytes, let sha256 = render.outputSHA256, let type = render.contentType {
            output = Output(url: "/v1/renders/\(render.id)/output", bytes: bytes, sha256: sha256, contentType: type)
        }
        metadata = StoredFields(render.request).metadata
    }

    /// Every field, an absent one as null.
    func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(id, forKey: .id)
        try fields.encode(status, forKey: .status)
        try fields.encode(progress, forKey: .progress)
        try fields.encode(segments, forKey: .segments)
        try fields.encode(createdAt, forKey: .createdAt)
        try fields.encode(startedAt, forKey: .startedAt)
        try fields.encode(finishedAt, forKey: .finishedAt)
        try fields.encode(error, forKey: .error)
        try fields.encode(output, forKey: .output)
        try fields.encode(metadata ?? .null, forKey: .metadata)
    }

    /// `2026-11-27T20:41:07.250Z`, whatever the locale and time zone.
    static func time(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}

/// A page of a token's renders (`GET /v1/renders`): `next_cursor` is the last id when the page is full.
struct RenderPage: Encodable {
    var renders: [RenderView]
    var nextCursor: String?

    func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(renders, forKey: .renders)
        try fields.encode(nextCursor, forKey: .nextCursor)
    }

    private enum CodingKeys: String, CodingKey {
        case renders, nextCursor = "next_cursor"
    }
}

/// A diagnostic as the API gives it: `{file, line, column, path, severity, message, hint}`, hint null when there is none.
struct DiagnosticView: Codable, Equatable {
    var file: String
    var line: Int
    var column: Int
    var path: String
    var severity: String
    var message: String
    var hint: String?

    init(_ value: DiagnosticValue) {
        (file, line, column, path, severity, message, hint) = (value.file, value.line, value.column, value.path, value.severity, value.message, value.hint)
    }

    func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(file, forKey: .file)
        try fields.encode(line, forKey: .line)
        try fields.encode(column, forKey: .column)
        try fields.encode(path, forKey: .path)
        try fields.encode(severity, forKey: .severity)
        try fields.encode(message, forKey: .message)
        try fields.encode(hint, forKey: .hint)
    }
}

/// `{"error": {"message": …, "diagnostics": […]}}`: every failure's answer.
struct ErrorView: Encodable {
    struct Body: Encodable {
        var message: String
        var diagnostics: [DiagnosticView]?
    }

    var error: Body

    init(_ message: String, diagnostics: [DiagnosticValue]? = nil) {
        error = Body(message: message, diagnostics: diagnostics?.map(DiagnosticView.init))
    }
}
