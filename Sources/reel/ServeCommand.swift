import ArgumentParser
import Foundation
import ReelApplication
import RenderService

/// `reel serve --data DIR [--listen HOST:PORT] [--workers N] [--media-root DIR]...` and its tokens.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the render service: an HTTP API that renders posted projects, every job kept in DIR (docs/service.md).",
        discussion: "Create a token first: reel serve token create NAME --data DIR. "
            + ExitStatus.help([.success: "stopped", .usage: "bad usage", .unavailable: "the port or the database is unavailable"]),
        subcommands: [Start.self, Token.self], defaultSubcommand: Start.self)

    struct DataFolder: ParsableArguments {
        @Option(help: ArgumentHelp("The service's folder: its SQLite database, outputs and segment cache (shared by the nodes of one --database).", valueName: "dir"))
        var data: String

        @Option(help: ArgumentHelp("Keep the jobs in this PostgreSQL database, one queue for several nodes.", valueName: "postgres://…"))
        var database: String?
    }

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "start", abstract: "Serve the API (the default).")

        @OptionGroup var folder: DataFolder

        @Option(help: ArgumentHelp("The address and port to listen on.", valueName: "host:port"))
        var listen = "127.0.0.1:8650"

        @Option(help: "Renders rendered at the same time.")
        var workers = 1

        @Option(name: .customLong("media-root"), help: ArgumentHelp("A folder posted projects may read media from (repeatable).", valueName: "dir"))
        var mediaRoots: [String] = []

        @Option(help: ArgumentHelp("How long a finished render's output is kept (then 410 Gone): 7d, 24h, 90m.", valueName: "time"))
        var keep = "7d"

        @Option(help: ArgumentHelp("How long a dead node's renders stay leased before another node takes them.", valueName: "time"))
        var lease = "30s"

        @Flag(help: "Let media and webhook URLs reach loopback, private and link-local addresses (refused by default).")
        var allowPrivateNetwork = false

        @OptionGroup var fetching: MediaFetching

        func validate() throws {
            guard workers >= 1 else { throw ValidationError("--workers must be at least 1") }
            for (name, time) in [("keep", keep), ("lease", lease)] where ServiceConfiguration.duration(time) == nil { throw ValidationError("--\(name) takes a time: 7d, 24h, 90m, 30s") }
            guard ServiceConfiguration.listenAddress(listen) != nil else { throw ValidationError("--listen takes HOST:PORT, e.g. 127.0.0.1:8650") }
        }

        func run() throws {
            try reportingFailures {
                let (host, port) = ServiceConfiguration.listenAddress(listen)!
                let configuration = ServiceConfiguration(
                    data: folder.data, database: folder.database, host: host, port: port, workers: workers, mediaRoots: mediaRoots,
                    keep: ServiceConfiguration.duration(keep)!, lease: ServiceConfiguration.duration(lease)!, allowPrivateNetwork: allowPrivateNetwork,
                    workspace: try fetching.workspace(addressPolicy: .init(allowPrivateNetwork: allowPrivateNetwork)), log: LogLine.write)
                let service = try waitFor { try await RenderService(configuration) }
                try serveUntilStopped(stop: service.stop) {
                    try await service.run { url in FileHandle.standardOutput.write(Data("Serving the render API at \(url) (Ctrl-C stops it)\n".utf8)) }
                }
            }
        }
    }

    /// `reel serve token create NAME | list | revoke NAME --data DIR`.
    struct Token: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create, list and revoke the API's tokens.",
            discussion: "create prints a new token once, on its last line (the service keeps only its hash); "
                + "list shows names and dates, never secrets; a revoked token's requests get 401.")

        enum Action: String, ExpressibleByArgument, CaseIterable { case create, list, revoke }

        @Argument(help: "create, list or revoke.") var action: Action
        @Argument(help: "The token's name (for create and revoke).") var name: String?
        @OptionGroup var folder: DataFolder

        func validate() throws {
            if action != .list, name == nil { throw ValidationError("\(action.rawValue) needs the token's NAME") }
        }

        func run() throws {
            try reportingFailures {
                let (data, database, name) = (folder.data, folder.database, self.name ?? "")
                let tokens = try waitFor { try await ServiceTokens(data: data, database: database) }
                switch action {
                case .list: try waitFor { try await tokens.list() }.forEach { print($0) }
                case .create:
                    let secret = try waitFor { try await tokens.create(name: name) }
                    print("token \(name) created; send it as Authorization: Bearer TOKEN (it is not shown again):\n\(secret)")
                case .revoke:
                    guard try waitFor({ try await tokens.revoke(name: name) }) else { throw UsageError("no live token named \(name) (reel serve token list)") }
                    print("token \(name) revoked")
                }
            }
        }
    }
}
