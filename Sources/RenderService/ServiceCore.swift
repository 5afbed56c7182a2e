import Foundation
import Hummingbird
import InstalledResources
import ProjectCompiler
import ProjectFile
import ReelApplication
import RenderEngine

/// What the routes share: the store, the workspace posted projects are opened in, the pool they
/// are checked on, the folders and the limits.
struct ServiceCore: Sendable {
    let store: RenderStore
    let workspace: Workspace
    let checks: CheckPool
    let folders: ServiceFolders
    /// Largest request body: a project (at most 1 MiB) with its vars and fields.
    static let largestBody = 2 << 20
    /// Renders a token may have queued or rendering at once.
    let pendingPerToken: Int
    /// How long a finished render's output is kept.
    let keep: TimeInterval
    /// The API's description (`/v1/openapi.json`).
    let openAPI: [UInt8]
    /// The server's folders, which no answer shows.
    let paths: ServerPaths
    /// A line for the operator's log (a request that failed on the service's side).
    let log: @Sendable (String) -> Void

    init(store: RenderStore, workspace: Workspace, checks: CheckPool = CheckPool(threads: 2, waiting: 8), folders: ServiceFolders,
         pendingPerToken: Int, keep: TimeInterval = 7 * 86400, log: @escaping @Sendable (String) -> Void = { _ in }) throws {
        self.store = store
        self.workspace = workspace
        self.checks = checks
        self.folders = folders
        self.pendingPerToken = pendingPerToken
        self.keep = keep
        paths = ServerPaths(folders: folders, workspace: workspace)
        self.log = log
        guard let url = InstalledResources.url(forResource: "openapi", withExtension: "json", bundle: Bundle.module) else {
            throw ServiceError(status: .internalServerError, message: "the service's openapi.json is missing from its resources")
        }
        openAPI = Array(try Data(contentsOf: url))
    }

    /// The Prometheus text of `/metrics`: renders by status, the queue's depth, render seconds,
    /// webhook attempts.
    func metrics() async throws -> String {
        let counts = try await store.statusCounts()
        var text = "# HELP reel_renders Renders by status.\n# TYPE reel_renders gauge\n"
        for status in RenderStatus.allCases { text += "reel_renders{status=\"\(status.rawValue)\"} \(counts[status] ?? 0)\n" }
        text += "# HELP reel_queue_depth Renders waiting for a worker.\n# TYPE reel_queue_depth gauge\nreel_queue_depth \(counts[.queued] ?? 0)\n"
        text += "# HELP reel_render_seconds_total Seconds from start to finish of finished renders.\n# TYPE reel_render_seconds_total counter\n"
        text += "reel_render_seconds_total \(try await store.renderSeconds())\n"
        text += "# HELP reel_webhook_attempts_total Webhook delivery attempts, by how the delivery stands.\n# TYPE reel_webhook_attempts_total counter\n"
        for (status, count) in try await store.deliveryAttempts().sorted(by: { $0.key < $1.key }) {
            text += "reel_webhook_attempts_total{delivery=\"\(status)\"} \(count)\n"
        }
        return text
    }

    /// Removes the outputs of renders finished longer than `keep` ago (their output answers 410).
    func removeExpiredOutputs(now: Date = Date()) async throws -> Int {
        let expired = try await store.outputs(finishedBefore: now.timeIntervalSince1970 - keep).filter { FileManager.default.fileExists(atPath: $0) }
        for path in expired { try? FileManager.default.removeItem(atPath: path) }
        return expired.count
    }

    /// The body as text. 413 when it is over `largestBody`, before a byte is read when its
    /// Content-Length says so (then `EarlyAnswers` ends the connection), 400 when it is not UTF-8.
    func body(of request: Request, context: ServiceContext) async throws -> String {
        let tooLarge = ServiceError(status: .contentTooLarge, message: "the request body is larger than \(Self.largestBody >> 20) MiB")
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > Self.largestBody { throw tooLarge }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: Self.largestBody)
        } catch {
            throw tooLarge
        }
        guard let text = String(validating: buffer.readableBytesView, as: UTF8.self) else {
            throw ServiceError.badRequest("the request body is not UTF-8 JSON")
        }
        return text
    }

    /// 429 when `token` has as many renders waiting or running as it may.
    func checkQueueRoom(for token: String) async throws {
        guard try await store.pendingCount(token: token) < pendingPerToken else {
            throw ServiceError(status: .tooManyRequests,
                               message: "this token has \(pendingPerToken) renders queued or rendering, as many as it may; post again when some are done")
        }
    }

    /// The render `order` reads, checked as the worker will render it (project, vars, output,
    /// every media file) on the check pool, where the order is read too (a body of megabytes
    /// takes a while to load); throws what `reel validate` reports, at its place in what was
    /// posted. Returns the project's warnings.
    @discardableResult
    func check(_ order: @escaping @Sendable () throws -> RenderOrder) async throws -> [Diagnostic] {
        try await checks.run { try loaded(try order()).warnings }
    }

    /// `check` on the caller's thread: for work already on the check pool.
    func loaded(_ order: RenderOrder) throws -> ProjectPipeline.Loaded {
        let settings = order.settings
        let request = RenderRequest(projectPath: order.document.source.name, document: order.document,
                                    vars: VarInputs(overrides: settings.overrides, sources: [order.body], rendition: settings.rendition, renditionInput: "rendition"),
                                    varsFile: nil, output: folders.output(of: "check", container: settings.container), range: nil, audioOnly: false,
                                    preset: settings.preset?.preset, decoderThreads: 1, jobs: 1, partsFolder: nil)
        return try workspace.prepareRender(request, needsOutput: true).project
    }

    /// The render the route's `:id` names, if it is the token's.
    func render(_ context: ServiceContext) async throws -> RenderRecord {
        let id = try context.parameters.require("id")
        guard let render = try await store.render(id, token: context.token) else { throw ServiceError.notFound("no render \(id)") }
        return render
    }
}
