import Foundation
import ProjectFile

/// Which renditions one render makes of a project with `renditions:` and where each goes.
public enum RenditionOutputs {
    /// The renditions to make: all of the project's when none is asked for and it declares
    /// some; nil for one render of the rendition asked for (or of a project without any).
    public static func all(of document: Document, asked: String?) -> [String]? {
        guard asked == nil else { return nil }
        let names = Renditions.names(in: document.root)
        return names.isEmpty ? nil : names
    }

    /// Rendition `name`'s file: its own `path` when it sets one and no output is asked for;
    /// else the asked-for output or the project's `output.path` with the name before the
    /// extension (`promo.mp4` → `promo-square.mp4`). Nil when there is neither.
    public static func path(_ name: String, output: String?, projectOutput: String?, document: Document) -> String? {
        if output == nil, document.root[Renditions.key]?[name]?["path"] != nil { return projectOutput }
        guard let base = output ?? projectOutput else { return nil }
        let ext = (base as NSString).pathExtension
        return ext.isEmpty ? "\(base)-\(name)" : "\(base.dropLast(ext.count + 1))-\(name).\(ext)"
    }

    /// Two renditions that would write one file.
    public static func sharedPath(_ outputs: [(rendition: String?, path: String)]) -> RenderRequestError? {
        var seen: [String: String] = [:]
        for (rendition, path) in outputs {
            let key = URL(fileURLWithPath: path).standardizedFileURL.path
            if let first = seen[key] { return .sharedOutput(first: first, second: rendition ?? "?", path: path) }
            seen[key] = rendition ?? "?"
        }
        return nil
    }
}
