import ReelApplication
import ArgumentParser
import Foundation
import Interchange
import PreviewServer
import RenderService
import RenderEngine

/// The exit statuses of every command, sysexits(3) where one fits: `Failure` maps errors to
/// them and each command's help lists its own with `help(_:)`.
enum ExitStatus: Int32, CaseIterable {
    case success = 0
    /// A failure while rendering.
    case failure = 1
    case usage = 64
    /// An invalid project, row, timeline, part or media file.
    case invalidInput = 65
    case missingFile = 66
    /// The preview's port is taken.
    case unavailable = 69
    case cannotWrite = 73
    /// A remote media file cannot be fetched now.
    case tryLater = 75
    case cancelled = 130

    /// `Exit status: 0 done, 64 bad usage, …`: a command's statuses in the order given, each
    /// with what it means for that command.
    static func help(_ meanings: KeyValuePairs<ExitStatus, String>) -> String {
        "Exit status: " + meanings.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ") + "."
    }
}

/// The one place where what went wrong becomes what the user reads and the process's
/// `ExitStatus`. The library modules only say what went wrong.
enum Failure {
    static func exitStatus(for error: any Error) -> Int32 {
        let status: ExitStatus = switch error {
        case is UsageError, is TokenRefusal: .usage
        case is PreviewServer.StartFailure, is RenderService.StartFailure: .unavailable
        default:
            switch FailureKind(of: error) {
            case .failure: .failure
            case .usage: .usage
            case .invalidInput: .invalidInput
            case .missingFile: .missingFile
            case .cannotWrite: .cannotWrite
            case .tryLater: .tryLater
            case .cancelled: .cancelled
            }
        }
        return status.rawValue
    }

    /// A batch's status: 1 when a render failed, else its worst rejected row's (a missing
    /// file outweighs an invalid row, an output the batch may not write outweighs both), else 0.
    static func batchExitStatus(failedRows: Int, rejected: [any Error]) -> Int32 {
        failedRows > 0 ? ExitStatus.failure.rawValue : rejected.map(exitStatus(for:)).max() ?? ExitStatus.success.rawValue
    }

    /// What the user reads: every message starts with `error:` (a project error's
    /// diagnostics carry their own), and several diagnostics end with their count.
    static func message(for error: any Error) -> String {
        if let error = error as? InterchangeError { return interchange(error) }
        if case .partMissing(let place, let path)? = error as? RenderError {
            return "error: \(place) has no rendered part (\(path)); render it first (reel render PROJECT --segment N --parts FOLDER)"
        }
        if let failure = error as? PreviewServer.StartFailure, case .portInUse = failure.reason {
            return "error: port \(failure.port) on \(failure.host) is in use by another program; "
                + "stop it, or pick another port with --port N (--port 0 takes any free one)"
        }
        guard let request = error as? RenderRequestError else { return ErrorText.message(for: error) }
        // The library says what is wrong; here, which option says it.
        return switch request {
        case .noOutput: "error: no output file: pass -o FILE or set output.path in the project"
        case .imageSequenceWithoutNumber: "error: -o \(request)"
        case .badRange: "error: --range: \(request)"
        case .sharedOutput: "error: \(request)"
        }
    }

    /// An import or export error, led by the option that gave the value at fault and with the
    /// options that would settle it in its hint.
    static func interchange(_ error: InterchangeError) -> String {
        var error = error
        if let input = error.input { error.message = "\(option(input)): " + error.message }
        if !error.remedy.isEmpty {
            let give = "give " + error.remedy.map { option($0, usage: true) }.joined(separator: " or ")
            error.hint = error.hint.map { "\($0): \(give)" } ?? give
        }
        return error.description
    }

    /// An import or export warning, with the options that would do better.
    static func text(for warning: ImportWarning) -> String {
        warning.description + (warning.remedy.isEmpty ? "" : "; give " + warning.remedy.map { option($0, usage: true) }.joined(separator: " or "))
    }

    /// The option of `reel import` and `reel export` that gives `input`; `usage`: with what it
    /// takes (`--media NAME=PATH`).
    static func option(_ input: InterchangeInput, usage: Bool = false) -> String {
        let (option, value): (String, String) = switch input {
        case .media(let name): ("--media", "\(name)=PATH")
        case .mediaStart(let name): ("--media-start", "\(name)=TC")
        case .mediaFolder: ("--media-dir", "DIR")
        case .frameRate: ("--fps", "RATE")
        case .videoTrack: ("--video-track", "N")
        }
        return usage ? "\(option) \(value)" : option
    }

    /// Prints the error's message on standard error; returns its exit status.
    static func report(_ error: any Error) -> ExitCode {
        FileHandle.standardError.write(Data((message(for: error) + "\n").utf8))
        return ExitCode(exitStatus(for: error))
    }
}

/// A usage mistake found while running (a time outside the timeline, a malformed `--set`):
/// reported like every other error, `ExitStatus.usage`.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs a command's work; any error it throws is reported and becomes its exit status
/// (ArgumentParser's own errors and exit codes pass through).
func reportingFailures<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let exit as ExitCode {
        throw exit
    } catch let error as ValidationError {
        throw error
    } catch {
        throw Failure.report(error)
    }
}
