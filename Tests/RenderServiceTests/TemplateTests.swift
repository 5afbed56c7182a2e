import Foundation
import Hummingbird
import HTTPTesting
@testable import RenderService
import TestSupport
import Testing

/// Templates kept under a name and rendered with other vars, alone or a batch of rows that
/// share the segment cache.
@Suite(.serialized) struct TemplateTests {
    /// A 4 s project (two segments) whose headline shows in the first second only.
    static let template = """
        {"project": {"reel": 1, "output": {"size": [160, 90], "fps": 25},
                     "media": {"clip": "clip.mp4"},
                     "video": [{"clips": [{"media": "clip", "duration": "2s"}, {"media": "clip", "duration": "2s"}]}],
                     "vars": {"headline": {"type": "string", "default": "Hello", "max_length": 20}},
                     "overlays": [{"text": "{{ headline }}", "duration": "1s"}]}}
        """

    @Test(arguments: RenderStoreTests.Backend.available)
    func aTemplateIsStoredCheckedAndRenderedWithVars(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await ServiceAPITests.Fixture(backend)
        try await whileRunning(fixture.workers) { try await fixture.test { client in
            let alice = ServiceAPITests.auth(fixture.alice)
            try await client.execute(uri: "/v1/templates/promo", method: .put, headers: alice, body: ByteBuffer(string: Self.template)) {
                #expect($0.status == .created)
            }
            try await client.execute(uri: "/v1/templates/promo", method: .put, headers: alice, body: ByteBuffer(string: Self.template)) {
                #expect($0.status == .ok, "replaced")
            }
            let broken = Self.template.replacingOccurrences(of: "\"fps\": 25", with: "\"fps\": \"x\"")
            try await client.execute(uri: "/v1/templates/broken", method: .put, headers: alice, body: ByteBuffer(string: broken)) {
                #expect($0.status == .unprocessableContent)
            }
            for bad in ["..", "a b", String(repeating: "x", count: 101)] {
                let path = bad.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? bad
                try await client.execute(uri: "/v1/templates/\(path)", method: .put, headers: alice, body: ByteBuffer(string: Self.template)) {
                    #expect($0.status == .badRequest || $0.status == .notFound, "\(bad)")
                }
            }
            let shown = try await client.execute(uri: "/v1/templates/promo", method: .get, headers: alice) { try ServiceAPITests.object($0) }
            #expect(shown["name"] as? String == "promo" && shown["project"] is [String: Any])
            try await client.execute(uri: "/v1/templates/promo", method: .get, headers: ServiceAPITests.auth(fixture.bob)) { #expect($0.status == .notFound) }
            let posted = try await client.execute(uri: "/v1/templates/promo/renders", method: .post, headers: alice,
                                                  body: ByteBuffer(string: #"{"vars": {"headline": "Summer"}, "metadata": {"n": 1}}"#)) { response in
                #expect(response.status == .accepted)
                return try ServiceAPITests.object(response)
            }
            let id = try #require(posted["id"] as? String)
            #expect(try await ServiceAPITests.finished(client, id, token: fixture.alice)["status"] as? String == "done")
            // A value the template's var refuses: 422 at its place in what was posted.
            let refused = try await client.execute(uri: "/v1/templates/promo/renders", method: .post, headers: alice,
                                                   body: ByteBuffer(string: #"{"vars": {"headline": "far too long for the template's limit"}}"#)) { response in
                #expect(response.status == .unprocessableContent)
                return try ServiceAPITests.object(response)
            }
            let place = ((refused["error"] as? [String: Any])?["diagnostics"] as? [[String: Any]])?.first
            #expect(place?["file"] as? String == "request" && place?["line"] as? Int == 1 && place?["column"] as? Int == 23, "\(refused)")
            try await client.execute(uri: "/v1/templates/promo/renders", method: .post, headers: alice,
                                     body: ByteBuffer(string: #"{"project": {}}"#)) { #expect($0.status == .badRequest) }
        } }
    }

    /// A problem inside a template's project is told at its line and column in the template's
    /// body as it was put, not in the request the service joins for a render.
    @Test(arguments: RenderStoreTests.Backend.available)
    func problemsInsideATemplateAreToldWhereTheTemplateWasWritten(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await ServiceAPITests.Fixture(backend)
        /// Line and column (1-based) of `text`'s first occurrence in `body`.
        @Sendable func place(of text: String, in body: String) throws -> (line: Int, column: Int) {
            let lines = body.components(separatedBy: "\n")
            let line = try #require(lines.firstIndex { $0.contains(text) })
            return (line + 1, lines[line].distance(from: lines[line].startIndex, to: lines[line].range(of: text)!.lowerBound) + 1)
        }
        @Sendable func firstProblem(_ answer: [String: Any]) -> (file: String?, line: Int?, column: Int?) {
            let first = ((answer["error"] as? [String: Any])?["diagnostics"] as? [[String: Any]])?.first
            return (first?["file"] as? String, first?["line"] as? Int, first?["column"] as? Int)
        }
        try await fixture.test { client in
            let alice = ServiceAPITests.auth(fixture.alice)
            let broken = "\n  " + Self.template.replacingOccurrences(of: #""duration": "1s"}]}}"#, with: #""duration": "zz"}]}}"#)
            let refused = try await client.execute(uri: "/v1/templates/broken", method: .put, headers: alice, body: ByteBuffer(string: broken)) { response in
                #expect(response.status == .unprocessableContent)
                return try ServiceAPITests.object(response)
            }
            let wrong = try place(of: #""zz""#, in: broken)
            #expect(firstProblem(refused) == ("request", wrong.line, wrong.column), "\(refused)")

            try await client.execute(uri: "/v1/templates/promo", method: .put, headers: alice, body: ByteBuffer(string: Self.template)) {
                #expect($0.status == .created)
            }
            // The template's media is gone by the time it is rendered.
            try FileManager.default.removeItem(at: fixture.mediaRoot.appendingPathComponent("clip.mp4"))
            let missing = try await client.execute(uri: "/v1/templates/promo/renders", method: .post, headers: alice,
                                                   body: ByteBuffer(string: "{\n  \"vars\": {\"headline\": \"Summer\"}\n}")) { response in
                #expect(response.status == .unprocessableContent)
                return try ServiceAPITests.object(response)
            }
            let media = try place(of: #""clip.mp4""#, in: Self.template)
            #expect(firstProblem(missing) == ("templates/promo", media.line, media.column), "\(missing)")
            let message = (missing["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains("templates/promo:\(media.line):\(media.column)"), "\(message)")
        }
    }

    /// Rows checked first: an invalid row is kept with its problems, the others render, and a
    /// later row reuses the segment no row changes.
    @Test(arguments: RenderStoreTests.Backend.available)
    func aBatchRendersEveryValidRowSharingTheCache(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await ServiceAPITests.Fixture(backend)
        try await whileRunning(fixture.workers) { try await fixture.test { client in
            let alice = ServiceAPITests.auth(fixture.alice)
            try await client.execute(uri: "/v1/templates/promo", method: .put, headers: alice, body: ByteBuffer(string: Self.template)) { _ in }
            let rows = #"{"rows": [{"headline": "One"}, {"headline": "far too long for the template's limit"}, {"headline": "Three"}], "format": "mp4"}"#
            let batch = try await client.execute(uri: "/v1/templates/promo/batches", method: .post, headers: alice, body: ByteBuffer(string: rows)) { response in
                #expect(response.status == .accepted)
                return try ServiceAPITests.object(response)
            }
            let id = try #require(batch["id"] as? String)
            var shown: [String: Any] = [:]
            for _ in 0..<600 {
                shown = try await client.execute(uri: "/v1/batches/\(id)", method: .get, headers: alice) { try ServiceAPITests.object($0) }
                if (shown["renders"] as? [String: Int])?["done"] == 2 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            let statuses = (shown["rows"] as? [[String: Any]])?.map { $0["status"] as? String ?? "" }
            #expect(statuses == ["done", "invalid", "done"], "\(shown)")
            let renders = (shown["rows"] as? [[String: Any]])?.compactMap { $0["render"] as? String } ?? []
            var reused: [Int] = []
            for render in renders { reused.append(try #require(try await fixture.core.store.render(render, token: "alice")).segmentsReused) }
            #expect(reused.reduce(0, +) >= 1, "the second segment, where no headline shows, is rendered once: \(reused)")
            try await client.execute(uri: "/v1/batches/\(id)", method: .get, headers: ServiceAPITests.auth(fixture.bob)) { #expect($0.status == .notFound) }
            let allBad = #"{"rows": [{"headline": "far too long for the template's limit"}]}"#
            try await client.execute(uri: "/v1/templates/promo/batches", method: .post, headers: alice, body: ByteBuffer(string: allBad)) {
                #expect($0.status == .unprocessableContent)
            }
        } }
    }

    /// A batch's rows are planned as `reel batch` plans them: a row's problem is told at its
    /// line and column in the batch as it was posted, and a value that is no var of the
    /// template is ignored with a warning at its place, saying which var it looks like.
    @Test(arguments: RenderStoreTests.Backend.available)
    func aBatchsProblemsAreToldWhereTheRowsWerePosted(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await ServiceAPITests.Fixture(backend)
        try await fixture.test { client in
            let alice = ServiceAPITests.auth(fixture.alice)
            try await client.execute(uri: "/v1/templates/promo", method: .put, headers: alice, body: ByteBuffer(string: Self.template)) { _ in }
            let rows = """
                {"format": "mp4",
                 "rows": [
                   {"headline": "One"},
                   {"headline": "far too long for the template's limit"},
                   {"headlin": "Three"}
                 ]}
                """
            let batch = try await client.execute(uri: "/v1/templates/promo/batches", method: .post, headers: alice, body: ByteBuffer(string: rows)) { response in
                #expect(response.status == .accepted)
                return try ServiceAPITests.object(response)
            }
            let shown = try #require(batch["rows"] as? [[String: Any]])
            #expect(shown.map { $0["status"] as? String } == ["queued", "invalid", "queued"], "\(batch)")
            let problem = try #require((shown[1]["problems"] as? [[String: Any]])?.first)
            #expect(problem["file"] as? String == "request" && problem["line"] as? Int == 4 && problem["column"] as? Int == 17, "\(problem)")
            #expect((problem["message"] as? String)?.hasPrefix("row 2: ") == true, "\(problem)")
            let warning = try #require((batch["warnings"] as? [[String: Any]])?.first)
            #expect(warning["line"] as? Int == 5 && warning["column"] as? Int == 16, "\(warning)")
            #expect((warning["hint"] as? String)?.contains("'headlin' looks like the var 'headline'") == true, "\(warning)")
        }
    }
}
