import Foundation

/// Writes a copy of a TrueType font whose `name` table calls it `family`, so a test has a
/// font that exists nowhere but in its temporary directory.
///
/// The new name table (Windows platform, UTF-16BE, en-US: family, subfamily, full name,
/// PostScript name) is appended and the table directory points at it; the old one stays as
/// unused bytes. FreeType and fontconfig read fonts by the directory and do not check sums.
enum FontRenamer {
    static func copy(_ source: String, to destination: String, family: String) throws {
        var font = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        let tableCount = Int(read16(font, 4))
        guard let record = (0..<tableCount).map({ 12 + 16 * $0 }).first(where: { font[$0..<$0 + 4] == ArraySlice("name".utf8) }) else {
            throw TestMediaError("\(source) has no name table")
        }
        while font.count % 4 != 0 { font.append(0) }
        let table = nameTable([(1, family), (2, "Regular"), (4, family), (6, family.filter { $0 != " " })])
        write32(&font, record + 8, UInt32(font.count))
        write32(&font, record + 12, UInt32(table.count))
        font += table
        try Data(font).write(to: URL(fileURLWithPath: destination))
    }

    private static func nameTable(_ names: [(id: UInt16, text: String)]) -> [UInt8] {
        var header: [UInt8] = [], strings: [UInt8] = []
        append16(&header, 0)
        append16(&header, UInt16(names.count))
        append16(&header, UInt16(6 + 12 * names.count))
        for (id, text) in names {
            let utf16 = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
            for value in [3, 1, 0x409, id, UInt16(utf16.count), UInt16(strings.count)] { append16(&header, value) }
            strings += utf16
        }
        return header + strings
    }

    private static func read16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) }
    private static func append16(_ bytes: inout [UInt8], _ value: UInt16) { bytes += [UInt8(value >> 8), UInt8(value & 0xff)] }
    private static func write32(_ bytes: inout [UInt8], _ at: Int, _ value: UInt32) {
        for i in 0..<4 { bytes[at + i] = UInt8((value >> (8 * (3 - i))) & 0xff) }
    }
}
