import Foundation

/// A Python test server on 127.0.0.1 (a script of the repository that prints its port on the
/// first line of standard output, then one line per request it gets), for as long as the value
/// lives. Its standard output goes to a log file; its lines after the first are the requests.
public final class LoopbackScript {
    public let port: Int
    private let process = Process()
    private let log: URL

    public struct StartFailure: Error {
        public let script: String
    }

    /// Starts `script` (a path from the repository's root) with `arguments`; waits up to 10 s
    /// for its port.
    public init(_ script: String, arguments: [String] = []) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("loopback-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot.appendingPathComponent(script).path] + arguments
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
                throw StartFailure(script: script)
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

    /// The lines the script logged after its port, in order.
    public var lines: [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").dropFirst().map(String.init)
    }
}
