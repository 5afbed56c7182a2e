import Application
import ArgumentParser
import FileSafety
import Foundation
import Interchange
import MediaIO
import OverlayRendering
import PreviewServer
import ProjectFile
import RenderEngine

/// The one place where what went wrong becomes what the user reads and the process's exit
/// status (sysexits(3) where one fits): 64 bad usage, 65 invalid input, 66 a file is missing,
/// 69 the preview's port is taken, 73 cannot write, 75 a remote media file cannot be fetched now, 1 a failure while rendering, 130 cancelled. The library modules only say
/// what went wrong.
enum Failure {
    static func exitStatus(for error: any Error) -> Int32 {
        switch error {
        case let error as ProjectError:
            switch error.category {
            case .usage: 64
            case .invalidProject: 65
            case .missingFile: 66
            case .unavailable: 75
            case .cannotWrite: 73
            case .cancelled: 130
            }
        case let error as RenderError:
            switch error {
            case .media, .output: 1
            case .invalidSettings, .changedSinceChecked: 65
            case .missingFile, .partMissing: 66
            case .partUnusable: 65
            case .unwritable: 73
            case .cancelled: 130
            }
        case let error as MediaError:
            switch error.kind {
            case .fileNotFound, .notAFile: 66
            case .writingFailed: 73
            default: 65
            }
        case let error as InterchangeError:
            switch error.category {
            case .invalidInput: 65
            case .missingFile: 66
            case .usage: 64
            }
        case is OutputRefusal: 73
        case is RenderRequestError: 64
        case is OverlayError: 65
        case is UsageError: 64
        case is PreviewServer.StartFailure: 69
        default: 1
        }
    }

    /// A batch's status: 1 when a render failed, else its worst rejected row's (a missing
    /// file outweighs an invalid row, an output the batch may not write outweighs both), else 0.
    static func batchExitStatus(failedRows: Int, rejected: [any Error]) -> Int32 {
        failedRows > 0 ? 1 : rejected.map(exitStatus(for:)).max() ?? 0
    }

    /// What the user reads: every message starts with `error:` (a project error's
    /// diagnostics carry their own), and several diagnostics end with their count.
    static func message(for error: any Error) -> String {
        guard let request = error as? RenderRequestError else { return ErrorText.message(for: error) }
        // The library says what is wrong; here, which option says it.
        return switch request {
        case .noOutput: "error: no output file: pass -o FILE or set output.path in the project"
        case .imageSequenceWithoutNumber: "error: -o \(request)"
        case .badRange: "error: --range: \(request)"
        case .sharedOutput: "error: \(request)"
        }
    }

    /// Prints the error's message on standard error; returns its exit status.
    static func report(_ error: any Error) -> ExitCode {
        FileHandle.standardError.write(Data((message(for: error) + "\n").utf8))
        return ExitCode(exitStatus(for: error))
    }
}

/// A usage mistake found while running (a time outside the timeline, a malformed `--set`):
/// reported like every other error, exit status 64.
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
