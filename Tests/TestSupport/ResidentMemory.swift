import Foundation

/// This process's resident memory, for tests that check it does not grow.
public enum ResidentMemory {
    /// Resident set size in bytes, from /proc/self/statm.
    public static func bytes() -> Int {
        let fields = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?.split(separator: " ") ?? []
        return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The resident size once malloc has returned its free pages to the system (glibc's
    /// `malloc_trim`), so pages kept for reuse do not count as growth.
    public static func trimmedBytes() -> Int {
        typealias Trim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(nil, "malloc_trim") { // nil: RTLD_DEFAULT, the process's own libc
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        return bytes()
    }

    /// Runs this test binary again with only the test `name` and `environment` added: a test
    /// that measures memory runs alone in a process of its own, undisturbed by the tests
    /// running beside it.
    public static func runAlone(_ name: String, environment: [String: String]) throws {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        try MediaFactory.run(binary, ["--testing-library", "swift-testing", "--filter", name], environment: environment)
    }
}
