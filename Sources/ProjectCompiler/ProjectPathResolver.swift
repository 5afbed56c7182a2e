/// How a path written in a project (a media file, an image sequence, a nested project, a font
/// file, a LUT, a cue file) names the file Reel reads: the one place every such path passes.
/// Without one, a path is relative to the project file's folder (`absolutePath`); a service
/// gives one that keeps a project to its media folders.
public protocol ProjectPathResolver: Sendable {
    /// The absolute path of the file `written` names in the project file `project`, or why it
    /// may not be read (reported where the path is written). `nested`: `project` is a nested
    /// project, read from its own file, rather than the project being opened.
    func file(_ written: String, in project: String, nested: Bool) -> Result<String, PathRefusal>
}

/// Why a path written in a project may not be read, and what to write instead.
public struct PathRefusal: Error, Sendable {
    public var message: String
    public var hint: String

    public init(_ message: String, hint: String) {
        self.message = message
        self.hint = hint
    }
}
