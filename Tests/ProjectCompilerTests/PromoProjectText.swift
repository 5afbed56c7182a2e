import ProjectCompiler
import ProjectFile
import TestSupport

/// A project written in a test, after a head of its own (output 640x360 at 30 fps and the
/// promo's media a, b, logo and music), compiled against FakeMediaFacts.promo: what
/// DefaultsTests and ClipTiedOverlayTests load.
struct PromoProjectText {
    static let head = "reel: 1\noutput: { size: [640, 360], fps: 30 }\nmedia: { a: A.mp4, b: B.mp4, logo: logo.png, music: music.mp3 }\n"

    /// The file name the project is loaded under (its diagnostics name it).
    let file: String

    func load(_ text: String) throws(ProjectError) -> ProjectPipeline.Loaded {
        let document = try DocumentLoader.load(text: Self.head + text, name: MediaFactory.path(file))
        return try ProjectPipeline.load(document, media: FakeMediaFacts.promo, fonts: FakeFonts())
    }

    /// The error loading `text` throws; nil when it loads.
    func failure(_ text: String) -> ProjectError? {
        do {
            _ = try load(text)
            return nil
        } catch {
            return error
        }
    }
}
