/// "1 track", "2 tracks": a count and its noun, plural when the count is not one.
public func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
