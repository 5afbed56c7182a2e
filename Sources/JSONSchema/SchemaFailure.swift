/// One way an instance fails its schema, worded for a person.
public struct SchemaFailure<Location: Hashable & Sendable>: Hashable, Sendable {
    /// Where the failing value is (for an unknown key: the key).
    public var location: Location
    /// The failing value's path in the instance, as `DocumentPath` builds it (`servers[0].ports[2]`;
    /// empty for the root).
    public var path: String
    /// What is wrong, starting with the path: `fps: expected a number, found string "x"`.
    public var message: String
    /// What to do about it: usually the failing schema's `description`.
    public var hint: String?
    /// The key, when the failure is a key that `additionalProperties` or
    /// `unevaluatedProperties: false` does not allow; the caller may know a better hint.
    public var unknownKey: String?
    /// For an unknown key, the allowed key it is closest to (its did-you-mean), if any.
    public var meantKey: String?
    /// The key, when the failure is a required key the object lacks.
    public var missingKey: String?

    public init(location: Location, path: String, message: String, hint: String? = nil, unknownKey: String? = nil, meantKey: String? = nil,
                missingKey: String? = nil) {
        self.location = location
        self.path = path
        self.message = message
        self.hint = hint
        self.unknownKey = unknownKey
        self.meantKey = meantKey
        self.missingKey = missingKey
    }
}

/// A schema that cannot be compiled: malformed keywords, `$ref`s that lead nowhere or loop
/// in place. Each problem is located in the schema's own tree.
public struct InvalidSchema<Location: Hashable & Sendable>: Error {
    public var problems: [SchemaFailure<Location>]
}
