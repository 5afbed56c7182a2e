import Foundation

/// This process's memory, as the leak and fuzz tests measure it.
public enum Memory {
    /// Resident set size in bytes, from /proc/self/statm.
    public static func residentBytes() -> Int {
        let fields = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?.split(separator: " ") ?? []
        return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The resident size once malloc has returned its free pages to the system (glibc's
    /// `malloc_trim`), so pages kept for reuse do not count as growth.
    public static func trimmedResidentBytes() -> Int {
        typealias Trim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(nil, "malloc_trim") { // nil: RTLD_DEFAULT, the process's own libc
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        return residentBytes()
    }

    /// Runs this test binary again with only the test `name` and `environment` added: a test
    /// that measures memory runs alone in a process of its own, undisturbed by the tests that
    /// run beside it.
    public static func runAlone(_ name: String, environment: [String: String]) throws {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        try MediaFactory.run(binary, ["--testing-library", "swift-testing", "--filter", name], environment: environment)
    }

    /// The process's peak resident size since it started (`VmHWM`): unlike getrusage's
    /// `ru_maxrss`, which Linux carries across `execve`, it is the child's own, not the size of
    /// the test process it was started from.
    public static func maxResidentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
        return kilobytes * 1024
    }
}

/// The CPU time this thread has used, in seconds: unlike wall time, it does not grow when other
/// tests or other processes run on the same cores, so a bound on it holds on a loaded machine.
public func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Runs `body` and returns the CPU time it took on this thread, in seconds.
public func threadCPUSeconds(of body: () throws -> Void) rethrows -> Double {
    let start = threadCPUSeconds()
    try body()
    return threadCPUSeconds() - start
}
