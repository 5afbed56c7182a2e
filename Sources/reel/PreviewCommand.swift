import ReelApplication
import ArgumentParser
import Foundation
import PreviewServer
import ProjectFile
import RenderEngine

/// `reel preview PROJECT [--set k=v]... [--port N] [--size 960x] [--host H --allow-remote] [--open]`:
/// the project in a browser, following every change of its files (module `PreviewServer`).
struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a project in a web browser while you edit it: exact frames, its timeline and vars, live reload.",
        discussion: """
        Serves one page on 127.0.0.1 (docs/preview.md): a player whose paused frames are exactly \
        reel frame's, playback at 1x with sound, the timeline, the vars as a form, and the project's \
        diagnostics whenever a saved edit makes it invalid. Ctrl-C stops it. \
        \(ExitStatus.help([.success: "stopped", .usage: "bad usage", .missingFile: "the project file is missing",
                            .unavailable: "the port is in use"]))
        """
    )

    @OptionGroup var project: ProjectOptions

    @Option(help: "The port to listen on (0: any free port).")
    var port: Int = 8640

    @Option(help: ArgumentHelp("The size of the pictures: 960x (width), x540 (height) or 960x540 (fit inside).", valueName: "size"),
            transform: StillSize.init(parsing:))
    var size: StillSize = StillSize(width: 960, height: nil)

    @Option(help: ArgumentHelp("The address to listen on; another than the loopback needs --allow-remote.", valueName: "address"))
    var host = "127.0.0.1"

    @Flag(help: "Allow --host to be an address other machines reach: everyone who reaches the port sees the project and sets its vars (there is no password).")
    var allowRemote = false

    @Flag(help: "Open the page in the default browser (xdg-open).")
    var open = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535, not \(port)") }
        guard let loopback = ListenAddress.isLoopbackOnly(host) else {
            throw ValidationError("--host \(host) does not resolve to an address; give an address (127.0.0.1, ::1) or a name this machine resolves")
        }
        if !loopback, !allowRemote {
            let addresses = ListenAddress.resolve(host).flatMap { $0 == [host] ? nil : " (\($0.joined(separator: ", ")))" } ?? ""
            throw ValidationError("--host \(host)\(addresses) lets other machines see the preview; add --allow-remote if that is what you want")
        }
    }

    func run() throws {
        try reportingFailures {
            if allowRemote, ListenAddress.isLoopbackOnly(host) != true {
                FileHandle.standardError.write(Data("warning: --host \(host): every machine that reaches this one on port \(port) sees the preview, the project's pictures and its vars, and can set the vars (to files in the project's folder); there is no password\n".utf8))
            }
            // The --vars file is read again at every load.
            var configuration = PreviewConfiguration(
                projectPath: project.path, workspace: try project.fetching.workspace(), setVars: try project.vars.setValues(), varsFile: project.vars.file, rendition: project.vars.rendition,
                size: size, host: host, port: port, cacheFolder: SegmentCache.folder(environment: ProcessInfo.processInfo.environment),
                log: LogLine.write)
            configuration.setOption = "--set"
            let server = PreviewServer(configuration)
            let open = self.open
            try serveUntilStopped(stop: server.stop) {
                try await server.run { url in
                    FileHandle.standardOutput.write(Data("Previewing \(project.path) at \(url) (Ctrl-C stops it)\n".utf8))
                    if open, let problem = ExternalBrowser.open(url) { FileHandle.standardError.write(Data("reel preview: \(problem)\n".utf8)) }
                }
            }
        }
    }
}
