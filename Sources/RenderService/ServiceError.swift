import Hummingbird

/// A request the service refuses, with the HTTP status that says why and a message for the
/// client. Problems in a posted project are `ProjectError`s, answered with their diagnostics.
struct ServiceError: Error, Sendable {
    var status: HTTPResponse.Status
    var message: String

    static func conflict(_ message: String) -> ServiceError { ServiceError(status: .conflict, message: message) }
    static func badRequest(_ message: String) -> ServiceError { ServiceError(status: .badRequest, message: message) }
    static func notFound(_ message: String) -> ServiceError { ServiceError(status: .notFound, message: message) }
}

extension ServiceError: CustomStringConvertible {
    var description: String { message }
}
