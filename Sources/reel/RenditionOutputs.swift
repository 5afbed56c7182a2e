import Foundation
import ProjectFile

/// What `reel render` makes of a project with `renditions:` when no `--rendition` is asked
/// for: every rendition, each to its own file.
enum RenditionOutputs {
    /// The renditions to make: all of the project's when none is asked for and it declares
    /// some; nil for one render as the options say (a project that cannot be read is reported
    /// by the load that follows).
    static func all(of project: String, asked: String?) -> [String]? {
        guard asked == nil, let document = try? DocumentLoader.load(path: project) else { return nil }
        let names = Renditions.names(in: document.root)
        return names.isEmpty ? nil : names
    }

    /// Rendition `name`'s file: its own `path` when it sets one and no `-o` is given; else `-o`
    /// or the project's `output.path` with the name before the extension (`promo.mp4` →
    /// `promo-square.mp4`). Nil when there is neither.
    static func path(_ name: String, output: String?, projectOutput: String?, project: String) -> String? {
        if output == nil, setsOwnPath(name, project: project) { return projectOutput }
        guard let base = output ?? projectOutput else { return nil }
        let ext = (base as NSString).pathExtension
        return ext.isEmpty ? "\(base)-\(name)" : "\(base.dropLast(ext.count + 1))-\(name).\(ext)"
    }

    /// A usage error when two renditions would write the same file.
    static func refuseSharedPaths(_ outputs: [(rendition: String?, path: String)]) throws {
        var seen: [String: String] = [:]
        for (rendition, path) in outputs {
            let key = URL(fileURLWithPath: path).standardizedFileURL.path
            if let first = seen[key] {
                throw UsageError("renditions \(first) and \(rendition ?? "?") would both write \(path): give each its own path in renditions:")
            }
            seen[key] = rendition ?? "?"
        }
    }

    private static func setsOwnPath(_ name: String, project: String) -> Bool {
        guard let document = try? DocumentLoader.load(path: project) else { return false }
        return document.root[Renditions.key]?[name]?["path"] != nil
    }
}
