/// One problem found in a project file, with where it is.
public struct Diagnostic: Sendable, Hashable {
    public var location: SourceLocation
    /// Path in the document, e.g. `video[0].clips[2].from`.
    public var path: String
    public var message: String
    public var hint: String?

    public init(location: SourceLocation, path: String, message: String, hint: String? = nil) {
        self.location = location
        self.path = path
        self.message = message
        self.hint = hint
    }
}
