import Foundation

/// A render as the API shows it (`GET /v1/renders/{id}`): `{ id, status, progress, segments:
/// {total, rendered, reused}, created_at, started_at, finished_at, error, output: { url, bytes,
/// sha256, content_type }, metadata }`; times in ISO 8601 UTC, absent values null.
enum RenderView {
    static func json(_ render: RenderRecord) -> [String: Any] {
        var output: Any = NSNull()
        if render.status == .done, let bytes = render.outputBytes, let sha256 = render.outputSHA256, let type = render.contentType {
            output = ["url": "/v1/renders/\(render.id)/output", "bytes": bytes, "sha256": sha256, "content_type": type] as [String: Any]
        }
        return [
            "id": render.id,
            "status": render.status.rawValue,
            "progress": render.progress,
            "segments": ["total": render.segmentsTotal, "rendered": render.segmentsRendered, "reused": render.segmentsReused],
            "created_at": time(render.createdAt),
            "started_at": time(render.startedAt),
            "finished_at": time(render.finishedAt),
            "error": render.error ?? NSNull(),
            "output": output,
            "metadata": RenderOrder.metadata(of: render.request) ?? NSNull(),
        ]
    }

    /// `2026-11-27T20:41:07.250Z`, whatever the locale and time zone.
    static func time(_ seconds: Double?) -> Any {
        guard let seconds else { return NSNull() }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
