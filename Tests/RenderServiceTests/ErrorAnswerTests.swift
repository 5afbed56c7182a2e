import Foundation
import Hummingbird
import HTTPTesting
import NetworkPolicy
@testable import RenderService
import SQLStore
import TestSupport
import Testing

/// What the service answers when something is wrong: the status the error's kind declares, and
/// a message that names files as the client wrote them, never a folder of the server's.
@Suite(.serialized) struct ErrorAnswerTests {
    /// A render request for a 1 s project whose `clip` is `media`, with `more` members in the
    /// project and `clipFields` in its clip.
    static func request(media: String = #""clip": "clip.mp4""#, more: String = "", clipFields: String = "", fields: String = "") -> String {
        #"{"project": {"reel": 1, "output": {"size": [160, 90], "fps": 25}, "media": {\#(media)}, "#
            + #""video": [{"clips": [{"media": "clip", "duration": "1s"\#(clipFields)}]}]\#(more)}\#(fields)}"#
    }

    /// Every place a server folder could reach a client, each with a real request: a posted
    /// project's problems (media missing, not media, a folder, a missing image sequence, font,
    /// LUT, overlay picture, cue file, nested project, a problem inside a nested project, remote
    /// media not in the cache), a template's and a batch's, and the `error` of renders that failed
    /// on their worker (their media changed after the check; the data folder's outputs cannot be
    /// written), in the render's JSON and in its webhook's body. No answer shows the media root's
    /// or the data folder's path (both inside the fixture's folder, `service-…`); files are named
    /// as they were written.
    @Test(arguments: RenderStoreTests.Backend.available)
    func noAnswerShowsTheServersFolders(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await ServiceAPITests.Fixture(backend)
        let root = fixture.mediaRoot
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: root.appendingPathComponent("garbage.mp4"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("folder.mp4"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try "reel: 1\noutput: { size: [160, 90], fps: x }\n".write(to: root.appendingPathComponent("sub/inner.yaml"), atomically: true, encoding: .utf8)
        for copy in ["doomed.mp4", "changing.mp4"] {
            try FileManager.default.copyItem(at: root.appendingPathComponent("clip.mp4"), to: root.appendingPathComponent(copy))
        }
        let secret = fixture.folder.lastPathComponent
        let folders = [secret, fixture.mediaRoot.path, fixture.data.path]
        @Sendable func expectNoServerFolder(_ text: String, _ what: String) {
            #expect(!folders.contains { text.contains($0) }, "\(what) shows a server folder: \(text)")
        }
        // The problem, and what the client wrote, which the message still names.
        let invalid: [(request: String, names: String)] = [
            (Self.request(media: #""clip": "absent.mp4""#), "'clip' not found: absent.mp4"),
            (Self.request(media: #""clip": "garbage.mp4""#), "(garbage.mp4) cannot be read"),
            (Self.request(media: #""clip": "folder.mp4""#), "(folder.mp4) cannot be read"),
            (Self.request(media: #""clip": "frames/f%04d.png""#), "frames/f%04d.png"),
            (Self.request(more: #", "fonts": ["absent.ttf"]"#), "absent.ttf"),
            (Self.request(clipFields: #", "filters": [{"type": "lut", "file": "garbage.mp4"}]"#), "garbage.mp4"),
            (Self.request(media: #""clip": "clip.mp4", "logo": "absent.png""#, more: #", "overlays": [{"image": "logo", "duration": "1s"}]"#), "absent.png"),
            (Self.request(more: #", "captions": [{"file": "absent.vtt"}]"#), "absent.vtt"),
            (Self.request(media: #""clip": "absent.yaml""#), "absent.yaml"),
            (Self.request(media: #""clip": "sub/inner.yaml""#), "sub/inner.yaml:2:"),
            (Self.request(media: #""clip": "https://media.example/clip.mp4""#), "<media cache>"),
        ]
        try await fixture.test { client in
            let alice = ServiceAPITests.auth(fixture.alice)
            func answer(_ method: HTTPRequest.Method, _ uri: String, _ body: String, _ status: HTTPResponse.Status) async throws -> String {
                try await client.execute(uri: uri, method: method, headers: alice, body: ByteBuffer(string: body)) { response in
                    #expect(response.status == status, "\(method) \(uri) \(body): \(String(buffer: response.body))")
                    return String(buffer: response.body)
                }
            }
            for (request, names) in invalid {
                let text = try await answer(.post, "/v1/validate", request, .unprocessableContent)
                expectNoServerFolder(text, request)
                #expect(text.contains(names), "\(request): \(text)")
            }
            // A template that names a missing file; one whose file went after it was put; a
            // batch and a render of one whose path var names files that are not media.
            expectNoServerFolder(try await answer(.put, "/v1/templates/missing", Self.request(media: #""clip": "absent.mp4""#), .unprocessableContent), "a template")
            _ = try await answer(.put, "/v1/templates/doomed", Self.request(media: #""clip": "doomed.mp4""#), .created)
            try FileManager.default.removeItem(at: root.appendingPathComponent("doomed.mp4"))
            let gone = try await answer(.post, "/v1/templates/doomed/renders", "{}", .unprocessableContent)
            expectNoServerFolder(gone, "a template whose media went")
            #expect(gone.contains("doomed.mp4"), "\(gone)")
            let pathVar = Self.request(media: #""clip": "{{ clip }}""#, more: #", "vars": {"clip": {"type": "path", "default": "clip.mp4"}}"#)
            _ = try await answer(.put, "/v1/templates/pick", pathVar, .created)
            expectNoServerFolder(try await answer(.post, "/v1/templates/pick/renders", #"{"vars": {"clip": "garbage.mp4"}}"#, .unprocessableContent), "a template render")
            let batch = try await answer(.post, "/v1/templates/pick/batches", #"{"rows": [{"clip": "folder.mp4"}, {"clip": "clip.mp4"}]}"#, .accepted)
            expectNoServerFolder(batch, "a batch")
            #expect(batch.contains("(folder.mp4) cannot be read"), "\(batch)")
            let id = try #require(try JSONSerialization.jsonObject(with: Data(batch.utf8)) as? [String: Any])["id"] as? String
            expectNoServerFolder(try await answer(.get, "/v1/batches/\(try #require(id))", "", .ok), "a batch's view")
            // Renders that pass the check, then fail on the worker.
            var failing: [String] = []
            for media in ["changing.mp4", "clip.mp4"] {
                let webhook = #", "webhook": {"url": "http://127.0.0.1:9/hook", "secret": "a-secret-of-some-length"}"#
                let posted = try await answer(.post, "/v1/renders", Self.request(media: "\"clip\": \"\(media)\"", fields: webhook), .accepted)
                failing.append(try #require((try JSONSerialization.jsonObject(with: Data(posted.utf8)) as? [String: Any])?["id"] as? String))
            }
            try Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: root.appendingPathComponent("changing.mp4"))
            let outputs = fixture.data.appendingPathComponent("outputs")
            try FileManager.default.removeItem(at: outputs)
            try Data("not a folder".utf8).write(to: outputs)
            try await whileRunning(fixture.workers) {
                for (id, names) in zip(failing, ["changing.mp4", "<data>/outputs"]) {
                    let render = try await ServiceAPITests.finished(client, id, token: fixture.alice)
                    #expect(render["status"] as? String == "failed", "\(render)")
                    let error = render["error"] as? String ?? ""
                    expectNoServerFolder(error, "a failed render's error")
                    #expect(error.contains(names), "\(error)")
                    expectNoServerFolder(try await answer(.get, "/v1/renders/\(id)", "", .ok), "a failed render")
                    for delivery in try await fixture.core.store.deliveries(of: id) { expectNoServerFolder(delivery.body, "a failed render's webhook") }
                }
            }
        }
    }

    /// Each error's status is the one its kind declares: an unknown id or route 404, a
    /// conflict 409, a malformed request 400, a missing media file 422 at its line, a remote
    /// media file that cannot be fetched now 503 with Retry-After. Anything else is a 500 that
    /// tells the client nothing of the server (here the job store lost a table): the error
    /// itself is in the operator's log, under the reference the answer gives.
    @Test(arguments: RenderStoreTests.Backend.available)
    func eachErrorHasTheStatusItsKindDeclares(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await ServiceAPITests.Fixture(backend, addressPolicy: AddressPolicy(allowPrivateNetwork: true))
        let server = try WebhookReceiver()
        let unavailable = server.url("error")
        try await fixture.test { client in
            let alice = ServiceAPITests.auth(fixture.alice)
            func answer(_ method: HTTPRequest.Method, _ uri: String, _ body: String = "", headers: HTTPFields = [:]) async throws -> LiveResponse {
                var fields = alice
                fields.append(contentsOf: headers)
                return try await client.execute(uri: uri, method: method, headers: fields, body: ByteBuffer(string: body)) { $0 }
            }
            func message(_ response: LiveResponse) -> String {
                (((try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any])?["error"] as? [String: Any])?["message"] as? String ?? ""
            }
            for uri in ["/v1/renders/r_0123", "/v1/templates/none", "/v1/batches/b_0123", "/v1/nothing/here"] {
                let response = try await answer(.get, uri)
                #expect(response.status == .notFound && !message(response).isEmpty, "\(uri): \(String(buffer: response.body))")
            }
            let queued = try ServiceAPITests.object(try await answer(.post, "/v1/renders", Self.request(), headers: [.idempotencyKey: "k"]))
            #expect(try await answer(.get, "/v1/renders/\(queued["id"] as? String ?? "")/output").status == .conflict)
            #expect(try await answer(.post, "/v1/renders", Self.request(media: #""clip": "clip.mp4", "b": "clip.mp4""#), headers: [.idempotencyKey: "k"]).status == .conflict)
            #expect(try await answer(.post, "/v1/renders", "[1]").status == .badRequest)
            #expect(try await answer(.get, "/v1/renders?limit=0").status == .badRequest)
            let absent = Self.request(media: #""clip": "absent.mp4""#)
            let missing = try await answer(.post, "/v1/validate", absent)
            let place = ((try ServiceAPITests.object(missing)["error"] as? [String: Any])?["diagnostics"] as? [[String: Any]])?.first
            let column = absent.distance(from: absent.startIndex, to: absent.range(of: #""absent.mp4""#)!.lowerBound) + 1
            #expect(missing.status == .unprocessableContent && place?["line"] as? Int == 1 && place?["column"] as? Int == column, "\(String(buffer: missing.body))")
            let later = try await answer(.post, "/v1/validate", Self.request(media: "\"clip\": \"\(unavailable)\""))
            #expect(later.status == .serviceUnavailable && later.headers[.retryAfter] == "60", "\(String(buffer: later.body))")
            #expect(message(later).contains("cannot be fetched: \(unavailable): the server answered HTTP 500"), "\(message(later))")
            // The job store loses a table: an error no request is to blame for.
            _ = try await fixture.database.write { try $0.execute("DROP TABLE batches") }
            let failed = try await answer(.get, "/v1/batches/b_0123")
            #expect(failed.status == .internalServerError)
            let text = message(failed)
            let reference = try #require(text.firstMatch(of: /\(e_[0-9a-f]{12}\)/).map { String($0.output.dropFirst().dropLast()) }, "\(text)")
            #expect(text.hasPrefix("the service failed while answering this request"), "\(text)")
            for detail in ["batches", "SQL", "sql", "table", fixture.folder.lastPathComponent] { #expect(!text.contains(detail), "\(text)") }
            #expect(fixture.log.all.contains { $0.hasPrefix("\(reference): GET /v1/batches/b_0123 failed: ") && $0.contains("batches") }, "\(fixture.log.all)")
        }
    }
}
