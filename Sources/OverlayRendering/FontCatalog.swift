internal import CCairo
import Glibc
import CompositionGraph

/// The font file a requested family resolved to.
public struct ResolvedFont: Hashable, Sendable {
    /// The family name as the font file spells it.
    public var family: String
    public var file: String
    /// The face inside a collection (`.ttc`); 0 for single-face files.
    public var faceIndex: Int
}

/// The fonts a render may use: the machine's fonts plus the project's font files, registered
/// for this catalog only (a private fontconfig configuration, never the process-wide one).
///
/// Usable without rendering, to validate a project: `resolve` says which file a family
/// resolves to, and a family that no font provides is an error naming the available ones.
/// Not thread-safe: use one catalog from one thread at a time.
public final class FontCatalog {
    let config: OpaquePointer
    /// A PangoCairo font map over `config`, so Pango sees exactly these fonts.
    let fontMap: UnsafeMutablePointer<PangoFontMap>
    /// Every family name of every font, sorted.
    public let families: [String]

    /// Registers `fontFiles` (paths to .ttf/.otf/.ttc files) next to the machine's fonts.
    public init(fontFiles: [String]) throws(OverlayError) {
        _ = Self.fixLanguage
        config = try IsolatedFontConfig.make(fontFiles: fontFiles)
        guard let map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT) else {
            fatalError("PangoCairo has no FreeType font map")
        }
        fontMap = map
        pango_fc_font_map_set_config(OpaquePointer(map), config)
        families = Self.listFamilies(config)
    }

    /// Pango reads its preferred languages (which order fallback fonts, e.g. for Han
    /// characters) from the environment once; fix them before its first use so the locale
    /// never changes a pixel.
    private static let fixLanguage: Void = { setenv("PANGO_LANGUAGE", "en", 1) }()

    deinit {
        g_object_unref(fontMap)
        FcConfigDestroy(config)
    }

    /// The file that `family` at `weight` (CSS, 100…900) and slant resolves to.
    ///
    /// `family` may be a comma-separated fallback list as Pango takes it (`"DejaVu Sans, Noto
    /// Sans CJK SC"`): every family in it must exist; the first one's file is returned.
    /// Fontconfig always returns some font, so the match counts only when its family is the
    /// requested one (compared as fontconfig does: ignoring case and blanks).
    public func resolve(family: String, weight: Int = 400, italic: Bool = false) throws(OverlayError) -> ResolvedFont {
        let names = family.split(separator: ",").map { $0.trimmingBlanks() }.filter { !$0.isEmpty }
        guard !names.isEmpty else { throw OverlayError(.unknownFontFamily(family: family, available: families)) }
        var resolved: [ResolvedFont] = []
        for name in names {
            guard let font = match(name, weight: weight, italic: italic) else {
                throw OverlayError(.unknownFontFamily(family: name, available: families))
            }
            resolved.append(font)
        }
        return resolved[0]
    }

    /// `layers` with every text style's `resolvedFontFile` filled in (for `reel graph`); the
    /// first family that does not resolve is an error naming its overlay.
    public func resolvingFonts(of layers: [OverlayLayer]) throws(OverlayError) -> [OverlayLayer] {
        var resolved = layers
        for (index, layer) in layers.enumerated() {
            guard var style = layer.content.textStyle else { continue }
            do {
                style.resolvedFontFile = try resolve(family: style.font, weight: style.weight, italic: style.italic).file
            } catch {
                throw OverlayError(error.reason, layerIndex: index)
            }
            resolved[index].content.textStyle = style
        }
        return resolved
    }

    /// A Pango context over these fonts with every rendering option fixed (grey antialiasing,
    /// no hinting, unhinted metrics, unrounded glyph positions, English as the default
    /// language), so neither the machine nor the locale changes a pixel. The caller owns it.
    func makeContext() -> OpaquePointer {
        let context = pango_font_map_create_context(fontMap)!
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_subpixel_order(options, CAIRO_SUBPIXEL_ORDER_DEFAULT)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(context, 0)
        pango_context_set_language(context, pango_language_from_string("en"))
        return context
    }

    /// The best match for one family name, or nil when the best match is another family.
    private func match(_ family: String, weight: Int, italic: Bool) -> ResolvedFont? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        _ = FcPatternAddString(pattern, "family", family)
        _ = FcPatternAddDouble(pattern, "weight", FcWeightFromOpenTypeDouble(Double(weight)))
        _ = FcPatternAddInteger(pattern, "slant", italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
        _ = FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let found = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(found) }
        let key = Self.comparable(family)
        guard let name = Self.strings(found, "family").first(where: { Self.comparable($0) == key }),
              let file = Self.strings(found, "file").first else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(found, "index", 0, &index)
        return ResolvedFont(family: name, file: file, faceIndex: Int(index))
    }

    private static func listFamilies(_ config: OpaquePointer) -> [String] {
        guard let pattern = FcPatternCreate(), let objects = FcObjectSetCreate() else { return [] }
        defer { FcPatternDestroy(pattern); FcObjectSetDestroy(objects) }
        _ = FcObjectSetAdd(objects, "family")
        guard let set = FcFontList(config, pattern, objects) else { return [] }
        defer { FcFontSetDestroy(set) }
        var names = Set<String>()
        for i in 0..<Int(set.pointee.nfont) {
            if let font = set.pointee.fonts[i] { names.formUnion(strings(font, "family")) }
        }
        return names.sorted()
    }

    /// All values of a string property of a pattern.
    private static func strings(_ pattern: OpaquePointer, _ object: String) -> [String] {
        var values: [String] = []
        var value: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(pattern, object, Int32(values.count), &value) == FcResultMatch, let value {
            values.append(String(cString: value))
        }
        return values
    }

    /// Family names as fontconfig compares them: case and blanks ignored.
    private static func comparable(_ name: String) -> String {
        String(name.lowercased().filter { $0 != " " })
    }
}

private extension Substring {
    func trimmingBlanks() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
