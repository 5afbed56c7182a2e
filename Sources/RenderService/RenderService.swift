import AtomicFiles
import Foundation
import Hummingbird
import Logging
import NetworkPolicy
import NIOCore
import ReelApplication
import ServiceLifecycle
import SQLStore
import Synchronization

/// What `reel serve` is asked to run.
public struct ServiceConfiguration: Sendable {
    /// The service's folder: database (SQLite), outputs, segment cache. Nodes that share a
    /// PostgreSQL database share this folder too (outputs and segments any node may need).
    public var data: String
    /// `postgres://…`: the jobs live in that PostgreSQL database, shared by several nodes; nil:
    /// in SQLite in `data`, for this process alone.
    public var database: String?
    /// This node's name, the owner of its leases: a node restarted under the same name takes
    /// back at once what it was rendering. HOST:PORT (with port 0, HOST:pidPID).
    public var node: String
    /// How long a render stays leased to a node that stopped renewing the lease (died), before
    /// another node takes it.
    public var lease: TimeInterval
    public var host: String
    /// 0: any free port.
    public var port: Int
    /// Renders rendered at the same time.
    public var workers: Int
    /// Folders posted projects may read media from (a relative path is looked up in them in order).
    public var mediaRoots: [String]
    /// Renders a token may have queued or rendering at once.
    public var pendingPerToken: Int
    /// Posted projects checked at once (each on a thread of its own), and how many more may wait
    /// for a thread before the service answers 503.
    public var checkThreads = AvailableCores.count
    public var checksWaiting = 16
    /// Whether media and webhook URLs may reach loopback, private and link-local addresses.
    public var allowPrivateNetwork: Bool
    /// How long a finished render's output is kept (then its output answers 410 Gone).
    public var keep: TimeInterval
    /// How long running renders may take to finish when the service stops before they are put
    /// back in the queue.
    public var grace: TimeInterval
    /// Its remote media cache fetches posted projects' `https://` media (the service opens them
    /// inside its media roots).
    public var workspace: Workspace
    /// The program each render runs in, as `reel render` (a crash stays in it): this one.
    public var renderProgram: URL
    /// A line for the operator's log, from any thread.
    public var log: @Sendable (String) -> Void
    /// The executor the service's async work prefers: none (Swift's shared pool) in `reel
    /// serve`, where nothing blocks the pool (renders run in child processes, checks on threads
    /// of their own); a process that also blocks the pool with synchronous work (the test
    /// runner) gives threads of its own. Only where needed: under a preference, a task group
    /// cancelled while ServiceLifecycle's merged event streams deliver can deadlock in the
    /// runtime (a cancellation handler takes a lock while holding the task's status lock; seen
    /// as a `reel preview` that hung at a port in use).
    public var executor: (any TaskExecutor)? = nil
    /// How long the rest of a request's body is read and dropped, at most, after an answer
    /// given before it came whole (413, 401…); then the connection is closed (`EarlyAnswers`).
    public var lingering: TimeInterval = 10

    public init(data: String, database: String? = nil, host: String, port: Int, workers: Int, mediaRoots: [String], pendingPerToken: Int = 100,
                keep: TimeInterval = 7 * 86400, lease: TimeInterval = 30, allowPrivateNetwork: Bool = false, grace: TimeInterval = 30,
                workspace: Workspace, renderProgram: URL = ChildProcess.thisProgram, log: @escaping @Sendable (String) -> Void) {
        self.data = data
        self.database = database
        // Port 0 takes any free port: the process id tells such nodes apart.
        node = "\(ProcessInfo.processInfo.hostName):\(port == 0 ? "pid\(getpid())" : String(port))"
        self.host = host
        self.port = port
        self.workers = workers
        self.mediaRoots = mediaRoots
        self.pendingPerToken = pendingPerToken
        self.keep = keep
        self.lease = lease
        self.allowPrivateNetwork = allowPrivateNetwork
        self.grace = grace
        self.workspace = workspace
        self.renderProgram = renderProgram
        self.log = log
    }
}

extension ServiceConfiguration {
    /// `7d`, `24h`, `90m` or `3600s` in seconds, or nil.
    public static func duration(_ text: String) -> TimeInterval? {
        let units: [Character: TimeInterval] = ["d": 86400, "h": 3600, "m": 60, "s": 1]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Double(text.dropLast()), count > 0 else { return nil }
        return count * unit
    }

    /// `HOST:PORT` (`[::1]:8650` for an IPv6 address; port 0: any free one), or nil.
    public static func listenAddress(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        let host = String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return host.isEmpty ? nil : (host, port)
    }
}

/// `reel serve`: the render API over HTTP (docs/service.md). Every accepted render is in the
/// database before the client hears of it, and is rendered even if the service dies meanwhile:
/// at the next start its lease has run out and a worker takes it again.
public final class RenderService: Sendable {
    private let configuration: ServiceConfiguration
    private let core: ServiceCore
    private let workers: RenderWorkers
    private let deliveries: WebhookDeliveries
    private let group = Mutex<ServiceGroup?>(nil)
    /// The data folder's lock, held while the service lives: one service per folder. (A
    /// temporary file that is never committed: its flock says a live process holds it.)
    private let lock: Mutex<PartialFile>

    public init(_ configuration: ServiceConfiguration) async throws {
        self.configuration = configuration
        let folders = try ServiceFolders(root: configuration.data, mediaRoots: configuration.mediaRoots)
        lock = Mutex(try Self.lock(folders, node: configuration.database == nil ? nil : configuration.node))
        let store = try await RenderStore.open(configuration.database, folders: folders)
        let interrupted = try await store.requeueInterrupted(owner: configuration.node)
        if interrupted > 0 { configuration.log("\(interrupted) render\(interrupted == 1 ? " was" : "s were") cut off by the last stop: queued again") }
        // Posted projects read media only inside the roots (or from https URLs).
        let workspace = Workspace(remote: configuration.workspace.remote, mediaRoots: try MediaRoots(folders.mediaRoots))
        core = try ServiceCore(store: store, workspace: workspace, checks: CheckPool(threads: configuration.checkThreads, waiting: configuration.checksWaiting),
                               folders: folders, pendingPerToken: configuration.pendingPerToken, keep: configuration.keep, log: configuration.log)
        workers = RenderWorkers(store: store, workspace: workspace, folders: folders, count: configuration.workers, node: configuration.node,
                                lease: configuration.lease, grace: configuration.grace, program: configuration.renderProgram,
                                executor: configuration.executor, log: configuration.log)
        deliveries = WebhookDeliveries(store: store, policy: AddressPolicy(allowPrivateNetwork: configuration.allowPrivateNetwork), log: configuration.log)
    }

    /// Serves until `stop()`; `ready` gets the base URL once the port is open. The HTTP server,
    /// the workers, the webhook deliveries and the sweeper are services of one group; on `stop()`
    /// the server stops first, then the workers (after their grace time, leaving unfinished
    /// renders queued), then the others, so the deliveries of the last renders are attempted.
    public func run(ready: @escaping @Sendable (String) -> Void) async throws {
        var logger = Logger(label: "reel.serve") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        let host = configuration.host, lingering = TimeAmount.nanoseconds(Int64(configuration.lingering * 1e9))
        let app = Application(router: ServiceRoutes.router(core), server: .http1(configuration: .init(additionalChannelHandlers: [EarlyAnswers(lingering: lingering)])),
                              configuration: .init(address: .hostname(host, port: configuration.port), serverName: nil),
                              onServerRunning: { channel in ready("http://\(host.contains(":") ? "[\(host)]" : host):\(channel.localAddress?.port ?? 0)") },
                              logger: logger)
        // Shut down in the reverse order: the server first.
        let services: [any Service] = [deliveries, OutputSweeper(core: core, log: configuration.log), workers, app]
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [], logger: logger))
        self.group.withLock { $0 = group }
        do {
            try await withTaskExecutorPreference(configuration.executor) { try await group.run() }
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw StartFailure.portInUse(host: configuration.host, port: configuration.port)
        }
    }

    /// Why the service could not start: another service has its folder, another program its port.
    public enum StartFailure: Error, CustomStringConvertible {
        case folderInUse(String, holder: Int32?, node: String?)
        case portInUse(host: String, port: Int)
        /// The PostgreSQL database cannot be reached, or its URL is not one.
        case database(String)

        public var description: String {
            switch self {
            case .folderInUse(let folder, let holder, nil):
                "another reel serve\(holder.map { " (pid \($0))" } ?? "") is using \(folder); give each service its own data folder"
            case .folderInUse(let folder, let holder, let node?):
                "another reel serve\(holder.map { " (pid \($0))" } ?? "") runs as node \(node) on \(folder); give each node its own --listen port (its name is HOST:PORT)"
            case .database(let problem):
                "\(problem); check the database URL and that the server runs"
            case .portInUse(let host, let port):
                "port \(port) on \(host) is in use by another program; stop it, or listen on another port"
            }
        }
    }

    /// Stops taking requests and renders (safe from any thread).
    public func stop() {
        let group = self.group.withLock { $0 }
        Task { await group?.triggerGracefulShutdown() }
    }
}

extension RenderService {
    /// The data folder's lock: a second service on the same folder is refused at once. Nodes
    /// sharing a PostgreSQL database share the folder, one lock per node name.
    fileprivate static func lock(_ folders: ServiceFolders, node: String?) throws -> PartialFile {
        let lock: PartialFile
        do {
            lock = try PartialFile(output: folders.root + "/" + (node.map { "node-" + $0.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined() } ?? "service"))
        } catch {
            guard case .busy(let holder) = error.kind else { throw error }
            throw StartFailure.folderInUse(folders.root, holder: holder, node: node)
        }
        return lock
    }
}

/// The service's API tokens (`reel serve token create|list|revoke`), kept in its database.
public struct ServiceTokens: Sendable {
    private let store: RenderStore

    /// The tokens of the service on `data` (and `database`, when its jobs are in PostgreSQL).
    public init(data: String, database: String?) async throws {
        store = try await RenderStore.open(database, folders: try ServiceFolders(root: data, mediaRoots: []))
    }

    /// A new token: shown once, kept as its SHA-256. Throws `TokenRefusal` for a name that is
    /// not one, or is a live token's.
    public func create(name: String) async throws -> String { try await store.createToken(name: name) }

    /// A line per token, live and revoked, each told apart by its fingerprint (the first 12 hex
    /// digits of the secret's SHA-256): `NAME  FINGERPRINT  created TIME  live|revoked TIME`.
    public func list() async throws -> [String] {
        try await store.tokens().map { token in
            let state = token.revokedAt.map { "revoked \(RenderView.time($0.timeIntervalSince1970))" } ?? "live"
            return "\(token.name)  \(token.fingerprint)  created \(RenderView.time(token.createdAt.timeIntervalSince1970))  \(state)"
        }
    }

    public func revoke(name: String) async throws -> Bool { try await store.revokeToken(name: name) }
}

/// Removes the outputs kept longer than the keep time, once a minute, until the group shuts down.
private struct OutputSweeper: Service {
    let core: ServiceCore
    let log: @Sendable (String) -> Void

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            if let removed = try? await core.removeExpiredOutputs(), removed > 0 {
                log("\(removed) output\(removed == 1 ? "" : "s") kept longer than the keep time removed")
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(60)) }
        }
    }
}
