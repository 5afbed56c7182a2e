import Foundation
import Hummingbird

/// `GET /v1/renders/{id}/output`: the finished file, with its SHA-256 as a strong ETag
/// (`If-None-Match` with it among its tags, weak or not, or `*` answers 304) and one byte
/// range at a time (`Range: bytes=…`, 206; a range outside the file 416), so players can seek
/// and downloads resume.
enum OutputFile {
    static func response(for render: RenderRecord, request: Request, context: ServiceContext) async throws -> Response {
        guard render.status == .done, let path = render.outputPath, let bytes = render.outputBytes, let sha256 = render.outputSHA256 else {
            throw ServiceError(status: .conflict, message: "render \(render.id) is \(render.status.rawValue): its output is there once it is done")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw ServiceError(status: .gone, message: "the output of render \(render.id) was removed")
        }
        let etag = "\"\(sha256)\""
        var headers: HTTPFields = [.eTag: etag, .acceptRanges: "bytes", .contentType: render.contentType ?? "application/octet-stream",
                                   .cacheControl: "private, max-age=86400, immutable"]
        if IfNoneMatch.matches(request.headers[values: .ifNoneMatch], etag: etag) { return Response(status: .notModified, headers: headers) }
        let file = FileIO()
        guard let rangeHeader = request.headers[.range], bytes > 0 else {
            headers[.contentLength] = String(bytes)
            return Response(status: .ok, headers: headers, body: try await file.loadFile(path: path, context: context))
        }
        guard let range = byteRange(rangeHeader, size: Int(bytes)) else {
            headers[.contentRange] = "bytes */\(bytes)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
        headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(bytes)"
        headers[.contentLength] = String(range.count)
        return Response(status: .partialContent, headers: headers, body: try await file.loadFile(path: path, range: range, context: context))
    }

    /// `bytes=START-END`, `bytes=START-` or `bytes=-LAST` within a file of `size` bytes (one range).
    static func byteRange(_ header: String, size: Int) -> ClosedRange<Int>? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        let first = Int(spec[0]), last = Int(spec[1])
        switch (first, last, spec[0].isEmpty, spec[1].isEmpty) {
        case (let start?, nil, false, true) where start < size: return start...(size - 1)
        case (let start?, let end?, false, false) where start <= end && start < size: return start...min(end, size - 1)
        case (nil, let suffix?, true, false) where suffix > 0: return max(0, size - suffix)...(size - 1)
        default: return nil
        }
    }
}
