internal import CCairo
import RegularFiles

/// A fontconfig configuration of our own: the machine's font directories plus the project's
/// font files, and none of the machine's substitution rules.
///
/// The system configuration's rules (hinting, antialiasing, subpixel order, aliases) differ
/// between machines and users; leaving them out keeps the pixels identical everywhere. The
/// system and user cache directories are kept, so building the font list reads fontconfig's
/// caches instead of scanning every font file.
enum IsolatedFontConfig {
    /// A new configuration with the system's fonts and `fontFiles` registered as application
    /// fonts; the caller owns it (`FcConfigDestroy`).
    static func make(fontFiles: [String]) throws(OverlayError) -> OpaquePointer {
        guard let config = FcConfigCreate() else { fatalError("fontconfig: out of memory creating a configuration") }
        let xml = configurationXML()
        let parsed = xml.withCString { FcConfigParseAndLoadFromMemory(config, $0, 1) }
        precondition(parsed != 0, "fontconfig rejected the generated configuration:\n\(xml)")
        FcConfigSetRescanInterval(config, 0)
        _ = FcConfigBuildFonts(config)
        do {
            for file in fontFiles { try addApplicationFont(file, to: config) }
        } catch {
            FcConfigDestroy(config)
            throw error
        }
        return config
    }

    /// Font and cache directories of the machine's configuration, as a configuration document.
    private static func configurationXML() -> String {
        guard let system = FcInitLoadConfig() else { fatalError("fontconfig: cannot load the system configuration") }
        defer { FcConfigDestroy(system) }
        let fontDirs = strings(FcConfigGetFontDirs(system))
        let cacheDirs = strings(FcConfigGetCacheDirs(system))
        let entries = fontDirs.map { "<dir>\(escaped($0))</dir>" } + cacheDirs.map { "<cachedir>\(escaped($0))</cachedir>" }
        return "<?xml version=\"1.0\"?>\n<fontconfig>\n" + entries.joined(separator: "\n") + "\n</fontconfig>\n"
    }

    private static func addApplicationFont(_ path: String, to config: OpaquePointer) throws(OverlayError) {
        switch RegularFile.problem(at: path) {
        case .missing?: throw OverlayError(.fontFileMissing(path: path))
        case let problem?: throw OverlayError(.fontFileNotAFile(path: path, problem: problem.description))
        case nil: break
        }
        let before = applicationFontCount(config)
        // FcConfigAppFontAddFile succeeds on files that hold no font, so count the faces it added.
        let added = path.withCString { FcConfigAppFontAddFile(config, $0) }
        guard added != 0, applicationFontCount(config) > before else { throw OverlayError(.fontFileUnusable(path: path)) }
    }

    private static func applicationFontCount(_ config: OpaquePointer) -> Int32 {
        FcConfigGetFonts(config, FcSetApplication)?.pointee.nfont ?? 0
    }

    /// Drains and frees a fontconfig string list.
    private static func strings(_ list: OpaquePointer?) -> [String] {
        guard let list else { return [] }
        defer { FcStrListDone(list) }
        var result: [String] = []
        while let next = FcStrListNext(list) { result.append(String(cString: next)) }
        return result
    }

    private static func escaped(_ text: String) -> String {
        text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
    }
}

private extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
