import CompositionGraph

/// What the page knows of the preview, sent as JSON: which generation to ask frames and
/// pieces of, the timeline's frames and segments, the vars, and the diagnostics of the
/// project as it is on disk now (nil when it is valid). `version` grows with every change.
struct PageState: Encodable, Sendable {
    struct Segment: Encodable, Sendable {
        var index: Int
        /// Seconds, for the player (the browser's clock is a double).
        var start: Double
        var end: Double
        /// Names the piece's content: a new key after an edit means new pictures or sound.
        var key: String
    }

    var version = 0
    var project: String
    var generation: Int?
    var diagnostics: String?
    /// The project's warnings as `reel validate` prints them (nil when it has none).
    var warnings: String?
    /// Frame duration as [numerator, denominator] seconds.
    var frameDuration: [Int64] = [1, 30]
    var frames: Int64 = 0
    var duration: Double = 0
    var width = 0
    var height = 0
    /// Whether the pieces have a sound track (the player's codecs).
    var hasAudio = false
    var segments: [Segment] = []
    var vars: [PreviewVar] = []

    init(project: String) { self.project = project }

    /// Shows `generation` (and clears the diagnostics).
    mutating func show(_ generation: PreviewGeneration, vars: [PreviewVar], warnings: String?) {
        let graph = generation.graph
        let d = graph.videoComposition.frameDuration.value
        self.generation = generation.number
        diagnostics = nil
        self.warnings = warnings
        frameDuration = [d.numerator, d.denominator]
        frames = generation.stills.frameCount
        duration = graph.duration.seconds
        width = generation.stills.size.width
        height = generation.stills.size.height
        hasAudio = graph.hasAudio
        segments = generation.segments.map { s in
            Segment(index: s.index, start: s.timeRange.start.seconds, end: s.timeRange.end.seconds, key: s.key)
        }
        self.vars = vars
        version += 1
    }

    mutating func fail(_ diagnostics: String) {
        self.diagnostics = diagnostics
        version += 1
    }
}
