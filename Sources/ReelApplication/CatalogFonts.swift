import CompositionGraph
import Foundation
import OverlayRendering
import ProjectCompiler
import Synchronization

/// Font families resolved by fontconfig over the machine's fonts and the project's font files,
/// exactly as the overlay renderer will see them.
struct CatalogFonts: FontResolver {
    private var catalog: FontCatalog?

    mutating func register(fontFiles: [String]) -> [(file: String, problem: FontFileProblem)] {
        do {
            catalog = try builtCatalogs.catalog(fontFiles: fontFiles)
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

    func captionLines(of text: String, style: TextStyle, width: Double) -> [Range<Int>]? {
        catalog?.captionLines(of: text, style: style, width: width)
    }

    func textUnits(of text: String, style: TextStyle, width: Double?, height: Double?, by unit: TextUnitPhase.Unit) -> [String]? {
        catalog?.textUnits(of: text, style: style, width: width, height: height, by: unit)
    }

    func footprint(of text: String, style: TextStyle, width: Double?, height: Double?) -> TextFootprint? {
        catalog?.textFootprint(of: text, style: style, width: width, height: height).map {
            TextFootprint(boxWidth: $0.boxWidth, boxHeight: $0.boxHeight, inkX: $0.x, inkY: $0.y, inkWidth: $0.width, inkHeight: $0.height)
        }
    }
}

/// The catalogs this process has built, by their font files (and those files' sizes and times):
/// building one reads the machine's fontconfig setup and scans fonts, which a batch would
/// otherwise do for every row. Keeps the last few.
private final class BuiltCatalogs: Sendable {
    /// A catalog and the key it was built for.
    /// @unchecked: a `FontCatalog` is for one thread at a time; Reel loads one project at a time.
    private struct Built: @unchecked Sendable {
        var key: [String]
        var catalog: FontCatalog
    }

    private let catalogs = Mutex<[Built]>([])

    func catalog(fontFiles: [String]) throws(OverlayError) -> FontCatalog {
        let key = fontFiles.flatMap { file -> [String] in
            let attributes = try? FileManager.default.attributesOfItem(atPath: file)
            return [file, "\((attributes?[.size] as? NSNumber)?.int64Value ?? -1)",
                    "\((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1)"]
        }
        if let known = catalogs.withLock({ $0.first { $0.key == key }?.catalog }) { return known }
        let catalog = try FontCatalog(fontFiles: fontFiles)
        catalogs.withLock { catalogs in
            catalogs.append(Built(key: key, catalog: catalog))
            if catalogs.count > 8 { catalogs.removeFirst() }
        }
        return catalog
    }
}

private let builtCatalogs = BuiltCatalogs()
