import Foundation
import TestSupport
import Testing

/// An output whose folder cannot be made is refused with the system's reason for the folder
/// (exit 73): a read-only file system, a folder without write permission. (The reason was
/// dropped, and the temporary file's "No such file or directory" shown instead.)
@Suite struct UnwritableFolderTests {
    static let folder = MediaFactory.folder("unwritable")

    /// A plain project (no warnings) of one second.
    static let project: Result<String, any Error> = Result {
        let clip = try MediaFactory.file("unwritable-clip.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=1",
                                                                 "-c:v", "libx264", "-preset", "ultrafast"])
        let path = folder.appendingPathComponent("project.yaml").path
        try """
            reel: 1
            output: { size: [160, 90], fps: 25, video: { preset: ultrafast } }
            media: { clip: \(clip) }
            video:
              - clips:
                  - media: clip
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Commands whose output is in the folder `missing` (not there yet): render (through the
    /// cache, and with --no-cache), frame, thumbnails (a folder of PNGs, and a sheet).
    static func commands(writingInto missing: String) throws -> [[String]] {
        let project = try project.get()
        return [
            ["render", project, "-o", missing + "/out.mp4", "--progress", "none"],
            ["render", project, "-o", missing + "/out.mp4", "--progress", "none", "--no-cache"],
            ["frame", project, "--at", "0.5s", "-o", missing + "/frame.png"],
            ["thumbnails", project, "--count", "2", "-o", missing + "/thumbnails"],
            ["thumbnails", project, "--count", "2", "--sheet", missing + "/sheet.png"],
        ]
    }

    func expectRefusal(_ run: ReelRun, _ arguments: [String], folder: String, reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == 73, "\(arguments): \(run.standardError)", sourceLocation: sourceLocation)
        #expect(run.standardError.contains("cannot make the folder \(folder): \(reason)"), "\(arguments): \(run.standardError)",
                sourceLocation: sourceLocation)
        #expect(!run.standardError.contains("No such file or directory"), "\(run.standardError)", sourceLocation: sourceLocation)
    }

    /// Why a read-only tmpfs cannot be mounted here (not root, no mount namespaces), or nil.
    static let mountProblem: String? = {
        guard geteuid() == 0 else { return "needs root to mount a read-only tmpfs in a mount namespace of its own" }
        let probe = try? MediaFactory.run("/usr/bin/unshare", ["-m", "/bin/sh", "-c", "mount -t tmpfs -o ro tmpfs /mnt && echo mounted"])
        return probe?.contains("mounted") == true ? nil : "unshare -m and mount -t tmpfs do not work here"
    }()

    /// Each command in a mount namespace of its own where `mounted` is a read-only tmpfs (the
    /// mount goes with the command's namespace).
    @Test(.enabled(if: mountProblem == nil, "needs root and mount namespaces (unshare -m) for a read-only file system"))
    func aFolderOnAReadOnlyFileSystemSaysSo() throws {
        let mounted = Self.folder.appendingPathComponent("read-only").path
        try FileManager.default.createDirectory(atPath: mounted, withIntermediateDirectories: true)
        let readOnly = ["/usr/bin/unshare", "-m", "/bin/sh", "-c", "mount -t tmpfs -o ro tmpfs \"$0\" && exec \"$@\"", mounted]
        // A fresh cache beside, writable: only the output's folder is on the read-only mount.
        let cache = ["REEL_CACHE_DIR": Self.folder.appendingPathComponent("cache").path]
        for arguments in try Self.commands(writingInto: mounted + "/new") {
            let run = try ReelCommand.run(arguments, environment: cache, emulator: readOnly)
            expectRefusal(run, arguments, folder: mounted + "/new", reason: "Read-only file system")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: mounted).isEmpty)
    }

    /// Each command as a user who may not write in the output's parent folder: as nobody
    /// when the tests run as root (who may write anywhere), else as the user running them.
    @Test func aFolderWithoutWritePermissionSaysSo() throws {
        let locked = Self.folder.appendingPathComponent("no-write-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked)
        defer { try? FileManager.default.removeItem(atPath: locked) }
        let asUnprivileged = geteuid() == 0 ? ["/usr/sbin/runuser", "-u", "nobody", "--"] : []
        // A cache that user may write in, made here: the temporary folder need not be writable by everyone.
        let cache = ["REEL_CACHE_DIR": Self.folder.appendingPathComponent("no-write-cache-\(UUID().uuidString)").path]
        try FileManager.default.createDirectory(atPath: cache["REEL_CACHE_DIR"]!, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        defer { try? FileManager.default.removeItem(atPath: cache["REEL_CACHE_DIR"]!) }
        for arguments in try Self.commands(writingInto: locked + "/new") {
            let run = try ReelCommand.run(arguments, environment: cache, emulator: asUnprivileged)
            expectRefusal(run, arguments, folder: locked + "/new", reason: "Permission denied")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: locked).isEmpty)
    }
}
