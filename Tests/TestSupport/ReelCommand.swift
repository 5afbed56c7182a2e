import Foundation

/// Runs the built `reel` executable (next to the test bundle) and captures what it did.
public struct ReelRun: Sendable {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
}

public enum ReelCommand {
    /// The `reel` the tests start: `$REEL_TEST_BINARY` when it is set (scripts/test points it at
    /// the release build it makes for the Debian package: what ships, and faster),
    /// else `.build/<configuration>/reel`, beside the test runner (a developer's `swift test`).
    public static let executable: URL = {
        if let binary = ProcessInfo.processInfo.environment["REEL_TEST_BINARY"], !binary.isEmpty {
            return URL(fileURLWithPath: binary)
        }
        var url = Bundle.main.bundleURL
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("reel").path) {
            url.deleteLastPathComponent()
        }
        return url.appendingPathComponent("reel")
    }()

    /// Runs `reel <arguments>` in `directory` (default: the repository root) and waits; under
    /// `emulator` (`["/usr/bin/qemu-x86_64", "-cpu", "Nehalem"]`) when one is given.
    public static func run(_ arguments: [String], in directory: URL = repositoryRoot, environment: [String: String] = [:],
                           emulator: [String] = []) throws -> ReelRun {
        let process = Process()
        process.executableURL = emulator.first.map { URL(fileURLWithPath: $0) } ?? executable
        process.arguments = emulator.isEmpty ? arguments : emulator.dropFirst() + [executable.path] + arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reel-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("out"), err = scratch.appendingPathComponent("err")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return ReelRun(status: process.terminationStatus,
                       standardOutput: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                       standardError: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }
}
