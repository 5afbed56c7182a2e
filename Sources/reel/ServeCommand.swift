import ArgumentParser
import Foundation
import ReelApplication
import RenderService

/// `reel serve --data DIR [--listen HOST:PORT] [--workers N] [--media-root DIR]...` and its tokens.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the render service: an HTTP API that renders posted projects, every job kept in DIR (docs/service.md).",
        discussion: "Create a token first: reel serve token create NAME --data DIR. "
            + ExitStatus.help([.success: "stopped", .usage: "bad usage", .unavailable: "the port is in use"]),
        subcommands: [Start.self, Token.self], defaultSubcommand: Start.self)

    struct DataFolder: ParsableArguments {
        @Option(help: ArgumentHelp("The service's folder: its database, outputs and segment cache.", valueName: "dir"))
        var data: String
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

        @OptionGroup var fetching: MediaFetching

        func validate() throws {
            guard workers >= 1 else { throw ValidationError("--workers must be at least 1") }
            guard let colon = listen.lastIndex(of: ":"), Int(listen[listen.index(after: colon)...]) != nil else {
                throw ValidationError("--listen takes HOST:PORT, e.g. 127.0.0.1:8650")
            }
        }

        func run() throws {
            try reportingFailures {
                let colon = listen.lastIndex(of: ":")!
                let host = String(listen[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
                let service = try RenderService(ServiceConfiguration(
                    data: folder.data, host: host, port: Int(listen[listen.index(after: colon)...])!, workers: workers,
                    mediaRoots: mediaRoots.map { URL(fileURLWithPath: $0).standardizedFileURL.path }, workspace: try fetching.workspace(),
                    log: { line in FileHandle.standardError.write(Data("\(line)\n".utf8)) }))
                let signals = SignalCancellation { service.stop() }
                defer { withExtendedLifetime(signals) {} }
                try waitFor {
                    try await service.run { url in FileHandle.standardOutput.write(Data("Serving the render API at \(url) (Ctrl-C stops it)\n".utf8)) }
                }
            }
        }
    }

    struct Token: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create, list and revoke the API's tokens.", subcommands: [Create.self, List.self, Revoke.self])

        struct Create: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Make a token; it is printed once, on the last line, and kept only as its hash.")
            @Argument(help: "A name for whoever uses it.") var name: String
            @OptionGroup var folder: DataFolder
            func run() throws {
                let secret = try reportingFailures { try ServiceTokens(data: folder.data).create(name: name) }
                print("token \(name) created; send it as Authorization: Bearer TOKEN (it is not shown again):\n\(secret)")
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the tokens (names and dates, never the secrets).")
            @OptionGroup var folder: DataFolder
            func run() throws { try reportingFailures { try ServiceTokens(data: folder.data).list().forEach { print($0) } } }
        }

        struct Revoke: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Revoke a token: its requests get 401 from now on.")
            @Argument(help: "The token's name.") var name: String
            @OptionGroup var folder: DataFolder
            func run() throws {
                guard try reportingFailures({ try ServiceTokens(data: folder.data).revoke(name: name) }) else {
                    throw Failure.report(UsageError("no live token named \(name) (reel serve token list)"))
                }
                print("token \(name) revoked")
            }
        }
    }
}
