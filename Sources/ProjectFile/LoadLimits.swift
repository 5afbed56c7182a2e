/// Bounds that keep hostile files (alias bombs, huge or deeply nested documents) cheap to reject.
public struct LoadLimits: Sendable {
    /// Largest file read, in bytes.
    public var maxFileBytes: Int
    /// Deepest nesting of lists and mappings.
    public var maxDepth: Int
    /// Most nodes in the tree once YAML aliases are expanded.
    public var maxNodes: Int
    /// JSON may hold `NaN`, `Infinity`, `-Infinity` and `Inf` as numbers (OpenTimelineIO writes
    /// them in metadata); they load as numbers with that text.
    public var acceptsNonFiniteNumbers: Bool
    /// The settings that change `maxFileBytes` and `maxNodes`, named in the messages that
    /// refuse a file (nil: the caller's fixed limits).
    public var sizeSetting: String?
    public var valuesSetting: String?

    /// The defaults hold a generated project of 100 000 clips (4.6 MB of YAML, 5.3 MB of JSON;
    /// the YAML's pre-scan counts about 770 000 node starts, keys included), and keep the
    /// largest file validating in about a GiB (docs/render.md, "Big projects").
    public init(maxFileBytes: Int = 6 << 20, maxDepth: Int = 64, maxNodes: Int = 1_000_000, acceptsNonFiniteNumbers: Bool = false) {
        self.maxFileBytes = maxFileBytes
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
        self.acceptsNonFiniteNumbers = acceptsNonFiniteNumbers
    }

    /// The limits for project files: the defaults, or `REEL_PROJECT_MAX` (bytes, with an
    /// optional K, M or G: `64M`) and `REEL_PROJECT_MAX_VALUES` (a count) from the environment.
    /// A malformed value is a usage error naming the variable.
    public static func projectFiles(environment: [String: String]) throws(ProjectError) -> LoadLimits {
        var limits = LoadLimits()
        limits.sizeSetting = "REEL_PROJECT_MAX"
        limits.valuesSetting = "REEL_PROJECT_MAX_VALUES"
        func setting(_ name: String, _ rule: String) throws(ProjectError) -> Int? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = ByteCount.parse(text).flatMap({ Int(exactly: $0) }), value > 0 else {
                throw ProjectError(.usage, Diagnostic(location: .commandLine(name), path: "", message: "\(name) must be \(rule), not '\(text)'"))
            }
            return value
        }
        if let bytes = try setting("REEL_PROJECT_MAX", "a number of bytes like 8M or 64M") { limits.maxFileBytes = bytes }
        if let values = try setting("REEL_PROJECT_MAX_VALUES", "a number of values like 1000000") { limits.maxNodes = values }
        return limits
    }

    /// " (REEL_PROJECT_MAX sets it)" for the refusal of a file by its size.
    var sizeSettingNote: String { sizeSetting.map { " (\($0) sets it)" } ?? "" }
    /// " (REEL_PROJECT_MAX_VALUES sets it)" for the refusal of a file by its count of values.
    var valuesSettingNote: String { valuesSetting.map { " (\($0) sets it)" } ?? "" }
}

/// Sizes as settings write them: `1048576`, `500K`, `500M`, `2G`.
public enum ByteCount {
    public static func parse(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        let unit = text.last.flatMap { units[Character($0.uppercased())] }
        guard let number = Int64(unit == nil ? text : String(text.dropLast())), number >= 0 else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: unit ?? 1)
        return overflow ? nil : bytes
    }
}
