import Foundation
import Hummingbird
import HTTPTesting
import NetworkPolicy
import ReelApplication
import RemoteMedia
@testable import RenderService
import SQLStore
import Synchronization
import TestSupport
import Testing

/// The render API in-process, through Hummingbird's test client over a real connection, with
/// a real SQLite store and real renders.
@Suite(.serialized) struct ServiceAPITests {
    /// A started service core on a fresh data folder, with a media root holding a 2 s clip, and
    /// a token for alice and one for bob.
    struct Fixture: Sendable {
        let core: ServiceCore
        let workers: RenderWorkers
        let alice: String
        let bob: String
        /// `service-XXXXXXXX`, a name of its own, holding the media root, the data folder and the
        /// remote media cache.
        let folder: URL
        let mediaRoot: URL
        let data: URL
        /// The store's database, for what a test does to it behind the store's back.
        let database: any SQLDatabase
        /// What the service logged: its workers, its requests that failed on its side (and the
        /// webhook deliveries a test makes with `log.append`).
        let log = LogLines()

        /// `backend`: where the jobs are kept (PostgreSQL when a server is given, see `RenderStoreTests`);
        /// `program`: what the workers render in (the built `reel`); `lease`: the workers' lease.
        init(_ backend: RenderStoreTests.Backend = .sqlite, workers count: Int = 1, addressPolicy: AddressPolicy? = nil,
             checks: CheckPool = CheckPool(threads: 2, waiting: 8), program: URL = ReelCommand.executable, lease: TimeInterval = 30) async throws {
            folder = MediaFactory.folder("service-\(UUID().uuidString.prefix(8))")
            mediaRoot = folder.appendingPathComponent("media")
            data = folder.appendingPathComponent("data")
            try FileManager.default.createDirectory(at: mediaRoot, withIntermediateDirectories: true)
            let clip = try MediaFactory.file("service-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=2",
                                                                  "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-shortest"])
            try FileManager.default.copyItem(atPath: clip, toPath: mediaRoot.appendingPathComponent("clip.mp4").path)
            let folders = try ServiceFolders(root: data.path, mediaRoots: [mediaRoot.path])
            if backend == .sqlite {
                database = try SQLiteDatabase(path: folders.database)
            } else {
                database = try PostgresDatabase(url: try await RenderStoreTests.Backend.emptyPostgresDatabase())
            }
            let store = try await RenderStore(database)
            var remote = RemoteMediaSettings(folder: folder.appendingPathComponent("remote").path, offline: addressPolicy == nil)
            remote.addressPolicy = addressPolicy
            let workspace = Workspace(remote: RemoteMediaCache(settings: remote), mediaRoots: try MediaRoots(folders.mediaRoots))
            core = try ServiceCore(store: store, workspace: workspace, checks: checks, folders: folders, pendingPerToken: 3, keep: 3600, log: log.append)
            workers = RenderWorkers(store: store, workspace: workspace, folders: folders, count: count, node: "test", lease: lease, grace: 0,
                                    program: program, executor: ServerExecutor.shared, log: log.append)
            alice = try await store.createToken(name: "alice")
            bob = try await store.createToken(name: "bob")
        }

        @discardableResult
        func test<Value: Sendable>(_ body: @escaping @Sendable (LiveClient) async throws -> Value) async throws -> Value {
            try await withTaskExecutorPreference(ServerExecutor.shared) { try await LiveServer.serve(ServiceRoutes.router(core), body) }
        }
    }

    /// The lines a service's parts logged, from any thread.
    final class LogLines: Sendable {
        private let lines = Mutex<[String]>([])
        @Sendable func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    static func body(headline: String = "Hello", extra: String = "") -> String {
        """
        {"project": {"reel": 1, "output": {"size": [160, 90], "fps": 25},
                     "media": {"clip": "clip.mp4"},
                     "video": [{"clips": [{"media": "clip", "duration": "2s"}]}],
                     "vars": {"headline": "x"},
                     "overlays": [{"text": "{{ headline }}", "duration": "2s"}]},
         "vars": {"headline": "\(headline)"}, "metadata": {"campaign": 7}\(extra)}
        """
    }

    static func object(_ response: LiveResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    static func auth(_ token: String, _ more: HTTPFields = [:]) -> HTTPFields {
        var fields = more
        fields[.authorization] = "Bearer \(token)"
        return fields
    }

    /// Polls a render until it is finished.
    static func finished(_ client: LiveClient, _ id: String, token: String) async throws -> [String: Any] {
        for _ in 0..<600 {
            let render = try await client.execute(uri: "/v1/renders/\(id)", method: .get, headers: auth(token)) { try object($0) }
            if let status = render["status"] as? String, ["done", "failed", "cancelled"].contains(status) { return render }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("render \(id) did not finish")
        return [:]
    }

    @Test(arguments: RenderStoreTests.Backend.available)
    func everyV1RouteNeedsALiveToken(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await Fixture(backend)
        try await fixture.test { client in
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            for (uri, method) in [("/v1/renders", HTTPRequest.Method.get), ("/v1/renders", .post), ("/v1/validate", .post), ("/v1/renders/r_1", .get)] {
                try await client.execute(uri: uri, method: method) { response in
                    #expect(response.status == .unauthorized, "\(method) \(uri)")
                    #expect(response.headers[.wwwAuthenticate] == "Bearer")
                }
                try await client.execute(uri: uri, method: method, headers: [.authorization: "Bearer reel_wrong"]) { #expect($0.status == .unauthorized) }
            }
            try await client.execute(uri: "/v1/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                let document = try Self.object(response)
                #expect(document["openapi"] as? String == "3.1.0")
                let paths = (document["paths"] as? [String: Any])?.keys.sorted() ?? []
                #expect(paths == ["/healthz", "/metrics", "/v1/batches/{id}", "/v1/openapi.json", "/v1/renders", "/v1/renders/{id}", "/v1/renders/{id}/output",
                                  "/v1/templates/{name}", "/v1/templates/{name}/batches", "/v1/templates/{name}/renders", "/v1/validate"])
            }
            try await client.execute(uri: "/metrics", method: .get) { #expect($0.status == .unauthorized, "the counts are every tenant's") }
            try await client.execute(uri: "/metrics", method: .get, headers: Self.auth(fixture.alice)) { response in
                #expect(String(buffer: response.body).contains("reel_renders{status=\"queued\"} 0\nreel_renders{status=\"rendering\"} 0"))
            }
            #expect(try await fixture.core.store.revokeToken(name: "bob"))
            try await client.execute(uri: "/v1/renders", method: .get, headers: Self.auth(fixture.bob)) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/v1/renders", method: .get, headers: Self.auth(fixture.alice)) { #expect($0.status == .ok) }
        }
    }

    /// Posted, rendered by a worker, fetched whole and in ranges; the bytes are `reel render`'s.
    @Test(arguments: RenderStoreTests.Backend.available)
    func aRenderIsAcceptedRenderedAndServed(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await Fixture(backend)
        try await whileRunning(fixture.workers) { try await fixture.test { client in
            let posted = try await client.execute(uri: "/v1/renders", method: .post, headers: Self.auth(fixture.alice),
                                                  body: ByteBuffer(string: Self.body(headline: "Served"))) { response in
                #expect(response.status == .accepted)
                return try Self.object(response)
            }
            #expect(posted["status"] as? String == "queued")
            #expect((posted["metadata"] as? [String: Any])?["campaign"] as? Int == 7)
            let id = try #require(posted["id"] as? String)
            let render = try await Self.finished(client, id, token: fixture.alice)
            #expect(render["status"] as? String == "done", "\(render)")
            #expect(render["progress"] as? Double == 1)
            #expect((render["segments"] as? [String: Int]) == ["total": 1, "rendered": 1, "reused": 0])
            let output = try #require(render["output"] as? [String: Any])
            #expect(output["content_type"] as? String == "video/mp4")
            let bytes = try await client.execute(uri: "/v1/renders/\(id)/output", method: .get, headers: Self.auth(fixture.alice)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.eTag] == "\"\(output["sha256"] as? String ?? "")\"")
                return [UInt8](Data(buffer: response.body))
            }
            #expect(bytes.count == output["bytes"] as? Int)
            try await client.execute(uri: "/v1/renders/\(id)/output", method: .get, headers: Self.auth(fixture.alice, [.range: "bytes=100-199"])) { response in
                #expect(response.status == .partialContent)
                #expect(response.headers[.contentRange] == "bytes 100-199/\(bytes.count)")
                #expect([UInt8](Data(buffer: response.body)) == Array(bytes[100...199]))
            }
            try await client.execute(uri: "/v1/renders/\(id)/output", method: .get, headers: Self.auth(fixture.alice, [.range: "bytes=-10"])) {
                #expect([UInt8](Data(buffer: $0.body)) == Array(bytes.suffix(10)))
            }
            try await client.execute(uri: "/v1/renders/\(id)/output", method: .get, headers: Self.auth(fixture.alice, [.range: "bytes=\(bytes.count)-"])) {
                #expect($0.status == .rangeNotSatisfiable)
            }
            try await client.execute(uri: "/v1/renders/\(id)/output", method: .get,
                                     headers: Self.auth(fixture.alice, [.ifNoneMatch: "\"\(output["sha256"] as? String ?? "")\""])) {
                #expect($0.status == .notModified)
            }
            try await client.execute(uri: "/metrics", method: .get, headers: Self.auth(fixture.alice)) {
                #expect(String(buffer: $0.body).contains("reel_renders{status=\"done\"} 1\n"))
            }
            // Past --keep the output is removed and answers 410; the render stays.
            #expect(try await fixture.core.removeExpiredOutputs(now: Date().addingTimeInterval(1800)) == 0)
            #expect(try await fixture.core.removeExpiredOutputs(now: Date().addingTimeInterval(7200)) == 1)
            try await client.execute(uri: "/v1/renders/\(id)/output", method: .get, headers: Self.auth(fixture.alice)) { #expect($0.status == .gone) }
            // Another token does not see it.
            try await client.execute(uri: "/v1/renders/\(id)", method: .get, headers: Self.auth(fixture.bob)) { #expect($0.status == .notFound) }
            // The same project through `reel render`.
            let project = fixture.mediaRoot.appendingPathComponent("project.json")
            let request = try #require(try JSONSerialization.jsonObject(with: Data(Self.body().utf8)) as? [String: Any])
            try JSONSerialization.data(withJSONObject: request["project"] as Any).write(to: project)
            let cli = try ReelCommand.run(["render", project.path, "--set", "headline=Served", "-o", "cli.mp4", "--no-cache"], in: fixture.mediaRoot)
            #expect(cli.status == 0, "\(cli.standardError)")
            #expect(try Data(contentsOf: fixture.mediaRoot.appendingPathComponent("cli.mp4")) == Data(bytes))
        } }
    }

    /// An invalid project is a 422 with every diagnostic at its line and column in what was
    /// posted; a malformed request a 400; `/v1/validate` renders nothing.
    @Test(arguments: RenderStoreTests.Backend.available)
    func problemsAreAnsweredWithTheirPlaceInWhatWasPosted(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await Fixture(backend)
        try await fixture.test { client in
            let bad = "{\"project\": {\"reel\": 1,\n  \"output\": {\"size\": [160, 90], \"fps\": \"thirty\"},\n  \"media\": {\"clip\": \"absent.mp4\"},\n"
                + "  \"video\": [{\"clips\": [{\"media\": \"clip\"}]}]}}"
            let answer = try await client.execute(uri: "/v1/renders", method: .post, headers: Self.auth(fixture.alice), body: ByteBuffer(string: bad)) { response in
                #expect(response.status == .unprocessableContent)
                return try Self.object(response)
            }
            let diagnostics = try #require((answer["error"] as? [String: Any])?["diagnostics"] as? [[String: Any]])
            let places = diagnostics.map { "\($0["file"] ?? ""):\($0["line"] ?? ""):\($0["column"] ?? "") \($0["path"] ?? "")" }
            #expect(places.contains("request:2:40 output.fps"), "\(places)")
            #expect(places.contains("request:3:21 media.clip"), "\(places)")
            #expect(try await fixture.core.store.renders(token: "alice", status: nil, limit: 10, after: nil).isEmpty, "nothing was queued")
            // A posted project reads only inside the media roots.
            let escaping = Self.body().replacingOccurrences(of: "\"clip.mp4\"", with: "\"../../../../../../etc/passwd\"")
                .replacingOccurrences(of: "\"vars\": {\"headline\": \"x\"}", with: "\"fonts\": [\"/etc/fonts/fonts.conf\"]")
            let refusal = try await client.execute(uri: "/v1/renders", method: .post, headers: Self.auth(fixture.alice), body: ByteBuffer(string: escaping)) { response in
                #expect(response.status == .unprocessableContent)
                return try Self.object(response)
            }
            let refused = ((refusal["error"] as? [String: Any])?["diagnostics"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
            #expect(refused.contains("media.clip") && refused.contains("fonts[0]"), "\(refusal)")
            #expect(!"\(refusal)".contains(fixture.mediaRoot.path), "a refusal does not show the server's folders")
            let yaml = #"{"project_yaml": "reel: 1\noutput: { size: [160, 90], fps: thirty }\n"}"#
            let yamlAnswer = try await client.execute(uri: "/v1/validate", method: .post, headers: Self.auth(fixture.alice), body: ByteBuffer(string: yaml)) { response in
                #expect(response.status == .unprocessableContent)
                return try Self.object(response)
            }
            let first = ((yamlAnswer["error"] as? [String: Any])?["diagnostics"] as? [[String: Any]])?.first
            #expect(first?["file"] as? String == "project_yaml" && first?["line"] as? Int == 2, "\(yamlAnswer)")
            let valid = try await client.execute(uri: "/v1/validate", method: .post, headers: Self.auth(fixture.alice), body: ByteBuffer(string: Self.body())) { response in
                #expect(response.status == .ok)
                return try Self.object(response)
            }
            #expect(valid["valid"] as? Bool == true)
            for malformed in ["[1, 2]", "{\"project\": {}, \"colour\": 1}", "{}", "{\"project\": {}, \"format\": \"png\"}", "not json"] {
                try await client.execute(uri: "/v1/renders", method: .post, headers: Self.auth(fixture.alice), body: ByteBuffer(string: malformed)) {
                    #expect($0.status == .badRequest, "\(malformed)")
                }
            }
        }
    }

    /// The same Idempotency-Key and body give the same render; another body under it is a 409.
    /// A token may have only so many renders waiting (429); a queued render cancels at once.
    @Test(arguments: RenderStoreTests.Backend.available)
    func idempotencyQueueLimitsAndCancelling(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await Fixture(backend)
        try await fixture.test { client in
            func post(_ body: String, key: String? = nil) async throws -> LiveResponse {
                try await client.execute(uri: "/v1/renders", method: .post, headers: Self.auth(fixture.alice, key.map { [.idempotencyKey: $0] } ?? [:]),
                                         body: ByteBuffer(string: body)) { $0 }
            }
            let first = try Self.object(try await post(Self.body(), key: "k1"))
            let again = try Self.object(try await post(Self.body(), key: "k1"))
            #expect(first["id"] as? String == again["id"] as? String)
            #expect(try await post(Self.body(headline: "Other"), key: "k1").status == .conflict)
            #expect(try await post(Self.body(headline: "Two")).status == .accepted)
            #expect(try await post(Self.body(headline: "Three")).status == .accepted)
            let refused = try await post(Self.body(headline: "Four"))
            #expect(refused.status == .tooManyRequests && refused.headers[.retryAfter] != nil)
            let id = try #require(first["id"] as? String)
            let deleted = try await client.execute(uri: "/v1/renders/\(id)", method: .delete, headers: Self.auth(fixture.alice)) { try Self.object($0) }
            #expect(deleted["status"] as? String == "cancelled")
            let page = try await client.execute(uri: "/v1/renders?limit=2", method: .get, headers: Self.auth(fixture.alice)) { try Self.object($0) }
            let ids = (page["renders"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            let cursor = try #require(page["next_cursor"] as? String)
            let rest = try await client.execute(uri: "/v1/renders?limit=2&cursor=\(cursor)", method: .get, headers: Self.auth(fixture.alice)) { try Self.object($0) }
            let more = (rest["renders"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            #expect(ids.count == 2 && more.count == 1 && Set(ids + more).count == 3 && more.last == id)
            let cancelled = try await client.execute(uri: "/v1/renders?status=cancelled", method: .get, headers: Self.auth(fixture.alice)) { try Self.object($0) }
            #expect((cancelled["renders"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            try await client.execute(uri: "/v1/renders/\(id)/output", method: .get, headers: Self.auth(fixture.alice)) { #expect($0.status == .conflict) }
        }
    }

    /// A webhook URL that is not `http(s)://HOST…` is a 422 at its place in the body, before
    /// anything is queued (it would fail only at the first delivery); the message does not quote
    /// the URL, which may hold credentials.
    @Test(arguments: RenderStoreTests.Backend.available)
    func aWebhookURLWithoutAnHTTPSchemeAndHostIsRefusedAtItsPlace(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await Fixture(backend)
        try await fixture.test { client in
            for url in ["http://", "http:///x", "ftp://h", "http://user@", "https://user:hunter2@/x", "http:host", "https://h:99999/", "http://h /x", "http://:80/"] {
                let body = WebhookDeliveryTests.body(webhook: url)
                let answer = try await client.execute(uri: "/v1/renders", method: .post, headers: Self.auth(fixture.alice), body: ByteBuffer(string: body)) { response in
                    #expect(response.status == .unprocessableContent, "\(url)")
                    return try Self.object(response)
                }
                let value = body.range(of: "\"\(url)\"")!.lowerBound
                let line = body[..<value].filter { $0 == "\n" }.count + 1
                let column = body.distance(from: body[..<value].lastIndex(of: "\n").map(body.index(after:)) ?? body.startIndex, to: value) + 1
                let diagnostic = ((answer["error"] as? [String: Any])?["diagnostics"] as? [[String: Any]])?.first ?? [:]
                #expect(diagnostic["file"] as? String == "request" && diagnostic["line"] as? Int == line && diagnostic["column"] as? Int == column
                        && diagnostic["path"] as? String == "webhook.url", "\(url): \(answer)")
                #expect((diagnostic["message"] as? String)?.hasPrefix("the webhook's url ") == true, "\(url): \(answer)")
                #expect(!"\(diagnostic)".contains("hunter2"))
            }
            #expect(try await fixture.core.store.renders(token: "alice", status: nil, limit: 10, after: nil).isEmpty, "nothing was queued")
            let good = WebhookDeliveryTests.body(webhook: "https://user:hunter2@hooks.example:8443/reel?x=1")
            try await client.execute(uri: "/v1/renders", method: .post, headers: Self.auth(fixture.alice), body: ByteBuffer(string: good)) {
                #expect($0.status == .accepted)
            }
        }
    }

    /// A posted project's media URL that leads to this machine or a private network is refused
    /// as the connection is made, IPv6 forms that carry a loopback address included: nothing is
    /// fetched from there (a server listens on the port), and the answer says it was refused.
    @Test(arguments: RenderStoreTests.Backend.available)
    func mediaURLsToPrivateAddressesAreRefused(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await Fixture(backend, addressPolicy: AddressPolicy(allowPrivateNetwork: false))
        let listener = try WebhookReceiver()
        let embedded = ["[::127.0.0.1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::1]", "[64:ff9b:1::7f00:1]"].map { listener.url("clip.mp4", host: $0) }
        try await fixture.test { client in
            for url in ["http://127.0.0.1:9/clip.mp4", "http://localhost:9/clip.mp4", "http://169.254.169.254/latest/meta-data"] + embedded {
                let body = Self.body().replacingOccurrences(of: "\"clip.mp4\"", with: "\"\(url)\"")
                let answer = try await client.execute(uri: "/v1/validate", method: .post, headers: Self.auth(fixture.alice), body: ByteBuffer(string: body)) { response in
                    #expect(response.status == .unprocessableContent, "\(url)")
                    return try Self.object(response)
                }
                let message = (answer["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains("cannot be fetched: \(url): refused: "), "\(url): \(message)")
            }
        }
        #expect(try listener.requests().isEmpty, "nothing reached the listener")
    }
}
