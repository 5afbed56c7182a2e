/// "Did you mean …?" for a name that does not exist: the closest name that does, when it is
/// close enough to be a likely typo. Every suggestion (unknown keys, enum values, vars,
/// media) goes through here, so they all choose and read alike.
public enum Suggestion {
    /// The candidate closest to `word` by edit distance, ignoring case (ties go to the
    /// alphabetically first), or nil when even that one is more than a third of its length
    /// away (at least 1 and at most 3 edits).
    public static func closest(to word: String, among candidates: [String]) -> String? {
        // No suggestion is further than 3 edits, and the distance is at least the difference in
        // length: longer or shorter candidates are skipped without computing (a 600 000-character
        // key against every allowed key took seconds and 50 MB).
        let length = word.unicodeScalars.count
        let near = candidates.filter { abs($0.unicodeScalars.count - length) <= 3 }
        let scored = near.map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }) else { return nil }
        let threshold = max(1, min(3, best.0.count / 3))
        return best.1 <= threshold ? best.0 : nil
    }

    /// `did you mean 'from'?` for the closest candidate, or nil when none is close.
    public static func didYouMean(_ word: String, among candidates: [String]) -> String? {
        closest(to: word, among: candidates).map { "did you mean '\($0)'?" }
    }

    /// For a value other tools spell differently: the candidate `word` names once case, `-`,
    /// `_` and spaces are ignored (`wipeLeft`, `CrossZoom`, `ease_out_expo`), else the one
    /// `aliases` gives for it (keys as `spelling(_:)` makes them: `fadeblack` → `fade-through-black`),
    /// else the closest by edit distance.
    public static func closest(to word: String, among candidates: [String], aliases: [String: String]) -> String? {
        let key = spelling(word)
        if let same = candidates.first(where: { spelling($0) == key }) { return same }
        if let alias = aliases[key], candidates.contains(alias) { return alias }
        return closest(to: word, among: candidates)
    }

    /// `word` without case, `-`, `_` or spaces: how names are compared across tools.
    public static func spelling(_ word: String) -> String {
        String(word.lowercased().unicodeScalars.filter { !["-", "_", " "].contains($0) }.map(Character.init))
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and
    /// transpositions of neighbours ("form" → "from") each cost one.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
