import Foundation
import JSONSchema

/// A filter in a var reference, `{{ price | number: 2 }}` or `{{ name | slug }}`: it turns the
/// var's value into the text written in its place. Two, kept small on purpose:
///
/// - `number` (`number: D`): the value as a number, rounded half away from zero to D decimals
///   (0…9; without D its own decimals), grouped in thousands and with the decimal mark of the
///   project's `locale` (none and `.` without one): `1299.5 | number: 2` → `1299.50`, in
///   `de-DE` `1.299,50`.
/// - `slug`: lower-case ASCII letters, digits and `-` only (accents dropped, every other run of
///   characters one `-`), for file names: `Crème Brûlée 2 for 1!` → `creme-brulee-2-for-1`.
///
/// Pure text and decimal arithmetic: the same text on every machine, whatever its own locale.
public enum VarFilter: Sendable, Equatable {
    case number(decimals: Int?)
    case slug

    static let names = ["number", "slug"]

    /// Reads `number`, `number: 2`, `slug`; or says what is wrong.
    static func parse(_ text: Substring) -> Result<VarFilter, FilterProblem> {
        let parts = text.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        let name = parts.first ?? "", argument = parts.count > 1 ? parts[1] : nil
        switch name {
        case "number":
            guard let argument else { return .success(.number(decimals: nil)) }
            guard let decimals = Int(argument), (0...9).contains(decimals) else {
                return .failure(FilterProblem(message: "number takes the count of decimals, 0 to 9, not '\(argument)'", hint: "write {{ price | number: 2 }}"))
            }
            return .success(.number(decimals: decimals))
        case "slug":
            guard argument == nil else { return .failure(FilterProblem(message: "slug takes no argument", hint: "write {{ name | slug }}")) }
            return .success(.slug)
        default:
            let suggestion = Suggestion.didYouMean(name, among: names).map { $0 + " " } ?? ""
            return .failure(FilterProblem(message: "unknown filter '\(name)'", hint: suggestion + "the filters are number and slug"))
        }
    }

    /// The filtered text of `value` (a var's scalar as text); `locale` is the project's.
    public func apply(to value: String, locale: NumberLocale?) -> Result<String, FilterProblem> {
        switch self {
        case .slug:
            return .success(Self.slug(value))
        case .number(let decimals):
            guard var number = Decimal(string: value.trimmingCharacters(in: .whitespaces), locale: Locale(identifier: "en_US_POSIX")),
                  !value.trimmingCharacters(in: .whitespaces).isEmpty, value.allSatisfy({ "+-.0123456789eE ".contains($0) }) else {
                return .failure(FilterProblem(message: "'\(value)' is not a number, so number cannot write it", hint: "give the var a number, such as 1299.5"))
            }
            if let decimals {
                var exact = number
                NSDecimalRound(&number, &exact, decimals, .plain)
            }
            return .success((locale ?? .plain).write(number, decimals: decimals))
        }
    }

    static func slug(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var result = ""
        for scalar in folded.unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                result.unicodeScalars.append(scalar)
            } else if !result.isEmpty, !result.hasSuffix("-") {
                result += "-"
            }
        }
        while result.hasSuffix("-") { result.removeLast() }
        return result
    }

    public struct FilterProblem: Error, Sendable {
        public var message: String
        public var hint: String?
    }
}

/// How a project's `locale` writes numbers: its thousands separator and decimal mark.
public struct NumberLocale: Sendable, Equatable {
    public var grouping: String
    public var decimalMark: String

    /// No grouping, `.` (without a `locale`).
    static let plain = NumberLocale(grouping: "", decimalMark: ".")

    /// The locales Reel knows, by language (and region where it changes the marks).
    static let known: [String: NumberLocale] = [
        "en": NumberLocale(grouping: ",", decimalMark: "."), "ja": NumberLocale(grouping: ",", decimalMark: "."),
        "zh": NumberLocale(grouping: ",", decimalMark: "."), "ko": NumberLocale(grouping: ",", decimalMark: "."),
        "de": NumberLocale(grouping: ".", decimalMark: ","), "es": NumberLocale(grouping: ".", decimalMark: ","),
        "it": NumberLocale(grouping: ".", decimalMark: ","), "nl": NumberLocale(grouping: ".", decimalMark: ","),
        "pt": NumberLocale(grouping: ".", decimalMark: ","), "da": NumberLocale(grouping: ".", decimalMark: ","),
        "tr": NumberLocale(grouping: ".", decimalMark: ","), "id": NumberLocale(grouping: ".", decimalMark: ","),
        "fr": NumberLocale(grouping: "\u{202F}", decimalMark: ","), "sv": NumberLocale(grouping: "\u{00A0}", decimalMark: ","),
        "nb": NumberLocale(grouping: "\u{00A0}", decimalMark: ","), "fi": NumberLocale(grouping: "\u{00A0}", decimalMark: ","),
        "pl": NumberLocale(grouping: "\u{00A0}", decimalMark: ","), "cs": NumberLocale(grouping: "\u{00A0}", decimalMark: ","),
        "ru": NumberLocale(grouping: "\u{00A0}", decimalMark: ","), "uk": NumberLocale(grouping: "\u{00A0}", decimalMark: ","),
        "de-CH": NumberLocale(grouping: "’", decimalMark: "."), "en-ZA": NumberLocale(grouping: "\u{00A0}", decimalMark: ","),
    ]

    /// `de-DE` → Germany's marks (by its language); nil for a language Reel does not know.
    public init?(identifier: String) {
        guard let locale = Self.known[identifier] ?? Self.known[String(identifier.prefix { $0 != "-" })] else { return nil }
        self = locale
    }

    init(grouping: String, decimalMark: String) {
        self.grouping = grouping
        self.decimalMark = decimalMark
    }

    static var knownLanguages: [String] { known.keys.filter { !$0.contains("-") }.sorted() }

    /// `number` with these marks: thousands grouped, exactly `decimals` decimals when given.
    func write(_ number: Decimal, decimals: Int?) -> String {
        var text = NSDecimalNumber(decimal: number).stringValue // plain digits, "." as mark
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        var parts = text.split(separator: ".", maxSplits: 1).map(String.init)
        var fraction = parts.count > 1 ? parts[1] : ""
        if let decimals { fraction = String((fraction + String(repeating: "0", count: decimals)).prefix(decimals)) }
        var integer = parts.isEmpty ? "0" : parts[0]
        if !grouping.isEmpty, integer.count > 3 {
            var grouped: [Substring] = []
            while integer.count > 3 {
                grouped.insert(integer.suffix(3)[...], at: 0)
                integer.removeLast(3)
            }
            integer = ([integer[...]] + grouped).joined(separator: grouping)
        }
        parts = [integer] + (fraction.isEmpty ? [] : [fraction])
        return (negative ? "-" : "") + parts.joined(separator: decimalMark)
    }
}
