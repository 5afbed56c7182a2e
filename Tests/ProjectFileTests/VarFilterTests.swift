import ProjectFile
import TestSupport
import Testing

/// `{{ var | number: D }}` and `{{ var | slug }}`: numbers in the project's locale, file-name
/// safe text; a broken filter is an error at its string with a did-you-mean; `min_length`.
struct VarFilterTests {
    func text(_ template: String, locale: String? = nil, vars: String = "price: 1299.5, name: \"Crème Brûlée 2 for 1!\", big: -1234567.891")
        throws -> (String?, [String]) {
        let root = try yaml((locale.map { "locale: \($0)\n" } ?? "") + "vars: { \(vars) }\ntext: \"\(template)\"\n")
        let (out, problems) = VarsSubstitution(document: root).apply(to: root)
        return (out["text"]?.stringValue, problems.map(\.message))
    }

    @Test(arguments: [
        ("{{ price | number: 2 }}", nil as String?, "1299.50"), ("{{ price | number }}", nil, "1299.5"),
        ("{{ price | number: 0 }}", nil, "1300"), ("{{ price | number: 2 }}", "en-US", "1,299.50"),
        ("{{ price | number: 2 }}", "de-DE", "1.299,50"), ("{{ big | number: 2 }}", "en-GB", "-1,234,567.89"),
        ("{{ big | number: 1 }}", "fr-FR", "-1\u{202F}234\u{202F}567,9"), ("{{ price | number: 2 }}", "de-CH", "1’299.50"),
        ("{{ name | slug }}", nil, "creme-brulee-2-for-1"), ("Only {{ price | number: 2 }} €, {{ name | slug }}!", "en", "Only 1,299.50 €, creme-brulee-2-for-1!"),
    ])
    func filtersWriteTheValue(template: String, locale: String?, expected: String) throws {
        let (result, problems) = try text(template, locale: locale)
        #expect(problems.isEmpty, "\(problems)")
        #expect(result == expected)
    }

    @Test func brokenFiltersAreErrorsWithAHint() throws {
        #expect(try text("{{ price | nmber }}").1 == ["{{ price | nmber }} in text: unknown filter 'nmber'"])
        #expect(try text("{{ price | number: two }}").1 == ["{{ price | number: two }} in text: number takes the count of decimals, 0 to 9, not 'two'"])
        #expect(try text("{{ name | number }}").1 == ["{{ name | number }} in text: 'Crème Brûlée 2 for 1!' is not a number, so number cannot write it"])
        #expect(try text("{{ price }}", locale: "xx").1 == ["Reel does not know how 'xx' writes numbers"])
    }

    @Test func minLengthRefusesAnEmptyValue() throws {
        let root = try yaml("vars: { name: { type: string, default: Widget, min_length: 2 } }\ntext: \"{{ name }}\"\n")
        var vars = VarsSubstitution(document: root)
        #expect(vars.override([set("name", "")]).map(\.message) == ["var 'name' takes at least 2 characters; got 0 ('')"])
        #expect(vars.override([set("name", "ok")]).isEmpty)
    }
}
