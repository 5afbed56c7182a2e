import Foundation
@testable import RenderService
import TestSupport
import Testing

/// Deny by default: every route of the OpenAPI document (read from the file, so a route added
/// later is covered too), through many spellings of its path, sent over raw sockets to a real
/// server, serves nothing without its owner's live token; the public routes stay public; the
/// owner's token with the path as written in the document works.
@Suite(.serialized) struct AccessTests {
    /// One operation of the document.
    struct Operation: CustomStringConvertible {
        var method: String
        /// As the document writes it: `/v1/renders/{id}`.
        var path: String
        /// The document's `security` for it (nil: the document's default).
        var security: [[String: [String]]]?
        var responses: Set<String>

        var isPublic: Bool { security?.isEmpty == true }
        var hasParameters: Bool { path.contains("{") }
        var description: String { "\(method) \(path)" }
    }

    /// The service's OpenAPI document, as the repository has it.
    static func document() throws -> [String: Any] {
        let file = repositoryRoot.appendingPathComponent("Sources/RenderService/Resources/openapi.json")
        return try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
    }

    /// Every operation of the document, those that cancel last.
    static let operations: [Operation] = {
        let paths = ((try? document())?["paths"] as? [String: [String: Any]]) ?? [:]
        return paths.flatMap { path, methods in
            methods.compactMap { method, value -> Operation? in
                guard let operation = value as? [String: Any] else { return nil }
                return Operation(method: method.uppercased(), path: path, security: operation["security"] as? [[String: [String]]],
                                 responses: Set((operation["responses"] as? [String: Any] ?? [:]).keys))
            }
        }.sorted { ($0.method == "DELETE" ? 1 : 0, $0.path, $0.method) < ($1.method == "DELETE" ? 1 : 0, $1.path, $1.method) }
    }()

    /// `path` with the owner's things in its parameters: the render, the batch, the template.
    static func filled(_ path: String, render: String, batch: String) -> String {
        path.replacingOccurrences(of: "{id}", with: path.hasPrefix("/v1/batches/") ? batch : render).replacingOccurrences(of: "{name}", with: "promo")
    }

    /// The document's public list is the code's, and every other operation takes the bearer
    /// scheme and says so with its 401; an operation with a path parameter documents the 400 a
    /// value that makes an odd spelling of its path gets.
    @Test func theDocumentsPublicRoutesAreTheCodesAndEveryOtherNeedsABearerToken() throws {
        let document = try Self.document()
        #expect(Self.operations.count >= 14)
        #expect(Set(Self.operations.filter(\.isPublic).map(\.description)) == Set(TokenAuthentication.publicRoutes.map(\.description)))
        #expect(document["security"] as? [[String: [String]]] == [["bearer": []]])
        let scheme = ((document["components"] as? [String: Any])?["securitySchemes"] as? [String: Any])?["bearer"] as? [String: String]
        #expect(scheme == ["type": "http", "scheme": "bearer"])
        for operation in Self.operations where !operation.isPublic {
            #expect(operation.security == nil || operation.security! == [["bearer": []]], "\(operation)")
            #expect(operation.responses.contains("401"), "\(operation) needs a token: its 401 belongs in the document")
            if operation.hasParameters { #expect(operation.responses.contains("400"), "\(operation): a refused spelling of its path is a 400") }
        }
    }

    /// How the service is to take one spelling of a route's path.
    enum Reading {
        /// The path as the document writes it (or in a form that routes the same: absolute, with a query).
        case same
        /// Refused before any route: 400.
        case refused
        /// Letter case kept: it names no route (401 without a token, 404 with one).
        case noRoute
    }

    /// Spellings of `path` (a route's, its parameters filled in) that must never be read as
    /// another spelling of it.
    static func spellings(of path: String, port: Int) -> [(target: String, reading: Reading)] {
        let parts = path.split(separator: "/").map(String.init)
        let (first, rest) = (parts[0], parts.dropFirst().map { "/" + $0 }.joined())
        let last = parts[parts.count - 1], butLast = "/" + parts.dropLast().map { $0 + "/" }.joined()
        let encodedLetter = butLast + String(format: "%%%02X", last.utf8.first!) + String(last.dropFirst())
        var refused: [String] = ["/" + path, path + "/", path + "//", "/" + first + "/" + rest, "//" + path]
        refused += ["/." + path, "/" + first + "/." + rest, path + "/.", "/.." + path, path + "/..", path + "/x/.."]
        refused += ["/" + first + "/x/.." + rest, "/" + first + "/x/../" + first + rest]
        refused += ["/" + parts.joined(separator: "%2F"), "/" + parts.joined(separator: "%2f"), path.replacingOccurrences(of: "/", with: "%2F"), path + "%2F"]
        refused += ["/" + first + "/%2e" + rest, "/" + first + "/%2E" + rest, "/%2e%2e" + path, "/" + first + "/x/%2e%2e" + rest]
        refused += ["/" + first + "/x/.%2E" + rest, path + "/%2e", encodedLetter, encodedLetter.lowercased(), path + "%00", path + "%20"]
        refused += ["/" + parts.joined(separator: "\\"), path + "\\", path + ";x", "/" + first + ";x" + rest, path + "#x", path + "é"]
        refused += [String(path.dropFirst()), "http://127.0.0.1:\(port)/" + path, "*"]
        refused += ["//" + first.uppercased() + "/." + rest + "/", "/" + parts.joined(separator: "/./") + "//", "/%2e/" + first + "/x/%2E%2E" + rest + "/"]
        let capitalised = first.prefix(1).uppercased() + String(first.dropFirst())
        let noRoute: [String] = ["/" + capitalised + rest, path.uppercased()]
        let same: [String] = [path, "http://127.0.0.1:\(port)" + path, path + "?x=/../y"]
        // (A path of one segment has no inner slash to double or encode: those spellings are the path.)
        return same.map { ($0, Reading.same) } + refused.filter { $0 != path }.map { ($0, Reading.refused) } + noRoute.map { ($0, Reading.noRoute) }
    }

    /// Whether `answer` refuses the spelling of the path, not a route's 400 for the body: the
    /// service's refusal, or the HTTP parser's (an empty 400 that closes the connection) for a
    /// target that is no path (`v1/renders`, `%2Fv1`) or has a non-ASCII byte.
    static func refusesThePath(_ answer: RawHTTP.Response) -> Bool {
        let message = (answer.object?["error"] as? [String: Any])?["message"] as? String
        let byTheParser = answer.body.isEmpty && answer.header("Connection") == "close"
        return answer.status == 400 && (message?.hasPrefix("the request path ") == true || byTheParser)
    }

    /// Who asks.
    enum Caller: CaseIterable {
        case anonymous, revoked, otherTenant, owner

        func fields(_ live: LiveService) -> [String] {
            switch self {
            case .anonymous: []
            case .revoked: [LiveService.auth(live.revoked)]
            case .otherTenant: [LiveService.auth(live.bob)]
            case .owner: [LiveService.auth(live.alice)]
            }
        }
    }

    /// The owner's request to each operation of the document with the path as it writes it:
    /// its body and the status that says the route answered.
    static let ownersRequests: [String: (body: String, status: Int)] = [
        "GET /healthz": ("", 200), "GET /metrics": ("", 200), "GET /v1/openapi.json": ("", 200),
        "GET /v1/renders": ("", 200), "POST /v1/renders": (ServiceAPITests.body(headline: "Again"), 202),
        "GET /v1/renders/{id}": ("", 200), "GET /v1/renders/{id}/output": ("", 200), "DELETE /v1/renders/{id}": ("", 200),
        "GET /v1/templates/{name}": ("", 200), "PUT /v1/templates/{name}": (TemplateTests.template, 200),
        "POST /v1/templates/{name}/renders": (#"{"vars": {"headline": "Owner"}}"#, 202),
        "POST /v1/templates/{name}/batches": (#"{"rows": [{"headline": "Row"}]}"#, 202),
        "GET /v1/batches/{id}": ("", 200), "POST /v1/validate": (ServiceAPITests.body(), 200),
    ]

    @Test(arguments: RenderStoreTests.Backend.available)
    func noSpellingOfAnyRouteServesWithoutItsOwnersLiveToken(_ backend: RenderStoreTests.Backend) async throws {
        try await LiveService.with(backend) { live in
            let owner = [LiveService.auth(live.alice)]
            let render = try await live.renderAsAlice()
            #expect(try await live.http.request("PUT", "/v1/templates/promo", fields: owner, body: Array(TemplateTests.template.utf8)).status == 201)
            let posted = try await live.http.request("POST", "/v1/templates/promo/batches", fields: owner, body: Array(#"{"rows": [{"headline": "One"}]}"#.utf8))
            let batch = try #require(posted.object?["id"] as? String, "\(posted.status) \(posted.text)")
            let secrets = [render, batch]

            for operation in Self.operations {
                let path = Self.filled(operation.path, render: render, batch: batch)
                guard !path.contains("{") else {
                    Issue.record("\(operation): AccessTests has no value for its path parameter; add one")
                    continue
                }
                for (target, reading) in Self.spellings(of: path, port: live.http.port) {
                    for caller in Caller.allCases where !(caller == .owner && reading == .same) {
                        let answer = try await live.http.request(operation.method, target, fields: caller.fields(live))
                        let expected: Int? = switch (reading, caller) {
                        case (.refused, _): 400
                        case (.noRoute, .anonymous), (.noRoute, .revoked): 401
                        case (.noRoute, _): 404
                        case (.same, _) where operation.isPublic: 200
                        case (.same, .anonymous), (.same, .revoked): 401
                        // Another tenant's token on the owner's id or name: none of them is its,
                        // but PUT's, which names a template of the caller's own (an empty body is no project).
                        case (.same, _) where operation.hasParameters: operation.method == "PUT" ? 422 : 404
                        case (.same, _): nil
                        }
                        let said = "\(caller) \(operation.method) \(target): \(answer.status) \(answer.text.prefix(300))"
                        if let expected { #expect(answer.status == expected, "\(said)") }
                        if reading == .refused { #expect(Self.refusesThePath(answer), "\(said)") }
                        if answer.status == 401 { #expect(answer.header("WWW-Authenticate") == "Bearer", "\(said)") }
                        if (200..<300).contains(answer.status), caller != .owner {
                            #expect(!secrets.contains { answer.text.contains($0) }, "\(said)")
                        }
                    }
                }
            }

            // A request for no route: 401 without a token (it tells nothing), 404 with one.
            for (method, target) in [("GET", "/"), ("GET", "/v1"), ("GET", "/v2/renders"), ("GET", "/v1/nothing"), ("DELETE", "/healthz"),
                                     ("POST", "/v1/openapi.json"), ("PATCH", "/v1/renders"), ("PUT", "/v1/renders/\(render)")] {
                for caller in Caller.allCases {
                    let answer = try await live.http.request(method, target, fields: caller.fields(live))
                    #expect(answer.status == ([.anonymous, .revoked].contains(caller) ? 401 : 404), "\(caller) \(method) \(target): \(answer.status)")
                }
            }

            // PUT names a template of the caller's own: another tenant's makes its own (201, not
            // the 200 of a replaced one), and the owner's stays the owner's.
            let theirs = try await live.http.request("PUT", "/v1/templates/promo", fields: [LiveService.auth(live.bob)], body: Array(TemplateTests.template.utf8))
            #expect(theirs.status == 201, "\(theirs.status) \(theirs.text)")

            // The owner, with the path as the document writes it: every route answers.
            for operation in Self.operations {
                guard let request = Self.ownersRequests[operation.description] else {
                    Issue.record("\(operation): add the owner's request for it to AccessTests.ownersRequests")
                    continue
                }
                let path = Self.filled(operation.path, render: render, batch: batch)
                let answer = try await live.http.request(operation.method, path, fields: owner, body: Array(request.body.utf8))
                #expect(answer.status == request.status, "\(operation): \(answer.status) \(answer.text.prefix(300))")
                if operation.path.hasSuffix("/output") { #expect(answer.body.count > 1000 && answer.header("Content-Type") == "video/mp4") }
            }
            for (path, reading) in Self.spellings(of: "/v1/renders", port: live.http.port) where reading == .same {
                let listed = try await live.http.request("GET", path, fields: owner)
                #expect(listed.status == 200 && listed.text.contains(render), "\(path): \(listed.status)")
            }
        }
    }
}
