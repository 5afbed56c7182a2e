import Foundation
import RegularFiles

/// A 3D LUT read from an Adobe/Resolve `.cube` file: `LUT_3D_SIZE`, optional `TITLE`,
/// `DOMAIN_MIN`/`DOMAIN_MAX` and `#` comments, then size³ lines of `r g b` with red changing
/// fastest. Entries are kept in fixed point (1/256ths of an 8-bit level) so applying the LUT is
/// integer maths.
public struct CubeLUT: Sendable, Equatable {
    public var title: String?
    /// Points along each axis.
    public var size: Int
    public var domainMin: [Double]
    public var domainMax: [Double]
    /// `size³` entries of (r, g, b) in 1/256ths of an 8-bit level, red index fastest.
    public var entries: [Int32]

    /// Largest `LUT_3D_SIZE` read (256³ entries is 200 MB of text; real LUTs are 17–65).
    public static let maximumSize = 129

    /// Reads the file at `path`; errors name the file and line.
    public init(contentsOf path: String) throws {
        if let problem = RegularFile.problem(at: path) { throw CubeLUTError(path: path, line: nil, message: "cannot be read: \(problem)") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CubeLUTError(path: path, line: nil, message: "cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw CubeLUTError(path: path, line: nil, message: "is not UTF-8 text") }
        try self.init(parsing: text, path: path)
    }

    public init(parsing text: String, path: String) throws {
        var title: String?, size: Int?, domainMin = [0.0, 0, 0], domainMax = [1.0, 1, 1]
        var entries: [Int32] = []
        func fail(_ line: Int, _ message: String) -> CubeLUTError { CubeLUTError(path: path, line: line, message: message) }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            let content = raw.prefix { $0 != "#" }.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !content.isEmpty else { continue }
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            func numbers(_ slice: ArraySlice<Substring>) throws -> [Double] {
                try slice.map { w in
                    guard let v = Double(w), v.isFinite else { throw fail(line, "'\(w)' is not a number") }
                    return v
                }
            }
            switch words[0] {
            case "TITLE":
                title = content.dropFirst(5).trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            case "LUT_3D_SIZE":
                guard words.count == 2, let n = Int(words[1]), (2...Self.maximumSize).contains(n) else {
                    throw fail(line, "LUT_3D_SIZE must be a whole number from 2 to \(Self.maximumSize)")
                }
                guard entries.isEmpty else { throw fail(line, "LUT_3D_SIZE comes after the table's first line") }
                size = n
                entries.reserveCapacity(n * n * n * 3)
            case "LUT_1D_SIZE":
                throw fail(line, "a 1D LUT (LUT_1D_SIZE): only 3D LUTs (LUT_3D_SIZE) are supported")
            case "DOMAIN_MIN", "DOMAIN_MAX":
                let v = try numbers(words.dropFirst())
                guard v.count == 3 else { throw fail(line, "\(words[0]) needs three numbers (red, green, blue)") }
                if words[0] == "DOMAIN_MIN" { domainMin = v } else { domainMax = v }
            default:
                guard words[0].first.map({ $0.isNumber || $0 == "-" || $0 == "." || $0 == "+" }) == true else {
                    throw fail(line, "unknown keyword '\(words[0])'")
                }
                guard let n = size else { throw fail(line, "a table line before LUT_3D_SIZE") }
                let v = try numbers(words[...])
                guard v.count == 3 else { throw fail(line, "a table line needs three numbers (red, green, blue), not \(v.count)") }
                guard entries.count < n * n * n * 3 else { throw fail(line, "more than \(n)³ = \(n * n * n) table lines") }
                for x in v { entries.append(Int32((min(max(x, -4), 5) * 255 * 256).rounded())) }
            }
        }
        guard let n = size else { throw CubeLUTError(path: path, line: nil, message: "has no LUT_3D_SIZE line") }
        guard entries.count == n * n * n * 3 else {
            throw CubeLUTError(path: path, line: nil, message: "has \(entries.count / 3) table lines, LUT_3D_SIZE \(n) needs \(n * n * n)")
        }
        for c in 0..<3 where !(domainMax[c] > domainMin[c]) {
            throw CubeLUTError(path: path, line: nil, message: "DOMAIN_MAX must be above DOMAIN_MIN in every channel")
        }
        self.title = title
        self.size = n
        self.domainMin = domainMin
        self.domainMax = domainMax
        self.entries = entries
    }
}

public struct CubeLUTError: Error, Equatable, CustomStringConvertible {
    public var path: String
    /// 1-based; nil for a problem of the whole file.
    public var line: Int?
    public var message: String

    public init(path: String, line: Int?, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String { line.map { "\(path):\($0): \(message)" } ?? "\(path): \(message)" }
}
