import Foundation
import RegularFiles

/// A loaded YAML or JSON file: its tree and its text (for quoting lines in diagnostics).
public struct Document: Sendable {
    public enum Format: String, Sendable {
        case yaml, json
    }

    public var root: Node
    public var source: SourceText
    public var format: Format

    /// A document whose root is any node of a loaded text (a project posted inside a request
    /// body keeps the body's lines and columns).
    public init(root: Node, source: SourceText, format: Format) {
        self.root = root
        self.source = source
        self.format = format
    }
}

/// Loads project files into `Node` trees with a line and column on every node and key.
///
/// YAML or JSON is chosen by extension (`.yaml`/`.yml`/`.json`), otherwise by content (a
/// file whose first character is `{` or `[` is JSON). Failures are `ProjectError`s: a missing
/// or unreadable path is `.missingFile` (exit 66), anything wrong inside is `.invalidProject`
/// (exit 65). Hostile input is bounded by `LoadLimits` (size, depth, expanded node count):
/// without `limits`, those for project files (`LoadLimits.projectFiles`, set by the environment).
public enum DocumentLoader {
    public static func load(path: String, limits given: LoadLimits? = nil) throws(ProjectError) -> Document {
        let limits = try chosen(given)
        let start = SourceLocation(file: path, line: 1, column: 1)
        func fail(_ category: ProjectError.Category, _ message: String, hint: String? = nil) -> ProjectError {
            ProjectError(category, Diagnostic(location: start, path: "", message: message, hint: hint))
        }
        switch RegularFile.problem(at: path) {
        case .missing?: throw fail(.missingFile, "no such file: \(path)", hint: "check the path; relative paths start from the current directory")
        case .notAFile(let kind)?: throw fail(.missingFile, "\(path) is \(kind), not a file", hint: "name the file itself")
        case .unreadable(let reason)?: throw fail(.missingFile, "cannot read \(path): \(reason)")
        case nil: break
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw fail(.missingFile, "cannot open \(path) for reading (permissions?)") }
        defer { try? handle.close() }
        // Read one byte past the limit, so a huge file is refused without reading all of it.
        let data: Data
        do {
            data = try handle.read(upToCount: limits.maxFileBytes + 1) ?? Data()
        } catch {
            throw fail(.missingFile, "cannot read \(path): \(error.localizedDescription)")
        }
        guard data.count <= limits.maxFileBytes else {
            throw fail(.invalidProject, "the file is larger than \(describeBytes(limits.maxFileBytes)), the limit for project files\(limits.sizeSettingNote)",
                       hint: "a project file describes media, it does not hold them; keep large data in separate files")
        }
        return try load(bytes: [UInt8](data), name: path, format: format(ofPath: path), limits: limits)
    }

    /// Loads text held in memory (standard input, tests); `name` is used in locations.
    public static func load(text: String, name: String, format: Document.Format? = nil, limits: LoadLimits? = nil) throws(ProjectError) -> Document {
        try load(bytes: Array(text.utf8), name: name, format: format, limits: chosen(limits))
    }

    static func load(bytes: [UInt8], name: String, format: Document.Format?, limits: LoadLimits) throws(ProjectError) -> Document {
        let start = SourceLocation(file: name, line: 1, column: 1)
        guard bytes.count <= limits.maxFileBytes else {
            throw ProjectError(.invalidProject, Diagnostic(location: start, path: "", message: "the text is larger than \(describeBytes(limits.maxFileBytes)), the limit for project files\(limits.sizeSettingNote)"))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let location = TextPosition.location(ofByte: TextPosition.firstInvalidUTF8(in: bytes) ?? 0, in: bytes, file: name)
            throw ProjectError(.invalidProject, Diagnostic(location: location, path: "", message: "the file is not UTF-8 text (invalid byte sequence at line \(location.line))",
                                                           hint: "project files are UTF-8 YAML or JSON; is this a media file?"))
        }
        let source = SourceText(name: name, text: text)
        if let nul = bytes.firstIndex(of: 0) {
            throw ProjectError(.invalidProject, Diagnostic(location: TextPosition.location(ofByte: nul, in: bytes, file: name), path: "",
                                                           message: "the file contains a NUL character; it is binary, not a YAML or JSON text"), source: source)
        }
        let hasContent = bytes.contains { byte in
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C: false
            default: true
            }
        }
        guard hasContent else {
            throw ProjectError(.invalidProject, Diagnostic(location: start, path: "", message: "the file is empty", hint: "a project starts with `reel: 1`"), source: source)
        }
        let chosen = format ?? sniffFormat(text)
        do throws(LoadFailure) {
            let root: Node
            switch chosen {
            case .json:
                var reader = JSONReader(bytes: bytes, file: name, limits: limits)
                root = try reader.read()
            case .yaml:
                var reader = YAMLReader(text: text, bytes: bytes, file: name, limits: limits)
                root = try reader.read()
            }
            return Document(root: root, source: source, format: chosen)
        } catch {
            throw ProjectError(.invalidProject, diagnostics: error.diagnostics, sources: [source])
        }
    }

    /// `given`, else the limits for project files.
    private static func chosen(_ given: LoadLimits?) throws(ProjectError) -> LoadLimits {
        if let given { return given }
        return try LoadLimits.projectFiles(environment: ProcessInfo.processInfo.environment)
    }

    static func format(ofPath path: String) -> Document.Format? {
        switch (path as NSString).pathExtension.lowercased() {
        case "yaml", "yml": return .yaml
        case "json": return .json
        default: return nil
        }
    }

    private static func sniffFormat(_ text: String) -> Document.Format {
        let first = text.unicodeScalars.first { !$0.properties.isWhitespace && $0 != "\u{FEFF}" }
        return first == "{" || first == "[" ? .json : .yaml
    }

    private static func describeBytes(_ count: Int) -> String {
        count % (1 << 20) == 0 ? "\(count >> 20) MiB" : "\(count) bytes"
    }
}
