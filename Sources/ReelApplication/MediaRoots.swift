import FilePaths
import FileSafety
import Foundation
import MediaFormat
import ProjectCompiler

/// The folders a project sent to a service may read, in order, as the rule
/// every file the project names passes (`ProjectPathResolver`): media, image sequences,
/// nested projects, font files, LUTs and cue files, whether written out or given by a var.
///
/// A project names `http(s)://` media (fetched by the remote media cache; other URLs are the
/// compiler's to refuse) or paths relative to a root; an absolute path or a `file:` URL is
/// refused. A relative path is looked up in the roots in order and the first root that holds
/// the file (for an image sequence, any of its files) wins; when none does, it names the
/// first root's, and is reported missing as usual. A nested project's paths are relative to
/// its own file, as it was written. Whatever a path names, the file it reaches (symlinks and
/// `..` resolved; each file of an image sequence) must lie inside a root, and that resolved
/// path is what is read. Refusals quote the path as written, never a root's own path.
public struct MediaRoots: ProjectPathResolver {
    /// The roots with their symlinks resolved.
    public let folders: [String]

    /// `folders` (relative ones start at the current folder); throws for one that is no folder.
    public init(_ folders: [String]) throws(MediaRootError) {
        self.folders = try folders.map { (folder: String) throws(MediaRootError) -> String in
            let resolved = FileIdentity.resolvedPath(folder)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder), isFolder.boolValue else {
                throw MediaRootError(folder: folder)
            }
            return resolved
        }
    }

    public func file(_ written: String, in project: String, nested: Bool) -> Result<String, PathRefusal> {
        let hint = "name a file inside \(oneRoot), relative to it, or an https URL"
        if written.lowercased().hasPrefix("file:") {
            return .failure(PathRefusal("'\(written)' is a file: URL; a project sent here reads only files inside \(rootsText)", hint: hint))
        }
        if RemoteMediaAddress.scheme(of: written) != nil {
            return .failure(PathRefusal("'\(written)' is a URL where a file is needed", hint: "name a file inside \(oneRoot), relative to it"))
        }
        if written.hasPrefix("/") {
            return .failure(PathRefusal("'\(written)' is an absolute path; a project sent here reads only files inside \(rootsText)", hint: hint))
        }
        let bases = nested ? [(project as NSString).deletingLastPathComponent] : folders
        let candidates = bases.map { absolutePath(written, from: $0) }
        guard let chosen = candidates.first(where: Self.exists) ?? candidates.first else {
            return .failure(PathRefusal("'\(written)' names a file, and this server has no media root to read it from", hint: "name an https URL"))
        }
        guard contains(chosen) else {
            return .failure(PathRefusal("'\(written)' leads outside \(rootsText)", hint: hint))
        }
        let real = FileIdentity.resolvedPath(chosen)
        guard contains(real) else {
            return .failure(PathRefusal("'\(written)' leads through a symlink to a file outside \(rootsText)", hint: hint))
        }
        if let file = ImageSequencePattern.files(of: chosen)?.first(where: { !contains(FileIdentity.resolvedPath($0)) }) {
            return .failure(PathRefusal("'\(written)': its file \((file as NSString).lastPathComponent) is a symlink to a file outside \(rootsText)",
                                        hint: hint))
        }
        return .success(real)
    }

    private var rootsText: String { folders.count == 1 ? "the media root" : "the media roots" }
    private var oneRoot: String { folders.count == 1 ? "the media root" : "a media root" }

    /// Whether `path` (absolute, standardized) is a root or lies inside one.
    private func contains(_ path: String) -> Bool {
        folders.contains { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
    }

    /// Whether the file, or any file of the image sequence, is there.
    private static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path) || ImageSequencePattern.files(of: path)?.isEmpty == false
    }
}

/// A media root that is no folder.
public struct MediaRootError: Error, Equatable, CustomStringConvertible {
    public let folder: String

    public var description: String { "the media root \(folder) is not a folder" }
}
