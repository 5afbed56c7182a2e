import ProjectFile
import ReelApplication

/// The server's own folders, which nothing the service writes for a client shows: a path in a
/// media root is shown relative to the root, as the client wrote it (`clip.mp4`, not
/// `/srv/media/clip.mp4`; a root itself as `.`), one in the data folder as `<data>/outputs/…`,
/// one in the remote media cache as `<media cache>/…`. Every answer's message and diagnostics
/// and every render's `error` pass through it.
struct ServerPaths: Sendable {
    /// Each folder (absolute, no trailing slash) with what it is shown as; longest first, so a
    /// folder inside another (the default media root `DATA/media`) is taken for itself.
    private let folders: [(folder: String, shown: String)]

    /// The folders of a service on `service` whose projects are opened in `workspace`.
    init(folders service: ServiceFolders, workspace: Workspace) {
        let roots = service.mediaRoots + (workspace.mediaRoots?.folders ?? [])
        let named = roots.map { ($0, "") } + [(service.root, "<data>"), (workspace.remote.settings.folder, "<media cache>")]
        // Absolute folders only (a relative one as configured is among the roots resolved), never `/`.
        folders = named.map { (Self.trimmed($0.0), $0.1) }.filter { $0.folder.hasPrefix("/") }.sorted { $0.folder.count > $1.folder.count }
    }

    /// `text` with every path in a server folder shown as the client may see it.
    func hidden(in text: String) -> String {
        folders.reduce(text) { text, entry in Self.replacing(entry.folder, with: entry.shown, in: text) }
    }

    /// Diagnostics as an answer shows them: file names, messages and hints with no server folder.
    func values(of diagnostics: [Diagnostic]) -> [DiagnosticValue] {
        diagnostics.map { diagnostic in
            var value = DiagnosticValue(diagnostic)
            (value.file, value.message, value.hint) = (hidden(in: value.file), hidden(in: value.message), value.hint.map(hidden(in:)))
            return value
        }
    }

    private static func trimmed(_ folder: String) -> String {
        folder.hasSuffix("/") ? String(folder.dropLast()) : folder
    }

    /// Characters a path name is made of: `folder` found right after or before one is part of
    /// another path (`/backup/srv/media`, `/srv/media2`), and left alone.
    private static func isNameCharacter(_ character: Character?) -> Bool {
        character.map { $0.isLetter || $0.isNumber || "._-~/".contains($0) } ?? false
    }

    private static func replacing(_ folder: String, with shown: String, in text: String) -> String {
        guard text.contains(folder) else { return text }
        var result = "", rest = text[...]
        while let found = rest.range(of: folder) {
            result += rest[..<found.lowerBound]
            let after = rest[found.upperBound...].first
            if isNameCharacter(result.last) || (after != "/" && isNameCharacter(after)) {
                result += folder
                rest = rest[found.upperBound...]
            } else if after == "/" {
                result += shown.isEmpty ? "" : shown + "/"
                rest = rest[rest.index(after: found.upperBound)...]
            } else {
                result += shown.isEmpty ? "." : shown
                rest = rest[found.upperBound...]
            }
        }
        return result + rest
    }
}
