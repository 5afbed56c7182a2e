import Foundation

extension CompositionGraph {
    /// For `reel graph`: each nested project the tracks use, once per set of vars, with its
    /// own listing indented under it (and so on down).
    var nestedListing: [String] {
        var seen = Set<String>(), out: [String] = []
        for track in composition.tracks {
            for case .media(let ref, _)? in track.segments.map(\.content) {
                guard let nested = ref.nested, seen.insert(ref.sourceKey).inserted else { continue }
                let vars = nested.vars.isEmpty ? "" : " vars \(nested.varsText)"
                out.append("  nested \(ref.name) (\(URL(fileURLWithPath: ref.path).lastPathComponent))\(vars)")
                out += nested.graph.listing.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0.isEmpty ? "" : "    " + $0 }
            }
        }
        return out
    }
}
