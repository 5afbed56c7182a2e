import JSONSchema
import ProjectFile

/// What the causes of a difference are read from, for one side: the document as written (as
/// its rendition chose it), as its vars filled it in, its vars' values, the bytes' identity of
/// every file its values name, and the same of each nested project it names.
public struct DocumentFacts: Sendable {
    public var written: Node
    public var substituted: Node
    /// Each var's value (nil: declared without one).
    public var vars: [String: Node?]
    /// By the path of the value that names the file (`media.music`, `captions[0].file`,
    /// `video[0].clips[1].filters[0].lut`): the digest of its bytes.
    public var files: [String: String]
    /// By the path of the value that names it: a nested project's own facts.
    public var nested: [String: DocumentFacts]

    public init(written: Node, substituted: Node, vars: [String: Node?], files: [String: String], nested: [String: DocumentFacts]) {
        self.written = written
        self.substituted = substituted
        self.vars = vars
        self.files = files
        self.nested = nested
    }

    /// Every string value of `root` with its path, in document order: the values that may name
    /// a file (a front end asks which do).
    public static func strings(in root: Node) -> [(path: String, text: String)] {
        var found: [(String, String)] = []
        func visit(_ node: Node, _ path: String) {
            switch node.value {
            case .string(let s): found.append((path, s))
            case .object(let members): for m in members { visit(m.value, DocumentPath.appending(key: m.key, to: path)) }
            case .array(let items): for (i, item) in items.enumerated() { visit(item, DocumentPath.appending(index: i, to: path)) }
            default: break
            }
        }
        visit(root, DocumentPath.root)
        return found
    }
}

/// Why part of the output changes: a path into the project (`overlays[0].text`) and what
/// happened there (`via vars.headline`, `file changed`, `added`).
public struct Cause: Sendable, Equatable, Hashable, Codable {
    public var path: String
    public var note: String?

    public init(_ path: String, note: String? = nil) {
        self.path = path
        self.note = note
    }

    /// `overlays[0].text (via vars.headline)`.
    public var text: String { note.map { "\(path) (\($0))" } ?? path }
}

/// The causes between two sides' facts: every value that differs once the vars are filled in
/// (with the vars that made it differ), and every file whose bytes differ under an unchanged
/// name (for a nested project: what differs inside it).
enum CauseFinder {
    /// Values that change nothing in the output: the vars block (its effects are found where
    /// the vars are used), the other renditions, the output's file name, comments for people.
    static let ignored = ["vars", "renditions", "output.path", "$schema"]

    static func causes(old: DocumentFacts, new: DocumentFacts) -> [Cause] {
        var causes: [Cause] = []
        var changedPaths = Set<String>()
        for change in DocumentChanges.between(old.substituted, new.substituted) where !isIgnored(change.path) {
            changedPaths.insert(change.path)
            // Another name for the same bytes (a moved file) changes nothing.
            if change.kind == .changed, let a = old.files[change.path], a == new.files[change.path] { continue }
            if change.kind != .changed {
                causes.append(Cause(change.path, note: change.kind.rawValue))
            } else if let vars = viaVars(change.path, old: old, new: new) {
                causes.append(Cause(change.path, note: "via " + vars.map { "vars.\($0)" }.joined(separator: ", ")))
            } else {
                causes.append(Cause(change.path))
            }
        }
        for path in Set(old.files.keys).intersection(new.files.keys).sorted() where !changedPaths.contains(path) {
            guard old.files[path] != new.files[path] else { continue }
            if let a = old.nested[path], let b = new.nested[path] {
                let inner = Self.causes(old: a, new: b)
                if !inner.isEmpty {
                    causes += inner.map { Cause(path, note: "nested project: \($0.text)") }
                    continue
                }
            }
            causes.append(Cause(path, note: "file changed"))
        }
        // A nested project whose own media changed, its file unchanged.
        for (path, a) in old.nested.sorted(by: { $0.key < $1.key }) where old.files[path] == new.files[path] && !changedPaths.contains(path) {
            guard let b = new.nested[path] else { continue }
            causes += Self.causes(old: a, new: b).map { Cause(path, note: "nested project: \($0.text)") }
        }
        return causes
    }

    static func isIgnored(_ path: String) -> Bool {
        ignored.contains { DocumentPath.isWithin(path, $0) }
    }

    /// The vars whose values differ and are used where `path` is written, when the value as
    /// written is the same on both sides (so the vars alone made it differ); nil otherwise.
    private static func viaVars(_ path: String, old: DocumentFacts, new: DocumentFacts) -> [String]? {
        // A value that is one reference may be filled with a list or a map: look up from the
        // changed leaf to the string that was written.
        var steps = PathSteps.parse(path)
        while !steps.isEmpty {
            let prefix = PathSteps.text(steps)
            if let a = DocumentChanges.value(at: prefix, in: old.written), let b = DocumentChanges.value(at: prefix, in: new.written),
               case .string(let text) = b.value {
                guard DocumentChanges.same(a, b) else { return nil }
                let names = VarsSubstitution.references(in: text).compactMap(\.name)
                let changed = names.filter { name in
                    switch (old.vars[name], new.vars[name]) {
                    case (let x??, let y??): return !DocumentChanges.same(x, y)
                    case (nil, nil), (.some(nil), .some(nil)): return false
                    default: return true
                    }
                }
                return changed.isEmpty ? nil : Array(uniqued(changed))
            }
            steps.removeLast()
        }
        return nil
    }

    private static func uniqued(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }
}

extension PathSteps {
    static func text(_ steps: [PathSteps]) -> String {
        steps.reduce(DocumentPath.root) { path, step in
            switch step {
            case .key(let k): DocumentPath.appending(key: k, to: path)
            case .index(let i): DocumentPath.appending(index: i, to: path)
            }
        }
    }
}
