/// A look a layer's picture can take before it is composited, described once: its `type:` in
/// the project format and its parameters. Reading `filters:`, compiling them into the graph,
/// slicing them to an instruction, `reel graph`'s listing and the graph's JSON work from these
/// descriptions, the same way for every look; its pixels are its `LookKernel` (module
/// LookKernels), which the render takes.
public struct Look: Sendable {
    /// The project format's `type:` (`chroma_key`).
    public let name: String
    /// What it does in a few words, for the schema's list of types: `a colour made transparent`.
    public let summary: String
    /// What it does to the picture, exactly, for docs/format.md's table of filters (Markdown).
    public let documentation: String
    /// In the order they are read, listed and written.
    public let parameters: [LookParameter]
    /// The look makes the picture partly transparent (its layer takes the general path, its
    /// picture fetched as R′G′B′A).
    public let makesAlpha: Bool
    /// The graph JSON's key for the look, and whether its parameters sit under `"_0"`: the form
    /// Swift gave the enum cases these descriptions replaced, kept so that segment keys and
    /// `reel graph --json` stay as they were. A new look keeps the defaults (its name, flat).
    public let graphKey: String
    public let nestsParameters: Bool

    init(name: String, summary: String, documentation: String, parameters: [LookParameter], makesAlpha: Bool = false, graphKey: String? = nil,
         nestsParameters: Bool = false) {
        self.name = name
        self.summary = summary
        self.documentation = documentation
        self.parameters = parameters
        self.makesAlpha = makesAlpha
        self.graphKey = graphKey ?? name
        self.nestsParameters = nestsParameters
    }

    /// Every look, in the schema's order: a new look is added here (see README.md).
    public static let all: [Look] = [.blur, .color, .lut, .chromaKey]

    /// The look whose `type:` is `name`.
    public static func named(_ name: String) -> Look? { all.first { $0.name == name } }
}

/// A look is known by its name.
extension Look: Hashable {
    public static func == (a: Look, b: Look) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// One parameter of a look: its key in the project format (and in the graph's JSON), what it
/// holds, how `reel graph` shows it, and how the schema and docs/format.md describe it.
public struct LookParameter: Sendable {
    public let name: String
    public let kind: Kind
    public let listing: Listing
    /// The schema's description of the key (an editor shows it; an error's hint may).
    public let summary: String
    /// The key must be written (the schema's `required`): a colour, a LUT, a blur's radius.
    public let required: Bool
    /// What docs/format.md adds after the key beside a colour, or after a number's range: `the key`, `K`.
    public let note: String?

    public enum Kind: Sendable {
        /// An animatable number, `default` where it is not written. `bounds` say what the schema
        /// cannot (the range of a signed number): each value out of them is reported where it
        /// is written.
        case number(default: Double, bounds: Bounds?)
        /// A colour; required.
        case color
        /// A `.cube` 3D LUT file, relative to the project; required. Compiling reads it (and
        /// reports a problem where it is named); segment keys name it by its bytes.
        case lut
    }

    public struct Bounds: Sendable {
        public let range: ClosedRange<Double>
        /// The error's text before `; got …`.
        public let rule: String
    }

    public enum Listing: Sendable {
        /// The value alone: `blur 12`, `lut teal.cube`, `chroma_key #00ff00`.
        case value
        /// Name and value: `similarity 0.4`.
        case named
        /// Name and value, left out when the number is its default throughout: `contrast 1.2`.
        case namedUnlessDefault
    }

    /// A colour or a LUT file: required.
    init(_ name: String, _ kind: Kind, listed listing: Listing, summary: String, note: String? = nil) {
        self.init(name, kind, listed: listing, summary: summary, required: true, note: note)
    }

    private init(_ name: String, _ kind: Kind, listed listing: Listing, summary: String, required: Bool, note: String?) {
        self.name = name
        self.kind = kind
        self.listing = listing
        self.summary = summary
        self.required = required
        self.note = note
    }

    /// A number checked against `range`, with `rule` in the error.
    static func number(_ name: String, default value: Double, _ range: ClosedRange<Double>, _ rule: String, unit: String? = nil, required: Bool = false,
                       listed listing: Listing, summary: String) -> LookParameter {
        LookParameter(name, .number(default: value, bounds: Bounds(range: range, rule: rule)), listed: listing, summary: summary, required: required, note: unit)
    }

    /// A number from 0 to 1, which the schema checks in full.
    static func number(_ name: String, default value: Double, listed listing: Listing, summary: String) -> LookParameter {
        LookParameter(name, .number(default: value, bounds: nil), listed: listing, summary: summary, required: false, note: nil)
    }

    /// The numbers the schema checks itself, by the `$defs` a number refers to: without bounds
    /// from 0 to 1 (`unit`), with a range from 0 at least 0 (`nonneg`), else any number (`number`);
    /// the compiler checks the range where it is written.
    public var schemaNumber: String? {
        guard case .number(_, let bounds) = kind else { return nil }
        guard let bounds else { return "unit" }
        return bounds.range.lowerBound == 0 ? "nonneg" : "number"
    }

    /// The range a number takes: its bounds, else 0 to 1.
    public var range: ClosedRange<Double>? {
        guard case .number(_, let bounds) = kind else { return nil }
        return bounds?.range ?? 0...1
    }
}

/// A look parameter's value, one case per `LookParameter.Kind`, at each stage: as written
/// (ProjectCompiler's `FilterSpec`: numbers animated in project times, a file with where it
/// is named), in the graph (`LayerFilter`: ramps, absolute paths) and at one instant
/// (LookKernels' `LookSettings`: numbers, Y′CbCr, a prepared LUT).
public enum LookValue<Number, Color, LUT> {
    case number(Number)
    case color(Color)
    case lut(LUT)
}

extension LookValue: Sendable where Number: Sendable, Color: Sendable, LUT: Sendable {}
extension LookValue: Equatable where Number: Equatable, Color: Equatable, LUT: Equatable {}
extension LookValue: Hashable where Number: Hashable, Color: Hashable, LUT: Hashable {}
