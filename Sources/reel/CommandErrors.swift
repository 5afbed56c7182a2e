import ArgumentParser
import Foundation
import MediaIO
import ProjectFile
import RenderEngine

// How commands report failures: one "error: …" paragraph on standard error, then the exit
// status (64 bad usage, 65 invalid input, 66 a file is missing, 73 cannot write, 1 a render
// failure, 130 cancelled).

/// A usage mistake found while running (a time outside the timeline, a malformed --set):
/// printed like the other errors, exit status 64.
func usageFailure(_ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    return ExitCode(64)
}

/// Prints a project error to standard error and turns it into its exit code.
func reportAndExitCode(_ error: ProjectError) -> ExitCode {
    FileHandle.standardError.write(Data((error.description + "\n").utf8))
    let count = error.diagnostics.count
    if count > 1 { FileHandle.standardError.write(Data("\(count) errors\n".utf8)) }
    return ExitCode(error.exitCode)
}

/// Runs `body`; a `RenderError` or `MediaError` is printed and becomes its exit status.
func reportingRenderErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as RenderError {
        FileHandle.standardError.write(Data((error.description + "\n").utf8))
        throw ExitCode(error.exitCode)
    } catch let error as MediaError {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        throw ExitCode(error.kind == .fileNotFound || error.kind == .notAFile ? 66 : error.kind == .writingFailed ? 73 : 65)
    }
}
