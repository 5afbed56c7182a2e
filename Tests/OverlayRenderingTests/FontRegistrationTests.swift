import CompositionGraph
import Testing
@testable import OverlayRendering

/// Project font files are registered for one catalog only: a font that exists nowhere but in
/// a temporary directory resolves and renders when listed, and is unknown when not.
@Suite struct FontRegistrationTests {
    static let family = "Reel Test Serif"
    static let systemSerif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"

    /// DejaVu Serif renamed to `family`, in a fresh temporary directory.
    func renamedFont() throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let path = directory.path("ReelTestSerif.ttf")
        try FontRenamer.copy(Self.systemSerif, to: path, family: Self.family)
        return (directory, path)
    }

    @Test func registeredFileResolvesToItself() throws {
        let (directory, path) = try renamedFont()
        let catalog = try FontCatalog(fontFiles: [path])
        let resolved = try catalog.resolve(family: Self.family)
        #expect(resolved.file == path && resolved.family == Self.family)
        #expect(catalog.families.contains(Self.family))
        _ = directory
    }

    @Test func resolvedFontFilesAreFilledInForTheGraph() throws {
        let (directory, path) = try renamedFont()
        let catalog = try FontCatalog(fontFiles: [path])
        let layers = [layer(solidRect(.white), x: 0, y: 0, width: 1),
                      layer(.text("a", TextStyle(font: Self.family, size: 20)), x: 0, y: 0),
                      layer(.text("b", TextStyle(font: "DejaVu Sans", weight: 700, size: 20)), x: 0, y: 0)]
        let resolved = try catalog.resolvingFonts(of: layers)
        let files = resolved.map { layer -> String? in
            guard case .text(_, let style) = layer.content else { return nil }
            return style.resolvedFontFile
        }
        #expect(files[0] == nil && files[1] == path && files[2]?.hasSuffix("DejaVuSans-Bold.ttf") == true)
        var unknown = layers
        unknown[2].content = .text("b", TextStyle(font: "Nowhere Sans", size: 20))
        #expect(throws: OverlayError(.unknownFontFamily(family: "Nowhere Sans", available: catalog.families), layerIndex: 2)) {
            try catalog.resolvingFonts(of: unknown)
        }
        _ = directory
    }

    @Test func unregisteredFamilyIsUnknown() throws {
        let catalog = try FontCatalog(fontFiles: [])
        #expect(!catalog.families.contains(Self.family))
        #expect(throws: OverlayError(.unknownFontFamily(family: Self.family, available: catalog.families))) {
            try catalog.resolve(family: Self.family)
        }
    }

    @Test func registeredFontDrawsTheSameGlyphsAsTheFileItCameFrom() throws {
        let (directory, path) = try renamedFont()
        func draw(_ family: String, fonts: [String]) throws -> TestFrame {
            try render([layer(.text("Registered Ågå", TextStyle(font: family, size: 40)), x: 160, y: 120)], fonts: fonts)
        }
        let registered = try draw(Self.family, fonts: [path])
        let original = try draw("DejaVu Serif", fonts: [])
        #expect(registered.inkCount > 1000)
        #expect(registered.bytes == original.bytes, "same outlines, same pixels")
        #expect(throws: OverlayError.self) { try draw(Self.family, fonts: []) }
        _ = directory
    }

    @Test func missingAndUnusableFontFilesAreErrors() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: OverlayError(.fontFileMissing(path: directory.path("nope.ttf")))) {
            try FontCatalog(fontFiles: [directory.path("nope.ttf")])
        }
        let notAFont = try directory.write("just text", to: "fake.otf")
        #expect(throws: OverlayError(.fontFileUnusable(path: notAFont))) { try FontCatalog(fontFiles: [notAFont]) }
    }

    @Test func registrationStaysInsideItsCatalog() throws {
        let (directory, path) = try renamedFont()
        let withFont = try FontCatalog(fontFiles: [path])
        let without = try FontCatalog(fontFiles: [])
        #expect(withFont.families.contains(Self.family) && !without.families.contains(Self.family))
        _ = directory
    }
}
