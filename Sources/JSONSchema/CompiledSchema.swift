import Foundation

/// One schema object (or boolean schema) with its keywords parsed. Built and linked by
/// `SchemaRegistry`, never changed afterwards.
///
/// @unchecked: its properties are set while `SchemaRegistry` builds and links it, before it is shared, never after.
final class CompiledSchema<Instance: JSONInstance>: @unchecked Sendable {
    struct Bound {
        let number: DecimalNumber
        let text: String
    }

    struct Pattern {
        let regex: NSRegularExpression
        let source: String
        func matches(_ string: String) -> Bool {
            regex.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil
        }
    }

    /// Where this schema is: its base URI (for `$dynamicRef` scope) and source location.
    let base: String
    let location: Instance.Location
    var boolean: Bool?
    var title: String?
    var description: String?

    var types: [String]?
    var enumValues: [Instance]?
    /// `x-aliases`: other tools' names for the values of `enum`, by `Suggestion.spelling`, and
    /// the value each means (for did-you-mean only; validation ignores them).
    var aliases: [String: String] = [:]
    var constValue: Instance?

    var minimum: Bound?, maximum: Bound?, exclusiveMinimum: Bound?, exclusiveMaximum: Bound?, multipleOf: Bound?
    var minLength: Int?, maxLength: Int?
    var pattern: Pattern?

    var properties: [(name: String, schema: CompiledSchema)] = []
    /// `properties` by name, for looking up each key of an object.
    var propertySchemas: [String: CompiledSchema] = [:]
    var patternProperties: [(pattern: Pattern, schema: CompiledSchema)] = []
    var additionalProperties: CompiledSchema?
    var propertyNames: CompiledSchema?
    var required: [String] = []
    var minProperties: Int?, maxProperties: Int?
    var dependentRequired: [(name: String, required: [String])] = []
    var dependentSchemas: [(name: String, schema: CompiledSchema)] = []
    var unevaluatedProperties: CompiledSchema?

    var prefixItems: [CompiledSchema] = []
    var items: CompiledSchema?
    var contains: CompiledSchema?
    var minContains: Int?, maxContains: Int?
    var minItems: Int?, maxItems: Int?
    var uniqueItems = false
    var unevaluatedItems: CompiledSchema?

    var allOf: [CompiledSchema] = []
    var anyOf: [CompiledSchema] = []
    var oneOf: [CompiledSchema] = []
    var not: CompiledSchema?
    var ifSchema: CompiledSchema?, thenSchema: CompiledSchema?, elseSchema: CompiledSchema?

    /// `$ref` / `$dynamicRef` as absolute URIs, and their targets once linked.
    var ref: String?
    var refTarget: CompiledSchema?
    var dynamicRef: String?
    var dynamicRefTarget: CompiledSchema?
    /// The name of this schema's `$dynamicAnchor`, if any.
    var dynamicAnchor: String?

    init(base: String, location: Instance.Location) {
        self.base = base
        self.location = location
    }

    /// Whether evaluation needs annotations (only `unevaluated*` consume them).
    var needsAnnotations: Bool { unevaluatedProperties != nil || unevaluatedItems != nil }
}
