import Foundation

/// This program run again as a child process, so that a crash or a failure stays the child's
/// (a batch's row, a service's job). Each child has a scratch folder of its own for files it
/// is given, removed when it ends.
public enum ChildProcess {
    /// This program's executable.
    public static var thisProgram: URL {
        Bundle.main.executableURL ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }

    /// Runs `executable` (this program unless told) with the arguments `arguments(scratch)` gives
    /// (which may write files into the scratch folder), its standard output discarded. Nil when
    /// it exits 0; else what went wrong, naming it `name`: its exit status and its standard error.
    public static func run(_ name: String, executable: URL = thisProgram, arguments: (URL) throws -> [String]) -> String? {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reel-child-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            return "cannot make a temporary folder: \(error.localizedDescription)"
        }
        defer { try? FileManager.default.removeItem(at: scratch) }
        let errors = scratch.appendingPathComponent("stderr")
        do {
            let process = Process()
            process.executableURL = executable
            process.arguments = try arguments(scratch)
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                return "\(name) exited \(process.terminationStatus): " + message.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return nil
        } catch {
            return "cannot run \(name): \(error.localizedDescription)"
        }
    }
}
