import Foundation
import TestSupport

/// `media_server.py` on 127.0.0.1, serving the files of a folder (with paths that answer 404 or
/// 500, stall, trickle, redirect in a loop or to ftp:, serve a web page, want a password, or
/// send a truncated or compressed body; see the script), for as long as the value lives.
final class MediaServer {
    let port: Int
    private let process = Process()
    private let log: URL

    init(serving folder: String) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("media-server-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot.appendingPathComponent("Tests/ReelCLITests/Support/media_server.py").path, folder]
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = FileHandle.nullDevice // not the runner's: `swift test` waits for its pipe to close
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while true {
            if let first = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").first, let port = Int(first) {
                self.port = port
                return
            }
            guard Date() < deadline, process.isRunning else {
                kill(process.processIdentifier, SIGKILL)
                throw ServerFailure()
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// SIGKILL: the test runner blocks SIGTERM, and its children inherit that.
    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
    }

    /// `http://127.0.0.1:PORT`.
    var base: String { "http://127.0.0.1:\(port)" }

    /// The requests so far, one line each: `GET PATH if-none-match=… if-modified-since=…`.
    var requests: [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").dropFirst().map(String.init)
    }

    /// The requests for one path.
    func requests(for path: String) -> [String] { requests.filter { $0.hasPrefix("GET \(path) ") } }

    struct ServerFailure: Error {}
}
