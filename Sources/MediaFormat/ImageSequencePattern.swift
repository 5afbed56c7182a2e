import Foundation

/// FFmpeg's frame number pattern in an image sequence's file name (`shot%04d.png`: `%d` or
/// `%0Nd`), which the project format checks and the readers and writers fill in.
public enum ImageSequencePattern {
    /// The regular expression of the pattern.
    public static let expression = "%0?[0-9]*d"

    /// Whether `path`'s file name has a frame number pattern.
    public static func has(_ path: String) -> Bool { range(in: fileName(path)) != nil }

    /// The file name the pattern in `path`'s file name gives `number` (`shot%04d.png`, 7 →
    /// `shot0007.png`).
    public static func fileName(_ path: String, number: Int) -> String {
        let name = fileName(path)
        guard let range = range(in: name) else { return name }
        let width = Int(name[range].dropFirst().dropLast()) ?? 0
        let digits = String(number)
        return name.replacingCharacters(in: range, with: String(repeating: "0", count: max(0, width - digits.count)) + digits)
    }

    /// `path` with `%04d` before its extension (`out/frames.png` → `out/frames%04d.png`), for hints.
    public static func suggestion(for path: String) -> String {
        let nameStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[nameStart...].lastIndex(of: "."), dot > nameStart else { return path + "%04d" }
        return path[..<dot] + "%04d" + path[dot...]
    }

    /// The number of the file named `candidate` in the sequence of `path`'s pattern
    /// (`shot%04d.png`: `shot0012.png` → 12), nil when the name is not one of it. The name must
    /// be the one the pattern gives that number, as FFmpeg writes and reads it: `shot012.png`
    /// is not frame 12 of `shot%04d.png`.
    public static func number(ofFileName candidate: String, in path: String) -> Int? {
        let name = fileName(path)
        guard let range = range(in: name) else { return nil }
        let prefix = name[..<range.lowerBound], suffix = name[range.upperBound...]
        guard candidate.hasPrefix(prefix), candidate.hasSuffix(suffix), candidate.count > prefix.count + suffix.count else { return nil }
        let digits = candidate.dropFirst(prefix.count).dropLast(suffix.count)
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits),
              fileName(path, number: number) == candidate else { return nil }
        return number
    }

    /// The files of the sequence `path` names with their numbers, in the numbers' order; nil
    /// when its file name has no pattern (a path to one file).
    public static func numberedFiles(of path: String) -> [(number: Int, path: String)]? {
        guard has(path) else { return nil }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let numbered = names.compactMap { name in number(ofFileName: name, in: path).map { (number: $0, path: folder.appendingPathComponent(name).path) } }
        return numbered.sorted { $0.number < $1.number }
    }

    /// The files of the sequence `path` names, in their numbers' order; nil when its file name
    /// has no pattern (a path to one file).
    public static func files(of path: String) -> [String]? { numberedFiles(of: path)?.map(\.path) }

    private static func fileName(_ path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }

    private static func range(in name: String) -> Range<String.Index>? { name.range(of: expression, options: .regularExpression) }
}
