/// What one `Schema.validate` call keeps while it walks the instance: the path to the value
/// being checked (built into text only for a failure), whether failures are being worded or
/// only counted, and the scalars already found valid under each schema.
///
/// Valid documents are the common case, and big ones repeat the same values (`0.5s`,
/// `crossfade`) under the same schemas: the memo spares them the alternatives, patterns and
/// unworded failures of every repetition.
final class EvaluationRun {
    /// A scalar value under a schema, known to pass it. Texts are the same when their bytes
    /// are (not Swift's canonical equivalence: `é` composed or not may match a pattern differently).
    struct ValidScalar: Hashable {
        let schema: ObjectIdentifier
        let kind: UInt8
        let text: String

        static func == (a: ValidScalar, b: ValidScalar) -> Bool {
            a.schema == b.schema && a.kind == b.kind && a.text.utf8.elementsEqual(b.text.utf8)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(schema)
            hasher.combine(kind)
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }

    private var steps = PathStack()
    /// Above zero while only the validity of subschemas matters (an `if`, a `not`, `contains`,
    /// the first look at `anyOf`/`oneOf` branches): failures are then recorded without words.
    private(set) var quietDepth = 0
    private var validScalars = Set<ValidScalar>()
    /// A `$dynamicRef` can make one schema mean different things in different places: no memo then.
    private let memoizes: Bool
    /// Whether the keys and items evaluated are recorded (only `unevaluated*` read them).
    let annotates: Bool

    init(memoizes: Bool, annotates: Bool) {
        self.memoizes = memoizes
        self.annotates = annotates
    }

    var isQuiet: Bool { quietDepth > 0 }

    /// The path of the value being checked, as messages print it.
    var path: String { steps.rendered }

    func inside<T>(_ step: PathStack.Component, _ body: () -> T) -> T {
        steps.push(step)
        defer { steps.pop() }
        return body()
    }

    func quietly<T>(_ body: () -> T) -> T {
        quietDepth += 1
        defer { quietDepth -= 1 }
        return body()
    }

    /// The memo key of a scalar under `schema`; nil for lists and mappings (their failures
    /// and annotations depend on their members) and when the memo is off.
    func memoKey<Instance: JSONInstance>(_ schema: CompiledSchema<Instance>, _ node: Instance) -> ValidScalar? {
        guard memoizes else { return nil }
        let id = ObjectIdentifier(schema)
        switch node.value {
        case .null: return ValidScalar(schema: id, kind: 0, text: "")
        case .bool(let b): return ValidScalar(schema: id, kind: 1, text: b ? "t" : "f")
        case .number(let text): return ValidScalar(schema: id, kind: 2, text: text)
        case .string(let text): return ValidScalar(schema: id, kind: 3, text: text)
        case .array, .object: return nil
        }
    }

    func isKnownValid(_ key: ValidScalar) -> Bool { validScalars.contains(key) }

    func rememberValid(_ key: ValidScalar) { validScalars.insert(key) }
}
