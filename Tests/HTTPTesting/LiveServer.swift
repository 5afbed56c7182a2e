import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import TestSupport

/// A Hummingbird application served on a free port of 127.0.0.1 for the length of one test,
/// spoken to by a `LiveClient` over plain sockets (`RawHTTP`): the routes, their middleware
/// and the real HTTP/1.1 server, as a client in another process meets them.
public enum LiveServer {
    /// Serves `router` until `body` has returned or thrown, then shuts the server down
    /// gracefully and waits for it. `host` is what the client's requests name in `Host`
    /// (the server's own address and port when nil).
    public static func serve<Routes: HTTPResponderBuilder, Value: Sendable>(
        _ router: Routes, host: String? = nil, _ body: @Sendable (LiveClient) async throws -> Value
    ) async throws -> Value where Routes.Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        let (ports, announce) = AsyncStream.makeStream(of: Int.self)
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                                      onServerRunning: { channel in
                                          announce.yield(channel.localAddress?.port ?? 0)
                                          announce.finish()
                                      },
                                      logger: Logger(label: "live-server", factory: { _ in SwiftLogNoOpLogHandler() }))
        let services = ServiceGroup(configuration: .init(services: [application], logger: application.logger))
        // A child task, so the server runs on the executor the caller prefers (the tests' own
        // threads, not the concurrency pool that other suites' synchronous renders hold).
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var port = 0
            for await announced in ports {
                port = announced
                break
            }
            do {
                guard port > 0 else { throw RawHTTP.Failure(description: "the test server stopped before it listened") }
                let value = try await body(LiveClient(http: RawHTTP(port: port, host: host)))
                await services.triggerGracefulShutdown()
                try await group.waitForAll()
                return value
            } catch {
                await services.triggerGracefulShutdown()
                _ = try? await group.waitForAll()
                throw error
            }
        }
    }
}

/// Requests to a `LiveServer`, one connection each.
public struct LiveClient: Sendable {
    public let http: RawHTTP

    public var port: Int { http.port }

    /// Sends one request and hands its response to `check`; what `check` returns.
    public func execute<Value>(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
                               _ check: (LiveResponse) async throws -> Value) async throws -> Value {
        let fields = headers.map { "\($0.name.rawName): \($0.value)" }
        let answer = try await http.request(method.rawValue, uri, fields: fields, body: body.map { Array($0.readableBytesView) } ?? [])
        var answerFields = HTTPFields()
        for (name, value) in answer.fields {
            if let name = HTTPField.Name(name) { answerFields.append(HTTPField(name: name, value: value)) }
        }
        return try await check(LiveResponse(status: HTTPResponse.Status(code: answer.status), headers: answerFields,
                                             body: ByteBuffer(bytes: answer.body)))
    }
}

/// What a `LiveServer` answered.
public struct LiveResponse: Sendable {
    public var status: HTTPResponse.Status
    public var headers: HTTPFields
    public var body: ByteBuffer
}
