import Foundation
import ProjectCompiler
import ProjectFile

/// What a var's value set on the page may name. The page answers whoever reaches the port
/// (every user of this machine; with `--allow-remote`, every machine that reaches it), so a
/// page value may not make the preview read a file or address the project does not name.
///
/// A value of a `path`, `string` or untyped var is refused when, read as a path (relative to
/// the project's folder, as a media path is), it leads outside that folder: an absolute path,
/// `..`, or a symlink inside the folder that points out (each existing part is resolved as
/// the file system would). A URL is refused unless it has the origin (scheme, host, port) of
/// the var's default. The var's default itself is always allowed. Values from the command line
/// and the project file are the user's own and may name anything.
enum PageVarRule {
    /// The problem with page value `value` of a var declared as `declaration` (nil when the
    /// page may set it); `folder` is the project's folder, resolved.
    static func problem(_ value: String, declaration: VarDeclaration, folder: String) -> String? {
        if let type = declaration.type, ![.path, .string].contains(type) { return nil }
        let own = declaration.defaultValue?.value.scalarText
        if value == own { return nil }
        if RemoteMediaAddress.scheme(of: value) != nil {
            guard let origin = origin(value), origin == own.flatMap(Self.origin) else {
                return "names the URL '\(value)'; the page may name URLs only of the site of the var's default"
                    + (own.flatMap(Self.origin).map { " (\($0))" } ?? ", which is not a URL")
            }
            return nil
        }
        let target = resolved(value, in: folder)
        guard target != folder, !target.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") else { return nil }
        let leads = target == value ? "" : " (which is \(target))"
        return "names '\(value)'\(leads), outside the project's folder \(folder); the page may name files in that folder only"
    }

    /// `scheme://host:port`, lowercased, with the scheme's default port when none is written.
    private static func origin(_ text: String) -> String? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        return "\(scheme)://\(host):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }

    /// Where `path` (absolute, or relative to `folder`) leads: every part that exists resolved
    /// with its symlinks, the rest appended as written.
    static func resolved(_ path: String, in folder: String) -> String {
        var here = path.hasPrefix("/") ? "/" : folder
        for part in path.split(separator: "/") where part != "." {
            if part == ".." {
                here = (here as NSString).deletingLastPathComponent
                continue
            }
            let next = (here as NSString).appendingPathComponent(String(part))
            here = realpath(next, nil).map { resolved in
                defer { free(resolved) }
                return String(cString: resolved)
            } ?? next
        }
        return here
    }
}
