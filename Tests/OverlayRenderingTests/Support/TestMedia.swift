import Foundation

/// A temporary directory for media made at test time; removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("reel-overlay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Runs the ffmpeg CLI with `arguments` and returns the path of `output` in this directory.
    func ffmpeg(_ arguments: [String], output: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-v", "error", "-y"] + arguments + [path(output)]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestMediaError("ffmpeg \(arguments.joined(separator: " ")) failed with status \(process.terminationStatus)")
        }
        return path(output)
    }

    func write(_ text: String, to name: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }
}

struct TestMediaError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
