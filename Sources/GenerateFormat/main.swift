import FormatGeneration
import Foundation

/// `scripts/generate-format [REPOSITORY]`: rewrites the schema's catalogue parts and
/// docs/format.md's catalogue tables from the Swift declarations (FormatGeneration).
let root = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? FileManager.default.currentDirectoryPath)
let files: [(path: String, make: (String) throws -> String)] = [
    (FormatFiles.schemaPath, FormatFiles.schema(from:)),
    (FormatFiles.formatPath, FormatFiles.format(from:)),
]
do {
    for file in files {
        let url = root.appendingPathComponent(file.path)
        let old = try String(contentsOf: url, encoding: .utf8)
        let new = try file.make(old)
        if new == old {
            print("\(file.path): as generated")
        } else {
            try new.write(to: url, atomically: true, encoding: .utf8)
            print("\(file.path): written")
        }
    }
} catch {
    FileHandle.standardError.write(Data("generate-format: \(error)\n".utf8))
    exit(1)
}
