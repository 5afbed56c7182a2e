import FilePaths
import Foundation
import MediaFormat
import ProjectCompiler
import Synchronization

/// A project as of a git revision (`HEAD~1:promo/project.yaml`): its file and every file it
/// names that git tracks at that revision are read with `git show` into a scratch copy of the
/// repository; a file git does not track there is read from the working tree.
public final class GitRevisionFiles: ProjectPathResolver, Sendable {
    public let revision: String
    /// The repository's top folder (the working tree).
    public let root: String
    /// The scratch copy, removed by `remove()`.
    public let scratch: String
    /// The project file in the scratch copy.
    public let projectFile: String
    private let tracked: Set<String>
    private let extracted = Mutex<Set<String>>([])

    /// Reads `path` (relative to the current folder) as of `revision`. Throws `GitRevisionError`
    /// when git, the repository, the revision or the file is not there.
    public init(revision: String, path: String) throws(GitRevisionError) {
        self.revision = revision
        let absolute = absolutePath(path)
        var folder = (absolute as NSString).deletingLastPathComponent
        while !FileManager.default.fileExists(atPath: folder), folder != "/" { folder = (folder as NSString).deletingLastPathComponent }
        let top = try Self.git(["-C", folder, "rev-parse", "--show-toplevel"], what: "find the git repository around \(path)")
        root = String(decoding: top, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let listing = try Self.git(["-C", root, "ls-tree", "-r", "-z", "--name-only", revision, "--"], what: "read revision '\(revision)'")
        tracked = Set(listing.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
        // The working tree's path, symlinks resolved, relative to the repository's top.
        let real = URL(fileURLWithPath: absolute).resolvingSymlinksInPath().path
        let realRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        guard real.hasPrefix(realRoot + "/") else { throw GitRevisionError("\(path) is not inside the repository at \(root)") }
        let relative = String(real.dropFirst(realRoot.count + 1))
        guard tracked.contains(relative) else { throw GitRevisionError("\(relative) is not in revision '\(revision)' of \(root)", missing: true) }
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reel-git-\(UUID().uuidString)").path
        projectFile = scratch + "/" + relative
        try extract(relative)
    }

    public func remove() { try? FileManager.default.removeItem(atPath: scratch) }

    /// The tracked file's copy as of the revision, else the working tree's file.
    public func file(_ written: String, in project: String, nested: Bool) -> Result<String, PathRefusal> {
        let path = absolutePath(written, from: (project as NSString).deletingLastPathComponent)
        guard path.hasPrefix(scratch + "/") else { return .success(path) }
        let relative = String(path.dropFirst(scratch.count + 1))
        // An image sequence: each of its files as tracked.
        let files = ImageSequencePattern.files(of: root + "/" + relative)?.map { String($0.dropFirst(root.count + 1)) } ?? [relative]
        guard files.allSatisfy(tracked.contains) else { return .success(root + "/" + relative) }
        do {
            for file in files { try extract(file) }
            return .success(path)
        } catch {
            return .failure(PathRefusal("\(relative) cannot be read from revision '\(revision)': \(error.message)", hint: "check the revision with git show"))
        }
    }

    private func extract(_ relative: String) throws(GitRevisionError) {
        guard extracted.withLock({ $0.insert(relative).inserted }) else { return }
        let bytes = try Self.git(["-C", root, "show", "\(revision):\(relative)"], what: "read \(relative) as of '\(revision)'")
        let target = scratch + "/" + relative
        do {
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try bytes.write(to: URL(fileURLWithPath: target))
        } catch {
            throw GitRevisionError("cannot write \(target): \(error.localizedDescription)")
        }
    }

    /// Git's standard output; throws with its standard error.
    private static func git(_ arguments: [String], what: String) throws(GitRevisionError) -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let out = Pipe()
        // Standard error to a file: read after standard output, a pipe could fill and block git.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("reel-git-\(UUID().uuidString).err")
        defer { try? FileManager.default.removeItem(at: errorFile) }
        process.standardOutput = out
        do {
            _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errorFile)
            try process.run()
        } catch {
            throw GitRevisionError("cannot \(what): git cannot be run (\(error.localizedDescription))")
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = ((try? String(contentsOf: errorFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            throw GitRevisionError("cannot \(what): \(text)", missing: true)
        }
        return data
    }
}

/// Git cannot give a revision's file; `missing`: the revision or file is not there (66), else
/// git itself failed.
public struct GitRevisionError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var missing: Bool

    init(_ message: String, missing: Bool = false) {
        self.message = message
        self.missing = missing
    }

    public var description: String { message }
}
