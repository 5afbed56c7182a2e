import Foundation
import Synchronization

/// This program run again as a child process, so that a crash or a failure stays the child's
/// (a batch's row, a service's job). Each child has a scratch folder of its own for files it
/// is given, removed when it ends; its standard error is kept there for the report.
public final class ChildProcess: Sendable {
    /// How a child ended.
    public enum Ending: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        /// Killed by a signal it did not handle (a crash: SIGSEGV, SIGBUS, SIGABRT; SIGKILL).
        case killed(signal: Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exited \(status)"
            case .killed(let signal): "was killed by \(Self.name(of: signal))"
            }
        }

        /// `SIGSEGV` for 11, as people know signals.
        public static func name(of signal: Int32) -> String {
            let names: [Int32: String] = [SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
                                          SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
                                          SIGPIPE: "SIGPIPE", SIGTERM: "SIGTERM", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS"]
            return names[signal] ?? "signal \(signal)"
        }
    }

    /// What a child left: how it ended and what it wrote on standard error.
    public struct Outcome: Sendable, Equatable {
        public var ending: Ending
        public var standardError: String
    }

    /// This program's executable.
    public static var thisProgram: URL {
        Bundle.main.executableURL ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }

    private let pid: Int32
    private let state = Mutex(State())
    /// Left once the outcome is known.
    private let ended = DispatchGroup()

    private struct State {
        var outcome: Outcome?
        var waiting: [CheckedContinuation<Outcome, Never>] = []
    }

    /// Starts `executable` with the arguments `arguments(scratch)` gives (which may write files
    /// into the scratch folder) and `environment` added to this process's. `lines` gets each line
    /// of its standard output (nil: discarded), on a thread of the child's own. `inScratch`: the
    /// child runs in its scratch folder (else in this process's current folder).
    /// `keepsInputOpen`: its standard input is a pipe this process holds open until the child
    /// ends, so a child that watches it learns when this process dies. Throws what kept it
    /// from starting, naming it `name`.
    public init(_ name: String, executable: URL = thisProgram, environment: [String: String] = [:], inScratch: Bool = false,
                keepsInputOpen: Bool = false, arguments: (URL) throws -> [String],
                lines: (@Sendable (String) -> Void)? = nil) throws(ChildProcessError) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reel-child-\(UUID().uuidString)")
        let errors = scratch.appendingPathComponent("stderr")
        let process = Process(), output = lines.map { _ in Pipe() }, input = keepsInputOpen ? Pipe() : nil
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            process.executableURL = executable
            process.arguments = try arguments(scratch)
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            if inScratch { process.currentDirectoryURL = scratch }
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.standardOutput = output as Any? ?? FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: errors)
            process.standardInput = input as Any? ?? FileHandle.nullDevice
            try process.run()
        } catch {
            try? FileManager.default.removeItem(at: scratch)
            throw ChildProcessError(message: "cannot run \(name): \(error.localizedDescription)")
        }
        pid = process.processIdentifier
        ended.enter()
        // The process is the thread's alone from here: it reads the output to its end, then reaps.
        nonisolated(unsafe) let running = process
        let thread = Thread { [self] in
            if let lines, let output { Self.readLines(output.fileHandleForReading, into: lines) }
            running.waitUntilExit()
            try? input?.fileHandleForWriting.close()
            let ending: Ending = running.terminationReason == .uncaughtSignal ? .killed(signal: running.terminationStatus) : .exited(running.terminationStatus)
            let outcome = Outcome(ending: ending, standardError: (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
            try? FileManager.default.removeItem(at: scratch)
            finish(outcome)
        }
        thread.name = "reel-child-\(pid)"
        thread.start()
    }

    private func finish(_ outcome: Outcome) {
        for waiting in state.withLock({ state in
            state.outcome = outcome
            defer { state.waiting = [] }
            return state.waiting
        }) { waiting.resume(returning: outcome) }
        ended.leave()
    }

    /// Sends `signal` to the child, unless it has ended.
    public func send(_ signal: Int32) {
        state.withLock { if $0.outcome == nil { _ = kill(pid, signal) } }
    }

    /// Asks the child to stop (SIGTERM: a `reel render` stops at its next frame and removes its
    /// partial output); kills it (SIGKILL) if it still runs `patience` seconds later. The timer
    /// is Dispatch's, so the kill comes on time even while the concurrency pool is busy.
    public func stop(patience: TimeInterval = 10) {
        send(SIGTERM)
        DispatchQueue.global().asyncAfter(deadline: .now() + patience) { [self] in send(SIGKILL) }
    }

    /// How it ended, once it has.
    public func outcome() async -> Outcome {
        await withCheckedContinuation { continuation in
            let ended = state.withLock { state in
                if state.outcome == nil { state.waiting.append(continuation) }
                return state.outcome
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }

    /// How it ended, the calling thread waiting until it has.
    public func waitForOutcome() -> Outcome {
        ended.wait()
        return state.withLock { $0.outcome! }
    }

    /// Calls `lines` with each line of `handle` (without its newline) until its end.
    private static func readLines(_ handle: FileHandle, into lines: (String) -> Void) {
        var pending = Data()
        while case let data = handle.availableData, !data.isEmpty {
            pending.append(data)
            while let newline = pending.firstIndex(of: 0x0A) {
                lines(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
            }
        }
        if !pending.isEmpty { lines(String(decoding: pending, as: UTF8.self)) }
    }
}

extension ChildProcess {
    /// Runs a child to its end (see `init`), its standard output discarded. Nil when it exits
    /// 0; else what went wrong, naming it `name`: how it ended and its standard error.
    public static func run(_ name: String, executable: URL = thisProgram, arguments: (URL) throws -> [String]) -> String? {
        let outcome: Outcome
        do {
            outcome = try ChildProcess(name, executable: executable, arguments: arguments).waitForOutcome()
        } catch {
            return error.message
        }
        guard outcome.ending != .exited(0) else { return nil }
        return "\(name) \(outcome.ending): " + outcome.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A child that could not be started: the scratch folder could not be made, the arguments'
/// files written, or the program run.
public struct ChildProcessError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
