/// Applies compiled schemas to a document (JSON Schema draft 2020-12 semantics) and words
/// each failure for a person: the path, what was expected, what was found, a likely fix.
///
/// One evaluator checks one instance (`run` holds the path and what is known valid). Where
/// only validity matters (an `if`, a `not`, `contains`, the first look at `anyOf`/`oneOf`
/// branches) failures are recorded without words; branches that decide the messages are
/// evaluated again with them.
struct SchemaEvaluator<Instance: JSONInstance> {
    typealias Location = Instance.Location
    typealias Compiled = CompiledSchema<Instance>
    typealias Outcome = SchemaOutcome<Location>
    typealias Failure = Outcome.Failure

    /// Resource base → `$dynamicAnchor` name → schema.
    let dynamicAnchors: [String: [String: Compiled]]
    let run: EvaluationRun

    /// `readsAnnotations`: whether any schema has `unevaluatedProperties` or `unevaluatedItems`
    /// (else which keys and items were evaluated is not recorded).
    init(dynamicAnchors: [String: [String: Compiled]], readsAnnotations: Bool) {
        self.dynamicAnchors = dynamicAnchors
        run = EvaluationRun(memoizes: dynamicAnchors.isEmpty, annotates: readsAnnotations)
    }

    /// The path of the value being checked.
    private var path: String { run.path }

    /// How the value being checked is named in a sentence.
    private var here: String { DocumentPath.display(run.path) }

    /// A failure of the value being checked (worded unless the run is quiet).
    private func failure(_ kind: Failure.Kind, depth: Int, at location: Location, _ message: () -> String, hint: String? = nil,
                         unknownKey: String? = nil, meantKey: String? = nil, missingKey: String? = nil) -> Failure {
        guard !run.isQuiet else { return Failure(kind: kind, depth: depth, failure: SchemaFailure(location: location, path: "", message: "")) }
        return Failure(kind: kind, depth: depth, failure: SchemaFailure(location: location, path: path, message: message(), hint: hint,
                                                                        unknownKey: unknownKey, meantKey: meantKey, missingKey: missingKey))
    }

    func evaluate(_ schema: Compiled, _ node: Instance, depth: Int, scope: [String]) -> Outcome {
        let memoKey = run.memoKey(schema, node)
        if let memoKey, run.isKnownValid(memoKey) { return Outcome() }
        var out = Outcome()
        func fail(_ kind: Failure.Kind, _ message: @autoclosure () -> String, at location: Location? = nil, hint: String? = nil) {
            out.failures.append(failure(kind, depth: depth, at: location ?? node.location, message, hint: hint))
        }
        if let boolean = schema.boolean {
            if !boolean { fail(.other, "\(here): \(node.excerpt) is not allowed here") }
            return out
        }
        let scope = scope.last == schema.base ? scope : scope + [schema.base]
        if let target = schema.refTarget {
            out.merge(evaluate(target, node, depth: depth, scope: scope))
        }
        if let target = schema.dynamicRefTarget {
            out.merge(evaluate(dynamicTarget(schema, target, scope: scope), node, depth: depth, scope: scope))
        }
        checkValue(schema, node, depth: depth, out: &out)
        switch node.value {
        case .object(let members): checkObject(schema, members, node, depth: depth, scope: scope, out: &out)
        case .array(let items): checkArray(schema, items, node, depth: depth, scope: scope, out: &out)
        default: break
        }
        applyCombinators(schema, node, depth: depth, scope: scope, out: &out)
        if schema.needsAnnotations { applyUnevaluated(schema, node, depth: depth, scope: scope, out: &out) }
        if let memoKey, out.isValid { run.rememberValid(memoKey) }
        return out
    }

    /// `evaluate` for a value one step down from the one being checked.
    private func evaluate(_ schema: Compiled, _ node: Instance, at step: PathStack.Component, depth: Int, scope: [String]) -> Outcome {
        run.inside(step) { evaluate(schema, node, depth: depth, scope: scope) }
    }

    /// `evaluate` when only validity (and annotations) matter.
    private func validity(_ schema: Compiled, _ node: Instance, depth: Int, scope: [String]) -> Outcome {
        run.quietly { evaluate(schema, node, depth: depth, scope: scope) }
    }

    /// `$dynamicRef`: when the statically resolved target declares the same dynamic anchor,
    /// the outermost resource in the dynamic scope that declares it wins.
    private func dynamicTarget(_ schema: Compiled, _ target: Compiled, scope: [String]) -> Compiled {
        guard let ref = schema.dynamicRef, let name = URIReference.splitFragment(ref).1,
              target.dynamicAnchor == name else { return target }
        for base in scope {
            if let outer = dynamicAnchors[base]?[name] { return outer }
        }
        return target
    }

    // MARK: Type, enum, const, numbers, strings

    private func checkValue(_ schema: Compiled, _ node: Instance, depth: Int, out: inout Outcome) {
        let hint = schema.description
        func fail(_ kind: Failure.Kind, _ message: @autoclosure () -> String, _ location: Location?, _ hint: String?) {
            out.failures.append(failure(kind, depth: depth, at: location ?? node.location, message, hint: hint))
        }
        if let types = schema.types {
            let actual = node.jsonType
            if !types.contains(actual) && !(actual == "integer" && types.contains("number")) {
                let expected = SchemaMessages.alternatives(types.map(SchemaMessages.typeName))
                let note = (types.contains("integer") && actual == "number") ? " (not a whole number)" : ""
                fail(.type, "\(here): expected \(expected), found \(SchemaMessages.found(node))\(note)", nil, hint)
            }
        }
        if let values = schema.enumValues, !values.contains(where: { $0.jsonEquals(node) }) {
            // A value of a type none of the allowed ones has is of the wrong type, whatever it holds.
            let kind: Failure.Kind = values.contains { $0.jsonFamily == node.jsonFamily } ? .const : .type
            let allowed = values.map(\.compactJSON)
            var message = "\(here): \(node.excerpt) is not one of the allowed values: \(allowed.joined(separator: ", "))"
            if case .string(let s) = node.value, let name = Suggestion.closest(to: s, among: values.compactMap(\.stringValue), aliases: schema.aliases) {
                message += "; did you mean '\(name)'?"
            }
            fail(kind, message, nil, hint)
        }
        if let constant = schema.constValue, !constant.jsonEquals(node) {
            fail(.const, "\(here): must be \(constant.compactJSON), found \(node.excerpt)", nil, hint)
        }
        if case .number(let text) = node.value, let number = DecimalNumber(text) {
            if let b = schema.minimum, number < b.number { fail(.other, "\(here): must be at least \(b.text), found \(text)", nil, hint) }
            if let b = schema.maximum, b.number < number { fail(.other, "\(here): must be at most \(b.text), found \(text)", nil, hint) }
            if let b = schema.exclusiveMinimum, !(b.number < number) { fail(.other, "\(here): must be greater than \(b.text), found \(text)", nil, hint) }
            if let b = schema.exclusiveMaximum, !(number < b.number) { fail(.other, "\(here): must be less than \(b.text), found \(text)", nil, hint) }
            if let b = schema.multipleOf, !b.number.isZero, !number.isMultiple(of: b.number) {
                fail(.other, "\(here): must be a multiple of \(b.text), found \(text)", nil, hint)
            }
        }
        if case .string(let string) = node.value {
            let length = string.unicodeScalars.count
            if let min = schema.minLength, length < min {
                fail(.other, min == 1 ? "\(here): must not be empty" : "\(here): must be at least \(min) characters long, found \(length)", nil, hint)
            }
            if let max = schema.maxLength, length > max { fail(.other, "\(here): must be at most \(max) characters long, found \(length)", nil, hint) }
            if let pattern = schema.pattern, !pattern.matches(string) {
                // A described pattern is explained by its description; a user never needs the regex.
                if let hint {
                    fail(.other, "\(here): \(node.excerpt) is not valid here", nil, SchemaMessages.expected(hint))
                } else {
                    fail(.other, "\(here): \(node.excerpt) does not match the pattern '\(pattern.source)'", nil, nil)
                }
            }
        }
    }

    // MARK: Objects

    private func checkObject(_ schema: Compiled, _ members: [Instance.Member], _ node: Instance, depth: Int,
                             scope: [String], out: inout Outcome) {
        func fail(_ kind: Failure.Kind, _ message: @autoclosure () -> String, at location: Location, hint: String? = nil, missing: String? = nil) {
            out.failures.append(failure(kind, depth: depth, at: location, message, hint: hint, missingKey: missing))
        }
        let keys = schema.required.isEmpty && schema.dependentRequired.isEmpty && schema.dependentSchemas.isEmpty ? [] : members.map { $0.key }
        for name in schema.required where !keys.contains(name) {
            fail(.required, "missing required key '\(name)' in \(here)", at: node.location, hint: schema.propertySchemas[name]?.description, missing: name)
        }
        if let min = schema.minProperties, members.count < min { fail(.other, "\(here): must have at least \(min) key(s), found \(members.count)", at: node.location) }
        if let max = schema.maxProperties, members.count > max { fail(.other, "\(here): must have at most \(max) key(s), found \(members.count)", at: node.location) }
        for (name, needed) in schema.dependentRequired where keys.contains(name) {
            for other in needed where !keys.contains(other) {
                fail(.required, "missing key '\(other)' in \(here), required when '\(name)' is present", at: node.location, missing: other)
            }
        }
        for (name, dependent) in schema.dependentSchemas where keys.contains(name) {
            out.merge(evaluate(dependent, node, depth: depth, scope: scope))
        }
        for member in members {
            let step = PathStack.Component.key(member.key)
            var matched = false
            if let property = schema.propertySchemas[member.key] {
                matched = true
                out.failures += evaluate(property, member.value, at: step, depth: depth + 1, scope: scope).failures
            }
            for (pattern, propertySchema) in schema.patternProperties where pattern.matches(member.key) {
                matched = true
                out.failures += evaluate(propertySchema, member.value, at: step, depth: depth + 1, scope: scope).failures
            }
            if matched {
                if run.annotates { out.evaluatedProperties.insert(member.key) }
            } else if let additional = schema.additionalProperties {
                if additional.boolean == false {
                    out.failures.append(unknownKey(member, allowed: { schema.properties.map(\.name) }, depth: depth))
                } else {
                    let result = evaluate(additional, member.value, at: step, depth: depth + 1, scope: scope)
                    out.failures += result.failures
                    if result.isValid && run.annotates { out.evaluatedProperties.insert(member.key) }
                }
            }
            if let names = schema.propertyNames {
                let keyNode = Instance(.string(member.key), at: member.keyLocation)
                for failure in evaluate(names, keyNode, at: step, depth: depth + 1, scope: scope).failures {
                    var named = failure.failure
                    if !run.isQuiet { named.message = "invalid key name '\(member.key)' in \(here): " + named.message }
                    out.failures.append(Failure(kind: failure.kind, depth: failure.depth, failure: named))
                }
            }
        }
    }

    /// A key of the value being checked that `additionalProperties` or `unevaluatedProperties:
    /// false` rules out, at the key: the closest allowed key as a suggestion, else the allowed
    /// keys as the hint.
    private func unknownKey(_ member: Instance.Member, allowed: () -> [String], depth: Int) -> Failure {
        guard !run.isQuiet else { return failure(.other, depth: depth, at: member.keyLocation, { "" }) }
        let allowed = allowed()
        let meant = Suggestion.closest(to: member.key, among: allowed)
        let hint = meant != nil ? nil
            : allowed.isEmpty ? "no keys are allowed here" : "allowed keys: " + allowed.sorted().joined(separator: ", ")
        return failure(.other, depth: depth, at: member.keyLocation,
                       { "unknown key '\(member.key)' in \(here)" + (meant.map { "; did you mean '\($0)'?" } ?? "") }, hint: hint,
                       unknownKey: member.key, meantKey: meant)
    }

    // MARK: Arrays

    private func checkArray(_ schema: Compiled, _ items: [Instance], _ node: Instance, depth: Int,
                            scope: [String], out: inout Outcome) {
        func fail(_ message: @autoclosure () -> String, at location: Location? = nil, hint: String? = nil) {
            out.failures.append(failure(.other, depth: depth, at: location ?? node.location, message, hint: hint))
        }
        if let min = schema.minItems, items.count < min {
            fail("\(here): must have at least \(min) item\(min == 1 ? "" : "s"), found \(items.count)", hint: schema.description)
        }
        if let max = schema.maxItems, items.count > max {
            fail("\(here): must have at most \(max) item\(max == 1 ? "" : "s"), found \(items.count)", hint: schema.description)
        }
        if schema.uniqueItems {
            outer: for j in items.indices {
                for i in 0..<j where items[i].jsonEquals(items[j]) {
                    fail("\(here): items \(i) and \(j) are equal; the items must be unique", at: items[j].location)
                    break outer
                }
            }
        }
        for (index, (item, itemSchema)) in zip(items, schema.prefixItems).enumerated() {
            out.failures += evaluate(itemSchema, item, at: .index(index), depth: depth + 1, scope: scope).failures
        }
        out.evaluatedPrefix = max(out.evaluatedPrefix, min(items.count, schema.prefixItems.count))
        if let itemsSchema = schema.items {
            let start = schema.prefixItems.count
            if itemsSchema.boolean == false, items.count > start {
                fail("\(here): must have at most \(start) item\(start == 1 ? "" : "s"), found \(items.count)", at: items[start].location)
            } else {
                for index in items.indices.dropFirst(start) {
                    out.failures += evaluate(itemsSchema, items[index], at: .index(index), depth: depth + 1, scope: scope).failures
                }
            }
            out.evaluatedPrefix = items.count
        }
        if let contains = schema.contains {
            var matches = 0
            for (index, item) in items.enumerated()
            where run.inside(.index(index), { validity(contains, item, depth: depth + 1, scope: scope) }).isValid {
                matches += 1
                if run.annotates { out.evaluatedIndices.insert(index) }
            }
            let minimum = schema.minContains ?? 1
            let what = contains.description.map { " (\($0))" } ?? ""
            if matches < minimum {
                fail("\(here): must contain at least \(minimum) matching item\(minimum == 1 ? "" : "s")\(what), found \(matches)")
            }
            if let maximum = schema.maxContains, matches > maximum {
                fail("\(here): must contain at most \(maximum) matching item\(maximum == 1 ? "" : "s")\(what), found \(matches)")
            }
        }
    }

    // MARK: allOf, anyOf, oneOf, not, if/then/else

    private func applyCombinators(_ schema: Compiled, _ node: Instance, depth: Int,
                                  scope: [String], out: inout Outcome) {
        for sub in schema.allOf { out.merge(evaluate(sub, node, depth: depth, scope: scope)) }
        if !schema.anyOf.isEmpty {
            let results = schema.anyOf.map { validity($0, node, depth: depth, scope: scope) }
            let passing = results.filter { $0.isValid }
            if passing.isEmpty {
                out.failures += noAlternative(schema, schema.anyOf, node, depth: depth, scope: scope)
            } else {
                passing.forEach { out.mergeAnnotations($0) }
            }
        }
        if !schema.oneOf.isEmpty {
            let results = schema.oneOf.map { validity($0, node, depth: depth, scope: scope) }
            let passing = results.indices.filter { results[$0].isValid }
            if passing.isEmpty {
                out.failures += noAlternative(schema, schema.oneOf, node, depth: depth, scope: scope)
            } else if passing.count > 1 {
                let names = passing.map { describeBranch(schema.oneOf[$0], index: $0) }
                out.failures.append(failure(.other, depth: depth, at: node.location, {
                    "\(here): matches more than one of the alternatives (\(SchemaMessages.alternatives(names, conjunction: "and"))) where exactly one must match" }))
            } else {
                out.mergeAnnotations(results[passing[0]])
            }
        }
        if let not = schema.not, validity(not, node, depth: depth, scope: scope).isValid {
            out.failures.append(failure(.other, depth: depth, at: node.location, { "\(here): \(node.excerpt) is not allowed here" },
                                        hint: not.description ?? schema.description))
        }
        if let condition = schema.ifSchema {
            let test = validity(condition, node, depth: depth, scope: scope)
            if test.isValid {
                out.mergeAnnotations(test)
                if let then = schema.thenSchema { out.merge(evaluate(then, node, depth: depth, scope: scope)) }
            } else if let otherwise = schema.elseSchema {
                out.merge(evaluate(otherwise, node, depth: depth, scope: scope))
            }
        }
    }

    /// The failures of a value that fits none of `branches` (of an `anyOf` or `oneOf`): the
    /// branches evaluated again with their failures worded, to choose what to say.
    private func noAlternative(_ schema: Compiled, _ branches: [Compiled], _ node: Instance, depth: Int, scope: [String]) -> [Failure] {
        guard !run.isQuiet else { return [failure(.other, depth: depth, at: node.location, { "" })] }
        if let named = namedForm(branches, node, depth: depth) { return [named] }
        let results = branches.map { evaluate($0, node, depth: depth, scope: scope) }
        return describedFailure(schema, branches, node, results, depth: depth) ?? closestFailures(results, branches, node, depth: depth)
    }

    /// A string that names a value of an alternative's one required key, written bare where
    /// no alternative takes a name (`position: bottomRight`, where `position: { from:
    /// bottom-right }` is meant): one message that shows the mapping to write.
    private func namedForm(_ branches: [Compiled], _ node: Instance, depth: Int) -> Failure? {
        guard case .string(let written) = node.value else { return nil }
        let resolved = branches.map { $0.refTarget ?? $0 }
        guard Self.names(in: resolved.filter { $0.types != ["object"] }).isEmpty else { return nil }
        for branch in resolved where branch.types == ["object"] && branch.required.count == 1 {
            let key = branch.required[0]
            guard let value = branch.propertySchemas[key] else { continue }
            let names = Self.names(in: [value]), aliases = Self.aliases(in: [value])
            let spelling = Suggestion.spelling(written)
            guard let name = names.first(where: { Suggestion.spelling($0) == spelling }) ?? aliases[spelling] else { continue }
            return Failure(kind: .other, depth: depth, failure: SchemaFailure(location: node.location, path: path,
                message: "\(here): \(node.excerpt) alone is not valid here; write { \(key): \(name) }",
                hint: branch.description))
        }
        return nil
    }

    /// For a scalar that fits none of the alternatives of a described schema (a time, a colour),
    /// one message with the description says more than the errors of any one alternative;
    /// but a number that only one alternative takes by type gets that alternative's own
    /// message ("must be at most 16384, found 100000"), with the description as its hint. A
    /// string near a name that an alternative lists (`crosfade`) gets a did-you-mean.
    private func describedFailure(_ schema: Compiled, _ branches: [Compiled], _ node: Instance, _ results: [Outcome], depth: Int) -> [Failure]? {
        guard let description = schema.description else { return nil }
        switch node.value {
        case .array, .object: return nil
        case .number:
            let typed = results.filter { !$0.failures.contains { $0.kind == .type && $0.depth == depth } }
            if typed.count == 1 {
                return typed[0].failures.map { failure in
                    var described = failure.failure
                    described.hint = described.hint ?? SchemaMessages.expected(description)
                    return Failure(kind: failure.kind, depth: failure.depth, failure: described)
                }
            }
            fallthrough
        default:
            var message = "\(here): \(node.excerpt) is not valid here"
            if case .string(let s) = node.value, let name = Suggestion.closest(to: s, among: Self.names(in: branches), aliases: Self.aliases(in: branches)) {
                message += "; did you mean '\(name)'?"
            }
            return [Failure(kind: .other, depth: depth, failure: SchemaFailure(location: node.location, path: path,
                message: message, hint: SchemaMessages.expected(description)))]
        }
    }

    /// The `x-aliases` of `branches`, and of their own `anyOf`s' and `$ref`s' (a few levels
    /// down: a recursive schema has no end).
    private static func aliases(in branches: [Compiled], depth: Int = 4) -> [String: String] {
        guard depth > 0 else { return [:] }
        return branches.reduce(into: [:]) { all, branch in
            all.merge(branch.aliases.merging(aliases(in: branch.anyOf + [branch.refTarget].compactMap { $0 }, depth: depth - 1)) { a, _ in a }) { a, _ in a }
        }
    }

    /// The strings the `enum`s of `branches` list, and of their own `anyOf`s' and `$ref`s' (a
    /// few levels down).
    private static func names(in branches: [Compiled], depth: Int = 4) -> [String] {
        guard depth > 0 else { return [] }
        return branches.flatMap { ($0.enumValues ?? []).compactMap(\.stringValue) + names(in: $0.anyOf + [$0.refTarget].compactMap { $0 }, depth: depth - 1) }
    }

    private func describeBranch(_ schema: Compiled, index: Int) -> String {
        schema.title ?? "alternative \(index + 1)"
    }

    /// A string where every alternative but the titled string forms (a `{{ var }}` placeholder)
    /// wants another type: one message naming the types first, with their bounds, and the
    /// titled forms last, so `volume: loud` hears that a number is wanted, not only a var.
    private func typedOrTitledForm(_ results: [Outcome], _ branches: [Compiled], _ node: Instance, depth: Int) -> [Failure]? {
        guard case .string = node.value else { return nil }
        var typed: [String] = [], examples: [String] = [], titled: [String] = []
        for (result, branch) in zip(results, branches) {
            let schema = branch.refTarget ?? branch
            if result.failures.count == 1, result.failures[0].kind == .type, result.failures[0].depth == depth, let types = schema.types {
                typed += types.map { Self.typeName($0, within: schema) }
                examples += types.compactMap { Self.example(of: $0, within: schema) }
            } else if schema.types == ["string"], let title = schema.title {
                titled.append(title)
            } else {
                return nil
            }
        }
        guard !typed.isEmpty, !titled.isEmpty else { return nil }
        let message = "\(here): expected \(SchemaMessages.alternatives(typed + titled)), found \(SchemaMessages.found(node))"
        // The key the value sits at, for the example; none for a list's element (`size[0]`).
        let key = run.path.split(separator: ".").last.map(String.init).flatMap { $0.contains("[") ? nil : $0 }
        let hint = examples.first.map { "for example \(key.map { "\($0): " } ?? "")\($0)" }
        return [Failure(kind: .other, depth: depth, failure: SchemaFailure(location: node.location, path: path, message: message, hint: hint))]
    }

    /// A value of `type` within `schema`'s bounds, for a hint: the middle of a range, else its
    /// bound, else 1; nil for types without a short example.
    private static func example(of type: String, within schema: Compiled) -> String? {
        switch type {
        case "boolean": return "true"
        case "number", "integer":
            let low = (schema.minimum ?? schema.exclusiveMinimum).flatMap { Double($0.text) }
            let high = (schema.maximum ?? schema.exclusiveMaximum).flatMap { Double($0.text) }
            var value: Double
            switch (low, high) {
            case (let l?, let h?): value = (l + h) / 2
            case (let l?, nil): value = l + 1
            case (nil, let h?): value = h - 1
            case (nil, nil): value = 1
            }
            if type == "integer" { value = value.rounded(.down) }
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        default: return nil
        }
    }

    /// A type's name with the bounds `schema` sets on it: "a number from 0 to 1", "a whole
    /// number of at least 1".
    private static func typeName(_ type: String, within schema: Compiled) -> String {
        let name = SchemaMessages.typeName(type)
        guard type == "number" || type == "integer" else { return name }
        switch (schema.minimum ?? schema.exclusiveMinimum, schema.maximum ?? schema.exclusiveMaximum) {
        case (let low?, let high?): return "\(name) from \(low.text) to \(high.text)"
        case (let low?, nil): return schema.minimum != nil ? "\(name) of at least \(low.text)" : "\(name) above \(low.text)"
        case (nil, let high?): return schema.maximum != nil ? "\(name) of at most \(high.text)" : "\(name) below \(high.text)"
        case (nil, nil): return name
        }
    }

    /// The failures worth showing when no alternative matched: when every alternative wants a
    /// different type, one "expected a or b" message; otherwise the errors of the closest
    /// alternative, the one whose discriminators (type, const, required keys) match best,
    /// then with the fewest errors. A value of the wrong type is the worst mismatch (a mapping
    /// against a list of names); a member's wrong type or value counts as one.
    private func closestFailures(_ results: [Outcome], _ branches: [Compiled], _ node: Instance, depth: Int) -> [Failure] {
        func mismatches(_ outcome: Outcome) -> Int {
            outcome.failures.reduce(0) { total, failure in
                switch (failure.kind, failure.depth - depth) {
                case (.type, 0): total + 2
                case (.required, 0), (.const, 0), (.type, 1), (.const, 1): total + 1
                default: total
                }
            }
        }
        if let typed = typedOrTitledForm(results, branches, node, depth: depth) { return typed }
        let onlyTypeFailures = results.allSatisfy { $0.failures.count == 1 && $0.failures[0].kind == .type && $0.failures[0].depth == depth }
        if onlyTypeFailures {
            let types = branches.flatMap { $0.types ?? [] }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            if !types.isEmpty {
                return [Failure(kind: .type, depth: depth, failure: SchemaFailure(location: node.location, path: results[0].failures[0].failure.path,
                    message: "\(here): expected \(SchemaMessages.alternatives(types.map(SchemaMessages.typeName))), found \(SchemaMessages.found(node))"))]
            }
        }
        let best = results.indices.min { a, b in
            (mismatches(results[a]), results[a].failures.count) < (mismatches(results[b]), results[b].failures.count)
        }!
        return results[best].failures
    }

    // MARK: unevaluatedProperties, unevaluatedItems

    private func applyUnevaluated(_ schema: Compiled, _ node: Instance, depth: Int,
                                  scope: [String], out: inout Outcome) {
        if let unevaluated = schema.unevaluatedProperties, case .object(let members) = node.value {
            for member in members where !out.evaluatedProperties.contains(member.key) {
                if unevaluated.boolean == false {
                    let evaluated = out.evaluatedProperties
                    out.failures.append(unknownKey(member, allowed: { Array(evaluated) + schema.properties.map(\.name) }, depth: depth))
                    continue
                }
                let result = evaluate(unevaluated, member.value, at: .key(member.key), depth: depth + 1, scope: scope)
                out.failures += result.failures
                if result.isValid { out.evaluatedProperties.insert(member.key) }
            }
        }
        if let unevaluated = schema.unevaluatedItems, case .array(let items) = node.value {
            for index in items.indices where index >= out.evaluatedPrefix && !out.evaluatedIndices.contains(index) {
                if unevaluated.boolean == false {
                    let allowed = out.evaluatedPrefix
                    out.failures.append(failure(.other, depth: depth, at: items[index].location, {
                        "\(here): item \(index) is not allowed (the list allows \(allowed) item\(allowed == 1 ? "" : "s") here)" }))
                    continue
                }
                let result = evaluate(unevaluated, items[index], at: .index(index), depth: depth + 1, scope: scope)
                out.failures += result.failures
                if result.isValid { out.evaluatedIndices.insert(index) }
            }
        }
    }
}
