/// Diagnostics from reading a file, before there is a tree to validate.
struct LoadFailure: Error {
    var diagnostics: [Diagnostic]
    init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}
