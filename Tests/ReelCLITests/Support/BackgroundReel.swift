import Foundation
import TestSupport

/// `reel` running in the background (standard output and error to files), to be signalled,
/// timed and measured while it works, started as a shell starts it: with no signal blocked.
/// Killed when the value goes if it still runs.
final class BackgroundReel {
    let process = Process()
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-bg-\(UUID().uuidString)")

    init(_ arguments: [String], environment: [String: String]) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["out", "err"] { FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: nil) }
        process.executableURL = ReelCommand.executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: folder.appendingPathComponent("out"))
        process.standardError = try FileHandle(forWritingTo: folder.appendingPathComponent("err"))
        try Self.startWithNoSignalBlocked(process)
    }

    /// A `Process` inherits the signal mask of the thread that starts it, and the test
    /// runner's threads block most signals, SIGINT and SIGTERM among them: sent to such a child,
    /// they wait until it asks for them, which hid a `reel` that lost Ctrl-C in a terminal.
    private static func startWithNoSignalBlocked(_ process: Process) throws {
        var none = sigset_t(), previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    var standardOutput: String { (try? String(contentsOf: folder.appendingPathComponent("out"), encoding: .utf8)) ?? "" }
    var standardError: String { (try? String(contentsOf: folder.appendingPathComponent("err"), encoding: .utf8)) ?? "" }

    /// True once `condition` holds, false if `seconds` pass first.
    func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            guard Date() < end else { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return true
    }

    /// The exit status, or nil if it still runs after `seconds`.
    func exitStatus(within seconds: Double) -> Int32? {
        waitUntil(seconds: seconds) { !process.isRunning } ? process.terminationStatus : nil
    }

    /// CPU seconds (user and system) used so far, from /proc/PID/stat.
    var cpuSeconds: Double {
        let stat = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
        // After the command's name in parentheses: fields 3… ; utime and stime are 14 and 15.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return -1 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
