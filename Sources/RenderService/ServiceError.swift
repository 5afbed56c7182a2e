import Hummingbird
import ProjectFile
import ReelApplication

/// A request the service refuses, with the HTTP status that says why and a message for the
/// client, answered as `{ "error": { "message": …, "diagnostics": [ … ] } }`. The service's own
/// refusals are made as these; a library's error becomes one by its `FailureKind`
/// (`init(answering:hiding:)`).
struct ServiceError: HTTPResponseError, Sendable {
    var status: HTTPResponse.Status
    var message: String
    /// A posted project's problems, each at its place in what was posted.
    var diagnostics: [DiagnosticValue]?
    /// Seconds after which the same request may succeed (`Retry-After`).
    var retryAfter: Int?

    /// A 429 or a 503 (the checks' pool is full) says when to try again (10 s) unless
    /// `retryAfter` is given.
    init(status: HTTPResponse.Status, message: String, diagnostics: [DiagnosticValue]? = nil, retryAfter: Int? = nil) {
        (self.status, self.message, self.diagnostics) = (status, message, diagnostics)
        self.retryAfter = retryAfter ?? ([.tooManyRequests, .serviceUnavailable].contains(status) ? 10 : nil)
    }

    static func conflict(_ message: String) -> ServiceError { ServiceError(status: .conflict, message: message) }
    static func badRequest(_ message: String) -> ServiceError { ServiceError(status: .badRequest, message: message) }
    static func notFound(_ message: String) -> ServiceError { ServiceError(status: .notFound, message: message) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try ServiceRoutes.json(ErrorView(message, diagnostics: diagnostics), status: status)
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }
}

extension ServiceError {
    /// The answer to any error a route throws: a service error as it is; Hummingbird's own
    /// (an unknown route's 404) with its status; a library error by its kind, in the one table
    /// from `FailureKind` to HTTP statuses, its message and diagnostics showing no server
    /// folder (`paths`). Nil for an error no request can be blamed for: a 500, whose message
    /// (which would tell of the server's insides) stays in the operator's log.
    init?(answering error: any Error, hiding paths: ServerPaths) {
        switch error {
        case let error as ServiceError:
            self = error
        case let error as any HTTPResponseError:
            self.init(status: error.status, message: (error as? HTTPError)?.body ?? error.status.reasonPhrase)
        default:
            let status: HTTPResponse.Status, retryAfter: Int?
            switch FailureKind(of: error) {
            case .usage: (status, retryAfter) = (.badRequest, nil)
            // A missing or unreadable media file, an invalid project, row or media file.
            case .invalidInput, .missingFile: (status, retryAfter) = (.unprocessableContent, nil)
            // A remote media file that cannot be fetched now; a fetch stopped with the service.
            case .tryLater, .cancelled: (status, retryAfter) = (.serviceUnavailable, 60)
            // The service cannot write where it writes, or failed: not the request's doing.
            case .cannotWrite, .failure: return nil
            }
            self.init(status: status, message: paths.hidden(in: ErrorText.message(for: error)),
                      diagnostics: (error as? ProjectError).map { paths.values(of: $0.diagnostics) }, retryAfter: retryAfter)
        }
    }

    /// The answer to an error of the service's own (`reference` names it in the operator's log).
    static func internalError(reference: String) -> ServiceError {
        ServiceError(status: .internalServerError,
                     message: "the service failed while answering this request (\(reference)); its operator's log tells why. Try again later")
    }
}

extension ServiceError: CustomStringConvertible {
    var description: String { message }
}
