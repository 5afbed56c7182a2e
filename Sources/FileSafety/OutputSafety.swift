#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FilePaths
import Foundation
import MediaFormat

/// A file a command reads, and the part it plays: `the project file`, `the project's video
/// 'intro'`, `the vars file`…
public struct ReadFile: Hashable, Sendable {
    public var path: String
    /// A noun phrase for messages.
    public var role: String

    public init(path: String, role: String) {
        self.path = path
        self.role = role
    }

    public static func project(_ path: String) -> ReadFile { ReadFile(path: path, role: "the project file") }
    /// `input`: how the caller's user named the file (a front end's option), added in parentheses.
    public static func varsFile(_ path: String, input: String? = nil) -> ReadFile {
        ReadFile(path: path, role: "the vars file" + (input.map { " (\($0))" } ?? ""))
    }
    public static func rowsFile(_ path: String, input: String? = nil) -> ReadFile {
        ReadFile(path: path, role: "the rows file" + (input.map { " (\($0))" } ?? ""))
    }
}

/// Why an output may not be written; `message` (also its `description`) names the output and,
/// for an input, the input and its role. Commands print it as `error: …` and exit with status 73.
public struct OutputRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The output names an existing folder (or ends with `/`).
        case folder
        /// The output is, or leads to, a file the command reads.
        case input(ReadFile, Route)
    }

    /// How an output path reaches an input.
    public enum Route: Sendable, Equatable {
        /// The same path.
        case samePath
        /// The output is a symlink to the input (or the input a symlink to the output).
        case symlink
        /// Another spelling of the same place: `..`, `.`, a linked folder, relative vs absolute.
        case otherPath
        /// Another name of the same file (same device and inode, different place).
        case hardLink
        /// The output is an image sequence's pattern (`frames/%04d.png`) that names the input.
        case sequence
    }

    public var output: String
    public var reason: Reason
    /// An example file name for the folder message (`out.mp4`, `frame.png`).
    public var exampleName: String

    public var message: String {
        switch reason {
        case .folder:
            let folder = output.hasSuffix("/") ? String(output.dropLast()) : output
            return "\(output) is a folder, not a file: name the file to write in it, e.g. \(folder.isEmpty ? "" : folder + "/")\(exampleName)"
        case .input(let input, let route):
            let how: String
            switch route {
            case .samePath: how = "it is \(input.path)"
            case .symlink: how = "it and \(input.path) are one file (through a symlink)"
            case .otherPath: how = "it is another path to \(input.path)"
            case .hardLink: how = "it is a hard link to \(input.path) (the same file under another name)"
            case .sequence: how = "its frames would be written over \(input.path)"
            }
            return "will not write \(output): \(how), \(input.role); writing it would destroy what is being read. Choose another output file"
        }
    }

    public var description: String { message }
}

/// The rule that keeps a command from destroying what it reads: an output may not be, or
/// resolve to, any file the command reads (compared by device and inode when the output
/// exists, so symlinks, hard links and `..` are seen through; by resolved path when it does not
/// exist yet), and may not be a folder.
public struct OutputSafety: Sendable {
    private var inputs: [(key: FileKey, file: ReadFile)] = []

    /// `inputs` may repeat a file; the first role given for it is the one messages name.
    public init(reading inputs: [ReadFile]) {
        var seen = Set<FileKey>()
        for file in inputs {
            let key = FileKey(path: file.path)
            if seen.insert(key).inserted { self.inputs.append((key, file)) }
        }
    }

    /// nil when `output` may be written; else why not (a folder, or one of the inputs).
    public func check(_ output: String, exampleName: String = "out.mp4") -> OutputRefusal? {
        if Self.isFolder(output) { return OutputRefusal(output: output, reason: .folder, exampleName: exampleName) }
        return checkInputs(output)
    }

    /// nil when `output` is none of the inputs; else the refusal naming the input.
    public func checkInputs(_ output: String) -> OutputRefusal? {
        guard let (file, route) = input(writtenBy: output) else { return nil }
        return OutputRefusal(output: output, reason: .input(file, route), exampleName: "")
    }

    /// The input that writing `output` would replace, and how the output path reaches it. An
    /// image sequence's pattern (`frames/%04d.png`) would replace (or, as a stale frame,
    /// remove) every file in its folder that its pattern names.
    public func input(writtenBy output: String) -> (ReadFile, OutputRefusal.Route)? {
        if ImageSequencePattern.has(output) {
            let folder = FileIdentity.resolvedPath(URL(fileURLWithPath: output).deletingLastPathComponent().path)
            let match = inputs.first { input in
                let url = URL(fileURLWithPath: FileIdentity.resolvedPath(input.file.path))
                return url.deletingLastPathComponent().path == folder
                    && ImageSequencePattern.number(ofFileName: url.lastPathComponent, in: output) != nil
            }
            return match.map { ($0.file, .sequence) }
        }
        let key = FileKey(path: output)
        guard let match = inputs.first(where: { $0.key == key })?.file else { return nil }
        return (match, Self.route(from: output, to: match.path))
    }

    /// True when `a` and `b` name one file (or one place, for files not written yet).
    public static func sameFile(_ a: String, _ b: String) -> Bool { FileKey(path: a) == FileKey(path: b) }

    /// An existing folder, or a path ending with `/`.
    public static func isFolder(_ path: String) -> Bool {
        if path.hasSuffix("/") { return true }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static func route(from output: String, to input: String) -> OutputRefusal.Route {
        if output == input || absolutePath(output) == absolutePath(input) { return .samePath }
        if isSymlink(output) || isSymlink(input) { return .symlink }
        if FileIdentity.resolvedPath(output) == FileIdentity.resolvedPath(input) { return .otherPath }
        return .hardLink
    }

    private static func isSymlink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }
}
