import OverlayRendering
import ProjectCompiler

/// Font families resolved by fontconfig over the machine's fonts and the project's font files,
/// exactly as the overlay renderer will see them.
struct CatalogFonts: FontResolver {
    private var catalog: FontCatalog?

    mutating func register(fontFiles: [String]) -> [(file: String, problem: FontFileProblem)] {
        do {
            catalog = try FontCatalog(fontFiles: fontFiles)
            return []
        } catch {
            switch error.reason {
            case .fontFileMissing(let path): return [(path, .missing)]
            case .fontFileUnusable(let path): return [(path, .unusable(error.description))]
            default: return [(fontFiles.first ?? "", .unusable(error.description))]
            }
        }
    }

    func resolve(family: String, weight: Int, italic: Bool) -> FontResolution {
        guard let catalog else { return .unavailable(available: []) }
        do {
            return .file(try catalog.resolve(family: family, weight: weight, italic: italic).file)
        } catch {
            if case .unknownFontFamily(_, let available) = error.reason { return .unavailable(available: available) }
            return .unavailable(available: catalog.families)
        }
    }
}
