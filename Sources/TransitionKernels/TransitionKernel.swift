/// A transition that mixes the outgoing and the incoming picture pixel by pixel, as the
/// gl-transitions collection describes them: each output pixel's colour is a function of its
/// position, the progress, the frame's aspect ratio and the two pictures, which it may read
/// anywhere. The maths of each is Reel's own, in `Float` with `PortableMath` for what libm would
/// round differently by CPU, so every machine gets the same bytes.
///
/// Coordinates are gl-transitions' `uv`: (0, 0) the bottom-left corner of the frame, (1, 1)
/// the top-right one, a pixel's colour taken at its centre. Colours are premultiplied R′G′B′A
/// in 0…1.
public protocol TransitionKernel: Sendable {
    /// Its name, parameters and what it shows: the schema and docs/format.md are made from it.
    static var declaration: TransitionDeclaration { get }
    /// The kernel with `values`, which hold every declared parameter (defaults filled in).
    init(_ values: TransitionValues)
    /// The colour at `uv` at `progress` (0 → 1) on a frame `ratio` = width / height wide.
    func color(at uv: SIMD2<Float>, progress: Float, ratio: Float, from: TransitionPicture, to: TransitionPicture) -> SIMD4<Float>
    /// Writes rows `rows` of `output` (`TransitionRenderer.render`). Each kind takes the one
    /// implementation there; being a requirement, it is compiled for each kind, its `color`
    /// called directly for every pixel instead of through the protocol.
    func renderRows(progress: Float, from: TransitionPicture, to: TransitionPicture, into output: TransitionPicture, rows: Range<Int>)
    /// Writes the whole of `output`, running its passes over rows through `bands` (which may
    /// run them on several threads at once). Most kinds take the one pass of `renderRows`; a
    /// kind that blurs first works out per-frame pictures (in `workspace`'s scratch pictures,
    /// which it asks for before its passes) and then reads them. Each pixel of each pass is
    /// computed alone, so the bands change nothing of the result.
    func render(progress: Float, from: TransitionPicture, to: TransitionPicture, into output: TransitionPicture,
                workspace: TransitionWorkspace, bands: TransitionBands)
}

/// Runs `body` over bands of rows that together cover every row of the frame once each, and
/// returns when all are done; the bands may run at the same time on several threads.
public typealias TransitionBands = (_ body: @Sendable (Range<Int>) -> Void) -> Void

/// Scratch pictures a kernel's passes write and read, kept from frame to frame so a render
/// does not allocate and clear 33 MB per 1080p picture per frame. Their contents at the start
/// of a frame are whatever the last frame left. Not thread-safe: a kernel asks for its pictures
/// before it starts its passes.
public final class TransitionWorkspace: @unchecked Sendable {
    private var pictures: [TransitionPicture] = []

    public init() {}

    /// Scratch picture number `index` (0, 1, …), `width`×`height`.
    public func picture(_ index: Int, width: Int, height: Int) -> TransitionPicture {
        while pictures.count <= index { pictures.append(TransitionPicture(width: width, height: height)) }
        if pictures[index].width != width || pictures[index].height != height {
            pictures[index] = TransitionPicture(width: width, height: height)
        }
        return pictures[index]
    }
}

/// What a transition is called and takes.
public struct TransitionDeclaration: Sendable {
    /// The project format's `kind:`, gl-transitions' name in kebab case (`circle-open`).
    public let name: String
    /// The name in the gl-transitions collection (`circleopen`), for docs and did-you-mean.
    public let glName: String
    /// What it shows, one or two sentences of Markdown, for docs/format.md.
    public let summary: String
    /// In the order they are documented.
    public let parameters: [TransitionParameter]

    public init(name: String, glName: String, summary: String, parameters: [TransitionParameter] = []) {
        self.name = name
        self.glName = glName
        self.summary = summary
        self.parameters = parameters
    }
}

/// One parameter of a transition: its key in the project (gl-transitions' uniform in snake
/// case: `fadeEdge` is `fade_edge`), what it holds and its default.
public struct TransitionParameter: Sendable {
    public let name: String
    public let summary: String
    public let defaultValue: TransitionValue
    /// For a number: the values it may take (the schema's minimum and maximum).
    public let range: ClosedRange<Double>?

    public init(_ name: String, _ defaultValue: TransitionValue, range: ClosedRange<Double>? = nil, _ summary: String) {
        self.name = name
        self.summary = summary
        self.defaultValue = defaultValue
        self.range = range
    }
}

/// A parameter's value.
public enum TransitionValue: Sendable, Hashable {
    case number(Double)
    case integer(Int)
    case boolean(Bool)
    /// Straight (not premultiplied) R′G′B′A in 0…1.
    case color(SIMD4<Double>)
    case vector(SIMD2<Double>)
    /// A picture stretched over the frame (gl-transitions' `sampler2D` parameters: `luma`'s
    /// `luminanceMap`); declared as `.picture(nil)`: a project must name one.
    case picture(TransitionPicture?)
}

extension TransitionValue {
    /// A picture parameter (which has no default: a project names its media).
    public var isPicture: Bool {
        if case .picture = self { return true }
        return false
    }
}

/// The values of a transition's parameters, by name.
public struct TransitionValues: Sendable, Hashable {
    public var values: [String: TransitionValue]

    public init(_ values: [String: TransitionValue] = [:]) { self.values = values }

    /// `values` with every parameter of `declaration` it lacks at its default.
    public init(_ values: [String: TransitionValue], filling declaration: TransitionDeclaration) {
        self.values = values
        for parameter in declaration.parameters where values[parameter.name] == nil { self.values[parameter.name] = parameter.defaultValue }
    }

    public func number(_ name: String) -> Float {
        switch values[name] {
        case .number(let value)?: Float(value)
        case .integer(let value)?: Float(value)
        default: preconditionFailure("transition parameter '\(name)' is not a number: the compiler checks this")
        }
    }

    public func integer(_ name: String) -> Int {
        guard case .integer(let value)? = values[name] else { preconditionFailure("transition parameter '\(name)' is not an integer") }
        return value
    }

    public func boolean(_ name: String) -> Bool {
        guard case .boolean(let value)? = values[name] else { preconditionFailure("transition parameter '\(name)' is not a boolean") }
        return value
    }

    /// Premultiplied, as the pictures are.
    public func color(_ name: String) -> SIMD4<Float> {
        guard case .color(let c)? = values[name] else { preconditionFailure("transition parameter '\(name)' is not a colour") }
        return SIMD4(Float(c.x * c.w), Float(c.y * c.w), Float(c.z * c.w), Float(c.w))
    }

    /// A picture parameter's picture, at the frame's size.
    public func picture(_ name: String) -> TransitionPicture {
        guard case .picture(let picture?)? = values[name] else { preconditionFailure("transition parameter '\(name)' is not a picture") }
        return picture
    }

    public func vector(_ name: String) -> SIMD2<Float> {
        guard case .vector(let v)? = values[name] else { preconditionFailure("transition parameter '\(name)' is not a vector") }
        return SIMD2(Float(v.x), Float(v.y))
    }
}
