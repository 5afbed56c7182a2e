import Hummingbird

/// Every failure answered as JSON with the status its error declares (`ServiceError`): a
/// malformed request 400, an unknown id 404, a conflict 409, a project that does not validate
/// or names a missing or unreadable file 422 (its diagnostics as `reel validate` gives them, at
/// their line and column in what was posted), a remote media file that cannot be fetched now
/// 503 with Retry-After; anything else a 500 that tells nothing of the server, its error in
/// the operator's log under the reference the answer gives.
struct ErrorsAsJSON: RouterMiddleware {
    let paths: ServerPaths
    let log: @Sendable (String) -> Void

    func handle(_ request: Request, context: ServiceContext, next: (Request, ServiceContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            if let answer = ServiceError(answering: error, hiding: paths) { return try answer.response(from: request, context: context) }
            let reference = "e_" + randomHex(bytes: 6)
            log("\(reference): \(request.method) \(request.uri.path) failed: \(error)")
            return try ServiceError.internalError(reference: reference).response(from: request, context: context)
        }
    }
}
