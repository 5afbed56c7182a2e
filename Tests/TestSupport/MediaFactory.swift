import Foundation

/// Makes real media at test time with the ffmpeg CLI (lavfi sources), into one temporary folder
/// per test process (removed at exit). Files are made once per name and shared by the tests of
/// the process, so give each distinct recipe its own name.
public enum MediaFactory {
    public struct CommandFailure: Error, CustomStringConvertible {
        public let command: [String]
        public let status: Int32
        public let standardError: String
        public var description: String { "\(command.joined(separator: " ")) exited \(status): \(standardError)" }
    }

    /// The folder media is made in (created on first use, removed when the process exits unless
    /// `REEL_KEEP_TEST_MEDIA` is set, for looking at the files after a failure).
    public static let directory: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("reel-test-media-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        if ProcessInfo.processInfo.environment["REEL_KEEP_TEST_MEDIA"] == nil {
            atexit { try? FileManager.default.removeItem(at: MediaFactory.directory) }
        }
        return url
    }()

    /// A path in `directory` (nothing is created).
    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The folder `name` in `directory`, created (a suite's own place for its projects and media).
    public static func folder(_ name: String) -> URL {
        let url = directory.appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The file `name`, made on first request by `ffmpeg -y <arguments> <path>`; later requests
    /// (from any test) return the same file. Arguments typically start with `-f lavfi -i …`.
    public static func file(_ name: String, _ arguments: [String]) throws -> String {
        try cache.file(name) {
            try ffmpeg(arguments + [path(name)])
        }
    }

    /// A file made by `make(path)` once per process (for media made in several steps).
    public static func file(_ name: String, make: (String) throws -> Void) throws -> String {
        try cache.file(name) { try make(path(name)) }
    }

    /// Runs `ffmpeg -hide_banner -nostdin -v error -y <arguments>`.
    public static func ffmpeg(_ arguments: [String]) throws {
        _ = try run("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-y"] + arguments)
    }

    /// `ffprobe -of json <arguments> <path>` parsed.
    public static func ffprobe(_ path: String, _ arguments: [String]) throws -> [String: Any] {
        let output = try run("ffprobe", ["-v", "error", "-of", "json"] + arguments + [path])
        return try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] ?? [:]
    }

    /// Runs a program found on PATH; returns its standard output, throws when it fails.
    @discardableResult
    public static func run(_ program: String, _ arguments: [String], environment: [String: String]? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        // Standard error goes to a file so that neither stream can fill up and block the program.
        let errorFile = directory.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorData = (try? Data(contentsOf: errorFile)) ?? Data()
        guard process.terminationStatus == 0 else {
            throw CommandFailure(command: [program] + arguments, status: process.terminationStatus,
                                 standardError: String(decoding: errorData, as: UTF8.self))
        }
        return String(decoding: outputData, as: UTF8.self)
    }

    private static let cache = FileCache()
}

/// Makes each named file once, even when tests ask for it concurrently.
private final class FileCache: @unchecked Sendable {
    private let lock = NSLock()
    private var locks: [String: NSLock] = [:]
    private var made: Set<String> = []

    func file(_ name: String, make: () throws -> Void) throws -> String {
        let fileLock = lock.withLock { () -> NSLock in
            if let existing = locks[name] { return existing }
            let created = NSLock()
            locks[name] = created
            return created
        }
        return try fileLock.withLock {
            let path = MediaFactory.path(name)
            if !lock.withLock({ made.contains(name) }) {
                try make()
                lock.withLock { _ = made.insert(name) }
            }
            return path
        }
    }
}

/// Still pictures as cameras and editors write them, made at test time.
public enum StillFiles {
    /// `photo-WxH[-progressive].jpg|png|webp`: testsrc2 at that size; `-progressive` JPEGs are
    /// rewritten by `jpegtran -progressive` (FFmpeg writes baseline only).
    public static func photo(_ name: String) throws -> String {
        let stem = name.split(separator: ".").first.map(String.init) ?? name
        let parts = stem.split(separator: "-")
        guard parts.count >= 2 else { preconditionFailure("photo name \(name): photo-WxH[-progressive].ext") }
        let size = String(parts[1])
        let ext = URL(fileURLWithPath: name).pathExtension
        let codec: [String] = ext == "webp" ? ["-c:v", "libwebp"] : []
        guard parts.count == 3, parts[2] == "progressive" else {
            return try MediaFactory.file(name, ["-f", "lavfi", "-i", "testsrc2=s=\(size)", "-frames:v", "1"] + codec)
        }
        let baseline = try photo("photo-\(size).\(ext)")
        return try MediaFactory.file(name) { path in
            try MediaFactory.run("jpegtran", ["-progressive", "-outfile", path, baseline])
        }
    }
}
