import CompositionGraph
import JSONSchema
import TransitionKernels

extension ProjectDecoder {
    /// The keys a transition item or a `default_transition` holds besides its parameters.
    static let transitionKeys: Set<String> = ["transition", "kind", "duration", "ease"]
    /// Every kernel's parameter names: a key that is none of them is the schema's to report.
    static let kernelParameterNames = Set(TransitionCatalogue.all.flatMap { $0.declaration.parameters.map(\.name) })

    /// A transition's parameters: the keys of `c` that name a kernel's parameter, each checked
    /// against what the kind declares (its name, the type and range of its value), every
    /// parameter not written at its default; a picture parameter's media name is in `pictures`
    /// (the compiler finds the media), and must be written. A built-in kind takes none.
    mutating func transitionParameters(_ c: NodeCursor, kind: Transition.Kind) -> (values: [String: TransitionParameterValue], pictures: [String: String]) {
        let written = c.members.filter { !Self.transitionKeys.contains($0.key) && Self.kernelParameterNames.contains($0.key) }
        guard let kernel = kind.kernel else {
            for (key, value) in written {
                problems.report("the \(kind.rawValue) transition takes no parameters, not '\(key)'", at: value.origin,
                                hint: "parameters belong to the kinds of the gl-transitions collection (docs/format.md#transitions)")
            }
            return ([:], [:])
        }
        let declaration = kernel.declaration, names = declaration.parameters.map(\.name)
        var values: [String: TransitionParameterValue] = [:], pictures: [String: String] = [:]
        for (key, value) in written {
            guard let parameter = declaration.parameters.first(where: { $0.name == key }) else {
                problems.report("'\(key)' is not a parameter of the \(kind.rawValue) transition", at: value.origin,
                                hint: Suggestion.didYouMean(key, among: names)
                                    ?? (names.isEmpty ? "it takes none" : "it takes \(names.joined(separator: ", "))"))
                continue
            }
            if case .picture = parameter.defaultValue {
                if let name = value.string { pictures[key] = name } else {
                    problems.report("'\(key)' of the \(kind.rawValue) transition is a picture: the name of an image or SVG in media: (got \(value.scalarText ?? "a list or a map"))", at: value.origin)
                }
                continue
            }
            if let read = parameterValue(value, as: parameter, of: kind) { values[key] = read }
        }
        for parameter in declaration.parameters where values[parameter.name] == nil && !written.contains(where: { $0.key == parameter.name }) {
            guard case .picture = parameter.defaultValue else {
                values[parameter.name] = Self.graphValue(parameter.defaultValue)
                continue
            }
            problems.report("the \(kind.rawValue) transition needs '\(parameter.name)': \(parameter.summary)", at: c.origin,
                            hint: "add e.g. \(parameter.name): wipe, with wipe: wipe.png under media:")
        }
        return (values, pictures)
    }

    /// `c` read as `parameter` holds it; reported (and nil) when it does not.
    private mutating func parameterValue(_ c: NodeCursor, as parameter: TransitionParameter, of kind: Transition.Kind) -> TransitionParameterValue? {
        let place = "'\(parameter.name)' of the \(kind.rawValue) transition"
        func inRange(_ value: Double) -> Bool {
            guard let range = parameter.range, !range.contains(value) else { return true }
            problems.report("\(place) must be from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound)) (got \(c.scalarText ?? ""))",
                            at: c.origin)
            return false
        }
        switch parameter.defaultValue {
        case .number:
            if let value = c.double, value.isFinite { return inRange(value) ? .number(value) : nil }
            problems.report("\(place) is a number (got \(c.scalarText ?? "a list or a map"))", at: c.origin)
        case .integer:
            if let value = c.int { return inRange(Double(value)) ? .integer(value) : nil }
            problems.report("\(place) is a whole number (got \(c.scalarText ?? "a list or a map"))", at: c.origin)
        case .boolean:
            if let value = c.bool { return .boolean(value) }
            problems.report("\(place) is true or false (got \(c.scalarText ?? "a list or a map"))", at: c.origin)
        case .color:
            if c.string != nil { return color(c).map { .color($0) } }
            problems.report("\(place) is a colour (got \(c.scalarText ?? "a list or a map"))", at: c.origin,
                            hint: "write \"#rrggbb\", \"#rrggbbaa\" or a name such as white")
        case .picture:
            preconditionFailure("a picture parameter is read by transitionParameters")
        case .vector:
            let numbers = c.elements.compactMap(\.double)
            if c.elements.count == 2, numbers.count == 2, numbers.allSatisfy(\.isFinite) { return .vector(numbers[0], numbers[1]) }
            problems.report("\(place) is a pair of numbers, [x, y]", at: c.origin)
        }
        return nil
    }

    /// A declared default as the graph holds it.
    static func graphValue(_ value: TransitionValue) -> TransitionParameterValue {
        switch value {
        case .number(let v): .number(v)
        case .integer(let v): .integer(v)
        case .boolean(let v): .boolean(v)
        case .color(let c): .color(Color(red: c.x, green: c.y, blue: c.z, alpha: c.w))
        case .vector(let v): .vector(v.x, v.y)
        case .picture: preconditionFailure("a picture parameter has no default")
        }
    }

    private static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
