/// What a `{{ var }}` may put into a file path of the project (`media.NAME`, `fonts[i]`,
/// `output.path`).
///
/// - A var that is the **whole** path (`picture: "{{ picture }}"`) chooses the file: any
///   path, relative to the project file or absolute, as if it were written there.
/// - A var **inside** a path (`clip: "media/{{ name }}.mp4"`) fills in a name within the
///   folder the project wrote: its value may not hold `/`, be or make a `.` or `..`
///   component, or hold control characters (a line break, NUL). So `../../secret` or
///   `/etc/passwd` cannot move the path out of `media/`.
///
/// `reel batch --output` templates follow the same rule for every value (`OutputTemplate`).
public enum VarPathRule {
    /// Whether `path` (as `DocumentPath` prints it) is a field that holds a file path.
    public static func isPathField(_ path: String) -> Bool {
        if path == "output.path" { return true }
        if path.hasPrefix("fonts["), path.hasSuffix("]"), path.dropFirst(6).dropLast().allSatisfy(\.isNumber) { return true }
        if path.hasPrefix("media.") { return !path.dropFirst(6).contains { $0 == "." || $0 == "[" } }
        if path.hasPrefix("media[\""), path.hasSuffix("\"]") { return true }
        return false
    }

    /// The problem with `value` inside a path (nil when it may go there).
    public static func problem(inside value: String) -> String? {
        if value.contains("/") { return "holds '/'" }
        if value == "." || value == ".." { return "is '\(value)'" }
        if value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "holds a control character (a line break, a tab or NUL)" }
        return nil
    }

    /// A `.` or `..` component of `result` that values made: `template` is the text with
    /// each reference replaced by U+0001, so its components line up with the result's.
    public static func madeComponent(result: String, template: String) -> String? {
        let made = result.split(separator: "/", omittingEmptySubsequences: false)
        let written = template.split(separator: "/", omittingEmptySubsequences: false)
        guard made.count == written.count else { return nil }
        for (m, w) in zip(made, written) where (m == "." || m == "..") && w.contains("\u{1}") { return String(m) }
        return nil
    }
}
