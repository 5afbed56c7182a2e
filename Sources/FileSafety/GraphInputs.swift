import CompositionGraph
import Foundation
import MediaFormat

extension CompositionGraph {
    /// Every file rendering this graph reads: the media of its segments and overlays (video,
    /// audio, images, SVGs), the font files it registers and the font files its text layers
    /// resolved to, the cue files of its captions, the LUT files of its filters and its GLSL files. `reader` starts the roles: "the project's" gives `the project's video 'intro'`.
    public func readFiles(reader: String = "the project's") -> [ReadFile] {
        var files: [ReadFile] = []
        for reference in mediaReferences {
            let kind = reference.kind == .svg ? "SVG" : reference.kind.rawValue
            // An image sequence reads each of its files.
            for path in ImageSequencePattern.files(of: reference.path) ?? [reference.path] {
                files.append(ReadFile(path: path, role: "\(reader) \(kind) '\(reference.name)'"))
            }
        }
        for font in fonts { files.append(ReadFile(path: font, role: "a font file in \(reader) fonts:")) }
        for file in captionFiles { files.append(ReadFile(path: file, role: "a cue file of \(reader) captions")) }
        for file in lutFiles { files.append(ReadFile(path: file, role: "a LUT file of \(reader) filters")) }
        let shaders = shaderCalls
        for call in shaders.transitions { files.append(ReadFile(path: call.path, role: "a GLSL transition of \(reader) video")) }
        for call in shaders.pictures { files.append(ReadFile(path: call.path, role: "a GLSL clip of \(reader) video")) }
        var fontsSeen = Set<String>()
        for layer in overlays {
            guard let text = layer.content.shownText, let style = layer.content.textStyle, let file = style.resolvedFontFile else { continue }
            // A caption track makes many layers of one font: name the file once.
            if case .caption = layer.content, !fontsSeen.insert(file).inserted { continue }
            let flat = text.replacingOccurrences(of: "\n", with: " ")
            let shown = flat.count > 30 ? String(flat.prefix(29)) + "…" : flat
            files.append(ReadFile(path: file, role: "the font of \(reader) text '\(shown)' (\(style.font))"))
        }
        return files
    }
}
