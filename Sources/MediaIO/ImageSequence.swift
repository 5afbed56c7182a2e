import Foundation
import MediaFormat

/// A media path that names an image sequence with FFmpeg's pattern (`shots/frame%04d.png`:
/// `%d` or `%0Nd` in the file name), and the files it stands for.
public enum ImageSequence {
    /// The files the pattern in `path`'s file name names, in their numbers' order; nil when
    /// the name has no pattern (a path to one file).
    public static func files(of path: String) -> [String]? {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        guard let pattern = name.range(of: ImageSequencePattern.expression, options: .regularExpression) else { return nil }
        let prefix = String(name[..<pattern.lowerBound]), suffix = String(name[pattern.upperBound...])
        let folder = url.deletingLastPathComponent().path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let numbered: [(Int, String)] = names.compactMap { candidate in
            guard candidate.hasPrefix(prefix), candidate.hasSuffix(suffix), candidate.count > prefix.count + suffix.count else { return nil }
            let digits = candidate.dropFirst(prefix.count).dropLast(suffix.count)
            guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let n = Int(digits) else { return nil }
            return (n, URL(fileURLWithPath: folder).appendingPathComponent(candidate).path)
        }
        return numbered.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
