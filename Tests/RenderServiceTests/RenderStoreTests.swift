import Foundation
@testable import RenderService
import SQLStore
import Synchronization
import TestSupport
import Testing

/// The job store's promises, on SQLite and on a real PostgreSQL server (the one
/// `Tests/service/postgres.sh` starts; scripts/test exports its URL as REEL_TEST_POSTGRES_URL).
/// A "node" is a store with its own database connections, as a second `reel serve` has.
@Suite struct RenderStoreTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }

        static let postgresURL = ProcessInfo.processInfo.environment["REEL_TEST_POSTGRES_URL"]
        /// Both where a server is given; CI always gives one (scripts/test).
        static var available: [Backend] { postgresURL == nil ? [.sqlite] : allCases }

        /// A new, empty database; `nodes` stores on it, each with its own connections.
        func stores(_ nodes: Int) async throws -> [RenderStore] {
            switch self {
            case .sqlite:
                // One process per SQLite folder: the nodes share one store.
                let store = try await RenderStore(SQLiteDatabase(path: MediaFactory.folder("store-\(UUID().uuidString.prefix(8))").appendingPathComponent("reel.sqlite").path))
                return Array(repeating: store, count: nodes)
            case .postgres:
                let url = try await Self.emptyPostgresDatabase()
                var stores: [RenderStore] = []
                for _ in 0..<nodes { stores.append(try await RenderStore(PostgresDatabase(url: url))) }
                return stores
            }
        }

        /// `--database` for a service on this backend: a new, empty PostgreSQL database (a
        /// schema of its own), or nil for SQLite (the data folder holds its file).
        func serviceDatabase() async throws -> String? { self == .postgres ? try await Self.emptyPostgresDatabase() : nil }

        private static func emptyPostgresDatabase() async throws -> String {
            let schema = "t_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
            _ = try await PostgresDatabase(url: postgresURL!).write { try $0.execute("CREATE SCHEMA \(schema)") }
            return postgresURL! + "?options=-c%20search_path%3D\(schema)"
        }
    }

    /// A lease no test outlasts, however loaded the machine: for tests of the claiming order,
    /// where a lease running out would hand a render out twice.
    static let untilTheTestEnds: TimeInterval = 3600

    /// `body(0)` … `body(count - 1)` at once, each in a task of its own.
    static func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<count { group.addTask { await body(n) } }
        }
    }

    static func request(webhook: Bool = true) -> String {
        ServiceAPITests.body(extra: webhook ? #", "webhook": {"url": "http://127.0.0.1:9/hook", "secret": "a-secret-of-some-length"}"# : "")
    }

    @Test(arguments: Backend.available)
    func everyValueComesBackAsStored(_ backend: Backend) async throws {
        let store = try await backend.stores(1)[0]
        var render = RenderRecord(token: "alice", request: "{\"text\": \"It's a ? and 'quotes' — ünïcode 🎬\"}", idempotencyKey: "key-1",
                                  now: Date(timeIntervalSince1970: 1_764_282_000.123456))
        (render.startedAt, render.outputBytes, render.progress, render.cancelRequested) = (1_764_282_001.000001, 5_000_000_000, 1.0 / 3.0, true)
        (render.error, render.outputPath, render.segmentsTotal) = ("line 1\nline 2", "/data/outputs/x.mp4", 7)
        #expect(try await store.add(render).isNew)
        #expect(try await store.render(render.id, token: "alice") == render)
        #expect(try await store.render(render.id, token: "bob") == nil)
    }

    @Test(arguments: Backend.available)
    func twoNodesNeverTakeTheSameRender(_ backend: Backend) async throws {
        let nodes = try await backend.stores(2)
        var ids: [String] = []
        for n in 0..<50 { ids.append(try await nodes[n % 2].add(RenderRecord(token: "alice", request: Self.request(), idempotencyKey: nil)).render.id) }
        let claimed = Mutex<[String]>([])
        // Four workers on each node, claiming until the queue is empty.
        await Self.concurrently(8) { worker in
            while let render = try? await nodes[worker % 2].claimNext(owner: "node-\(worker % 2)", lease: Self.untilTheTestEnds) {
                claimed.withLock { $0.append(render.id) }
            }
        }
        let all = claimed.withLock { $0 }
        #expect(all.count == 50)
        #expect(Set(all) == Set(ids))
    }

    @Test(arguments: Backend.available)
    func aDeadNodesLeaseRunsOutAndAnotherNodeFinishesTheRender(_ backend: Backend) async throws {
        let n = try await backend.stores(2), (a, b) = (n[0], n[1])
        let now = Date()
        let id = try await a.add(RenderRecord(token: "alice", request: Self.request(), idempotencyKey: nil, now: now)).render.id
        let taken = try #require(try await a.claimNext(owner: "a", lease: 10, now: now))
        #expect(taken.id == id && taken.leaseOwner == "a")
        // While a's lease runs, b finds nothing; once it has run out, b takes the render.
        #expect(try await b.claimNext(owner: "b", lease: 10, now: now.addingTimeInterval(9)) == nil)
        var retaken = try #require(try await b.claimNext(owner: "b", lease: 10, now: now.addingTimeInterval(11)))
        #expect(retaken.id == id && retaken.leaseOwner == "b")
        // a comes back: its heartbeat says the render is not its own, and its result is not kept.
        #expect(try await a.heartbeat(id, owner: "a", progress: 0.5, segmentsTotal: 3, lease: 10) == .init(held: false, cancelRequested: false))
        var late = taken
        (late.status, late.finishedAt) = (.failed, now.timeIntervalSince1970 + 12)
        #expect(try await a.finish(late, owner: "a", delivery: Delivery(telling: late)) == false)
        #expect(try await a.heartbeat(id, owner: "b", progress: 0.5, segmentsTotal: 3, lease: 10) == .init(held: true, cancelRequested: false))
        (retaken.status, retaken.finishedAt, retaken.leaseOwner) = (.done, now.timeIntervalSince1970 + 13, nil)
        #expect(try await b.finish(retaken, owner: "b", delivery: Delivery(telling: retaken)))
        #expect(try await a.render(id, token: nil)?.status == .done)
        #expect(try await a.deliveries(of: id).map(\.id) == ["d_" + id.dropFirst(2) + "_done"])
    }

    /// One token's many queued renders do not keep another token's render waiting behind them:
    /// the next render is the oldest of the token with the fewest rendering.
    @Test(arguments: Backend.available)
    func tokensTakeTurns(_ backend: Backend) async throws {
        let store = try await backend.stores(1)[0]
        let start = Date()
        var alice: [String] = []
        for n in 0..<3 {
            alice.append(try await store.add(RenderRecord(token: "alice", request: Self.request(), idempotencyKey: nil, now: start.addingTimeInterval(Double(n)))).render.id)
        }
        let bob = try await store.add(RenderRecord(token: "bob", request: Self.request(), idempotencyKey: nil, now: start.addingTimeInterval(10))).render.id
        var order: [String] = []
        for _ in 0..<4 { order.append(try #require(try await store.claimNext(owner: "a", lease: Self.untilTheTestEnds)).id) }
        #expect(order == [alice[0], bob, alice[1], alice[2]])
    }

    @Test(arguments: Backend.available)
    func aRestartedNodeTakesBackOnlyItsOwnRenders(_ backend: Backend) async throws {
        let store = try await backend.stores(1)[0]
        for _ in 0..<3 { _ = try await store.add(RenderRecord(token: "alice", request: Self.request(), idempotencyKey: nil)) }
        _ = try await store.claimNext(owner: "a", lease: Self.untilTheTestEnds)
        _ = try await store.claimNext(owner: "b", lease: Self.untilTheTestEnds)
        #expect(try await store.requeueInterrupted(owner: "c") == 0)
        #expect(try await store.requeueInterrupted(owner: "a") == 1)
        #expect(try await store.statusCounts()[.queued] == 2)
        #expect(try await store.statusCounts()[.rendering] == 1)
    }

    @Test(arguments: Backend.available)
    func aRenderThatKeepsKillingItsNodeIsFailedNotRetriedForever(_ backend: Backend) async throws {
        let store = try await backend.stores(1)[0]
        let id = try await store.add(RenderRecord(token: "alice", request: Self.request(), idempotencyKey: nil)).render.id
        let now = Date()
        // Cut off three times: twice by its node's restart, once by its lease running out.
        for _ in 0..<2 {
            #expect(try await store.claimNext(owner: "a", lease: 30, now: now)?.id == id)
            #expect(try await store.requeueInterrupted(owner: "a") == 1)
        }
        #expect(try await store.claimNext(owner: "a", lease: 30, now: now)?.id == id)
        let later = try await store.add(RenderRecord(token: "alice", request: Self.request(), idempotencyKey: nil, now: now.addingTimeInterval(1))).render.id
        // The next claim fails it (with its webhook) and takes the render after it.
        #expect(try await store.claimNext(owner: "b", lease: 30, now: now.addingTimeInterval(31))?.id == later)
        let failed = try #require(try await store.render(id, token: "alice"))
        #expect(failed.status == .failed && failed.interruptions == 3)
        #expect(failed.error?.contains("its node died while rendering it 3 times") == true)
        #expect(try await store.deliveries(of: id).map(\.id) == ["d_" + id.dropFirst(2) + "_failed"])
    }

    @Test(arguments: Backend.available)
    func oneIdempotencyKeyPostedToTwoNodesAtOnceMakesOneRender(_ backend: Backend) async throws {
        let nodes = try await backend.stores(2)
        let results = Mutex<[String]>([])
        await Self.concurrently(8) { n in
            if let added = try? await nodes[n % 2].add(RenderRecord(token: "alice", request: Self.request(), idempotencyKey: "same")) {
                results.withLock { $0.append(added.render.id) }
            }
        }
        let ids = results.withLock { $0 }
        #expect(ids.count == 8)
        #expect(Set(ids).count == 1)
        #expect(try await nodes[0].statusCounts()[.queued] == 1)
    }

    @Test(arguments: Backend.available)
    func aDueDeliveryIsAttemptedByOneNodeAtATime(_ backend: Backend) async throws {
        let nodes = try await backend.stores(2)
        let past = Date().addingTimeInterval(-60)
        for _ in 0..<10 {
            let id = try await nodes[0].add(RenderRecord(token: "alice", request: Self.request(), idempotencyKey: nil)).render.id
            var render = try #require(try await nodes[0].claimNext(owner: "a", lease: Self.untilTheTestEnds))
            #expect(render.id == id)
            (render.status, render.finishedAt) = (.done, past.timeIntervalSince1970)
            #expect(try await nodes[0].finish(render, owner: "a", delivery: Delivery(telling: render, now: past)))
        }
        let claimed = Mutex<[String]>([])
        await Self.concurrently(4) { n in
            let due = (try? await nodes[n % 2].claimDueDeliveries(hold: 60, limit: 3)) ?? []
            claimed.withLock { $0 += due.map(\.id) }
        }
        let first = claimed.withLock { $0 }
        #expect(first.count == 10)
        #expect(Set(first).count == 10)
        // Held: nobody takes them again until the hold ends (then they are due again).
        #expect(try await nodes[1].claimDueDeliveries(hold: 60).isEmpty)
        #expect(try await nodes[1].claimDueDeliveries(now: Date().addingTimeInterval(61), hold: 60).count == 10)
    }

    @Test(arguments: Backend.available)
    func nodesStartingTogetherMigrateOnce(_ backend: Backend) async throws {
        guard backend == .postgres else { return }
        let schema = "t_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        _ = try await PostgresDatabase(url: Backend.postgresURL!).write { try $0.execute("CREATE SCHEMA \(schema)") }
        let url = Backend.postgresURL! + "?options=-c%20search_path%3D\(schema)"
        let opened = Mutex(0)
        await Self.concurrently(4) { _ in
            if (try? await RenderStore(PostgresDatabase(url: url))) != nil { opened.withLock { $0 += 1 } }
        }
        #expect(opened.withLock { $0 } == 4)
        let rows = try await PostgresDatabase(url: url).read { try $0.rows("SELECT name FROM reel_migrations", []) }
        #expect(rows.count == RenderStore.migrations.count)
    }

    /// The server closes the pooled connections (as a restart or an idle timeout does): the
    /// next read and write open new ones, and nothing is lost or reported.
    @Test(.enabled(if: Backend.postgresURL != nil)) func closedConnectionsAreReplaced() async throws {
        let schema = "t_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        _ = try await PostgresDatabase(url: Backend.postgresURL!).write { try $0.execute("CREATE SCHEMA \(schema)") }
        let store = try await RenderStore(PostgresDatabase(url: Backend.postgresURL! + "?options=-c%20search_path%3D\(schema)&application_name=\(schema)"))
        let id = try await store.add(RenderRecord(token: "alice", request: Self.request(), idempotencyKey: nil)).render.id
        let terminated = try await PostgresDatabase(url: Backend.postgresURL!).read {
            try $0.rows("SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = ?", [.text(schema)])
        }
        #expect(!terminated.isEmpty)
        #expect(try await store.render(id, token: "alice")?.id == id)
        _ = try await PostgresDatabase(url: Backend.postgresURL!).read {
            try $0.rows("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?", [.text(schema)])
        }
        #expect(try await store.claimNext(owner: "a", lease: Self.untilTheTestEnds)?.id == id)
    }

    @Test func aServerThatIsNotThereIsAClearErrorNotAHang() throws {
        let started = Date()
        #expect {
            _ = try PostgresDatabase(url: "postgres://reel@127.0.0.1:9/none?connect_timeout=2")
        } throws: { error in
            let words = "\(error)"
            return words.contains("cannot connect to the PostgreSQL database postgres://reel@127.0.0.1:9/none") && words.contains("refused")
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func aPasswordIsNeverShownInAnError() {
        #expect(PostgresDatabase.withoutPassword("postgres://reel:hunter2@db:5432/reel") == "postgres://reel:***@db:5432/reel")
    }
}
