import CompositionGraph
import Foundation

extension CompositionGraph {
    /// Every file rendering this graph reads: the media of its segments and overlays (video,
    /// audio, images, SVGs), the font files it registers and the font files its text layers
    /// resolved to. `reader` starts the roles: "the project's" gives `the project's video 'intro'`.
    public func readFiles(reader: String = "the project's") -> [ReadFile] {
        var files: [ReadFile] = []
        for reference in mediaReferences {
            let kind = reference.kind == .svg ? "SVG" : reference.kind.rawValue
            files.append(ReadFile(path: reference.path, role: "\(reader) \(kind) '\(reference.name)'"))
        }
        for font in fonts { files.append(ReadFile(path: font, role: "a font file in \(reader) fonts:")) }
        for layer in overlays {
            guard case .text(let text, let style) = layer.content, let file = style.resolvedFontFile else { continue }
            let flat = text.replacingOccurrences(of: "\n", with: " ")
            let shown = flat.count > 30 ? String(flat.prefix(29)) + "…" : flat
            files.append(ReadFile(path: file, role: "the font of \(reader) text '\(shown)' (\(style.font))"))
        }
        return files
    }
}
