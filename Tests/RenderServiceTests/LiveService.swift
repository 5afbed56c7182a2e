import Foundation
import ReelApplication
import RemoteMedia
import RenderService
import TestSupport
import Testing

/// A real `reel serve` in this process (`RenderService.run`, so every handler of its server
/// is in place) on a free port of 127.0.0.1: a fresh data folder, a media root holding a 2 s
/// clip (`clip.mp4`), its jobs in SQLite or PostgreSQL, tokens for alice and bob and one that
/// was revoked. Spoken to over raw sockets (`http`), so paths go out exactly as written.
struct LiveService: Sendable {
    let http: RawHTTP
    let alice: String
    let bob: String
    let revoked: String

    /// Runs `body` against a started service (its configuration changed by `configure`), then
    /// stops it (whatever `body` did).
    static func with<Value: Sendable>(_ backend: RenderStoreTests.Backend, configure: (inout ServiceConfiguration) -> Void = { _ in },
                                      _ body: @Sendable (LiveService) async throws -> Value) async throws -> Value {
        let folder = MediaFactory.folder("live-\(UUID().uuidString.prefix(8))")
        let media = folder.appendingPathComponent("media"), data = folder.appendingPathComponent("data").path
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        let clip = try MediaFactory.file("service-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=2",
                                                              "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-shortest"])
        try FileManager.default.copyItem(atPath: clip, toPath: media.appendingPathComponent("clip.mp4").path)
        let database = try await backend.serviceDatabase()
        let tokens = try await ServiceTokens(data: data, database: database)
        let (alice, bob, revoked) = (try await tokens.create(name: "alice"), try await tokens.create(name: "bob"), try await tokens.create(name: "mallory"))
        #expect(try await tokens.revoke(name: "mallory"))
        let workspace = Workspace(remote: RemoteMediaCache(settings: RemoteMediaSettings(folder: folder.appendingPathComponent("remote").path, offline: true)))
        var configuration = ServiceConfiguration(data: data, database: database, host: "127.0.0.1", port: 0, workers: 1, mediaRoots: [media.path],
                                                 grace: 0, workspace: workspace, renderProgram: ReelCommand.executable, log: { _ in })
        configuration.executor = ServerExecutor.shared
        configure(&configuration)
        let service = try await RenderService(configuration)
        let (urls, ready) = AsyncStream.makeStream(of: String.self)
        let running = Task {
            defer { ready.finish() }
            try await service.run { ready.yield($0) }
        }
        var port: Int?
        for await url in urls {
            port = url.split(separator: ":").last.flatMap { Int($0) }
            break
        }
        guard let port else {
            try await running.value
            throw RawHTTP.Failure(description: "reel serve stopped before it listened")
        }
        let value: Value
        do {
            // On the server's threads, as a client in a process of its own would be: not on the
            // concurrency pool, which other suites' synchronous renders may hold for seconds.
            let live = LiveService(http: RawHTTP(port: port), alice: alice, bob: bob, revoked: revoked)
            value = try await withTaskExecutorPreference(ServerExecutor.shared) { try await body(live) }
        } catch {
            service.stop()
            _ = try? await running.value
            throw error
        }
        service.stop()
        try await running.value
        return value
    }

    static func auth(_ token: String) -> String { "Authorization: Bearer \(token)" }

    /// Posts `body` as alice and waits until the render is done; its id.
    func renderAsAlice(_ body: String = ServiceAPITests.body()) async throws -> String {
        let posted = try await http.request("POST", "/v1/renders", fields: [Self.auth(alice)], body: Array(body.utf8))
        let id = try #require(posted.object?["id"] as? String, "\(posted.status) \(posted.text)")
        try await waitUntilDone(id)
        return id
    }

    /// Polls alice's render `id` until it is finished; fails unless it is done.
    func waitUntilDone(_ id: String) async throws {
        for _ in 0..<600 {
            let status = try await http.request("GET", "/v1/renders/\(id)", fields: [Self.auth(alice)]).object?["status"] as? String
            if status == "done" { return }
            try #require(status == "queued" || status == "rendering", "render \(id) is \(status ?? "not there")")
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("render \(id) did not finish in 30 s")
    }
}
