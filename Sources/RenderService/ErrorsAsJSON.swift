import Hummingbird
import ProjectFile
import ReelApplication

/// Every failure as `{ "error": { "message": …, "diagnostics": [ … ] } }` with its status: a
/// malformed request 400, a project that does not validate 422 (its diagnostics as `reel
/// validate` gives them, at their line and column in what was posted), a remote media file
/// that cannot be fetched now 503 with Retry-After.
struct ErrorsAsJSON: RouterMiddleware {
    func handle(_ request: Request, context: ServiceContext, next: (Request, ServiceContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServiceError {
            var response = try ServiceRoutes.json(["error": ["message": error.message]], status: error.status)
            if error.status == .tooManyRequests { response.headers[.retryAfter] = "10" }
            return response
        } catch let error as ProjectError {
            let status: HTTPResponse.Status = switch error.category {
            case .usage: .badRequest
            case .unavailable: .serviceUnavailable
            default: .unprocessableContent
            }
            var response = try ServiceRoutes.json(["error": ["message": ErrorText.message(for: error), "diagnostics": ServiceCore.diagnostics(error.diagnostics)]],
                                                  status: status)
            if status == .serviceUnavailable { response.headers[.retryAfter] = "60" }
            return response
        } catch let error as HTTPError {
            return try ServiceRoutes.json(["error": ["message": error.body ?? "\(error.status.reasonPhrase)"]], status: error.status)
        } catch {
            return try ServiceRoutes.json(["error": ["message": ErrorText.message(for: error)]], status: FailureKind(of: error) == .failure ? .internalServerError : .unprocessableContent)
        }
    }
}
