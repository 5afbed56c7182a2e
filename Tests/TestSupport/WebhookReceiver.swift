import Foundation

/// `webhook_receiver.py` on 127.0.0.1 (answering 200, 500, slowly or with a redirect; see the
/// script), recording every request, for as long as the value lives.
public final class WebhookReceiver {
    public let port: Int
    private let process = Process()
    private let log: URL

    /// One request as the receiver got it.
    public struct Request: Decodable {
        public var method: String
        public var path: String
        /// By lower-cased name.
        public var headers: [String: String]
        /// The raw bytes.
        public var body: Data
    }

    public init() throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("webhook-receiver-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot.appendingPathComponent("Tests/TestSupport/webhook_receiver.py").path]
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
                throw ReceiverFailure()
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

    /// `http://HOST:PORT/PATH`.
    public func url(_ path: String, host: String = "127.0.0.1") -> String { "http://\(host):\(port)/\(path)" }

    /// The requests so far, in the order they arrived.
    public func requests() throws -> [Request] {
        try String(contentsOf: log, encoding: .utf8).split(separator: "\n").dropFirst().map {
            try JSONDecoder().decode(Request.self, from: Data($0.utf8))
        }
    }

    public struct ReceiverFailure: Error {}
}
