import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import HTTPTesting
@testable import RenderService
import Synchronization
import TestSupport
import Testing

/// Heavy requests hold no one else: project checks run on their own bounded pool, the store's
/// work on the database's threads, and the server on threads of its own. Every request here has
/// a connection of its own, as separate clients do.
@Suite(.serialized) struct ResponsivenessTests {
    /// A request whose project has `clips` clips of the fixture's media: seconds to check.
    static func heavyBody(clips: Int) -> String {
        let clip = #"{"media": "clip", "duration": "1s"}"#
        return #"{"project": {"reel": 1, "output": {"size": [160, 90], "fps": 25}, "media": {"clip": "clip.mp4"}, "#
            + #""video": [{"clips": ["# + Array(repeating: clip, count: clips).joined(separator: ",") + "]}]}}"
    }

    /// One request on a new connection: its status, `Retry-After` and body.
    static func send(_ port: Int, _ path: String, token: String, body: String? = nil) async throws -> (status: Int, retryAfter: String?, body: String) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("close", forHTTPHeaderField: "Connection")
        request.timeoutInterval = 300
        if let body { (request.httpMethod, request.httpBody) = ("POST", Data(body.utf8)) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 1
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, http.value(forHTTPHeaderField: "Retry-After"), String(decoding: data, as: UTF8.self))
    }

    /// Waits until the pool holds `count` checks.
    static func poolHolds(_ count: Int, _ pool: CheckPool) async throws {
        for _ in 0..<3000 where pool.admittedCount < count { try await Task.sleep(for: .milliseconds(10)) }
        try #require(pool.admittedCount == count, "the pool holds \(pool.admittedCount) checks, not \(count)")
    }

    /// While two large projects are being checked, status requests are answered at once (before,
    /// the checks held the server's threads, and `/healthz` waited 10.9 s for them).
    @Test(arguments: RenderStoreTests.Backend.available)
    func statusRequestsAreAnsweredWhileTwoLargeProjectsAreChecked(_ backend: RenderStoreTests.Backend) async throws {
        let fixture = try await ServiceAPITests.Fixture(backend)
        try await fixture.test { client in
            let port = client.port
            let posted = try await Self.send(port, "/v1/renders", token: fixture.alice, body: ServiceAPITests.body())
            let id = try #require(try JSONSerialization.jsonObject(with: Data(posted.body.utf8)) as? [String: Any])["id"] as? String
            let heavy = Self.heavyBody(clips: 8_000)
            let pool = fixture.core.checks
            let answeredWhileChecking = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        let answer = try await Self.send(port, "/v1/validate", token: fixture.alice, body: heavy)
                        #expect(answer.status == 200, "\(answer.body.prefix(300))")
                        return 0
                    }
                }
                group.addTask {
                    try await Self.poolHolds(2, pool)
                    var answered = 0
                    while pool.admittedCount == 2 {
                        for path in ["/healthz", "/v1/renders/\(id ?? "")"] {
                            let answer = try await Self.send(port, path, token: fixture.alice)
                            #expect(answer.status == 200, "\(path): \(answer.body)")
                            if pool.admittedCount == 2 { answered += 1 }
                        }
                    }
                    return answered
                }
                return try await group.reduce(0, +)
            }
            #expect(answeredWhileChecking >= 4, "only \(answeredWhileChecking) status requests were answered while both checks ran")
        }
    }

    /// The check pool takes as many checks as it has room for; one more is answered 503 with
    /// Retry-After at once, and once the pool has room again the same request is checked.
    @Test func aFullCheckPoolAnswers503WithRetryAfter() async throws {
        let pool = CheckPool(threads: 1, waiting: 0)
        let fixture = try await ServiceAPITests.Fixture(checks: pool)
        try await fixture.test { client in
            let port = client.port
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    let answer = try await Self.send(port, "/v1/validate", token: fixture.alice, body: Self.heavyBody(clips: 8_000))
                    #expect(answer.status == 200)
                }
                try await Self.poolHolds(1, pool)
                let refused = try await Self.send(port, "/v1/validate", token: fixture.alice, body: ServiceAPITests.body())
                #expect(refused.status == 503)
                #expect(refused.retryAfter == "10")
                #expect(refused.body.contains("the service is checking as many projects as it takes at once (1); post again in a few seconds"), "\(refused.body)")
                try await group.waitForAll()
            }
            #expect(try await Self.send(port, "/v1/validate", token: fixture.alice, body: ServiceAPITests.body()).status == 200)
        }
    }
}
