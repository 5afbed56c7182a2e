import CLinuxHeap
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

    /// The bytes malloc has handed out and not had back (glibc's mallinfo2, all heaps): a leak
    /// grows it by exactly what was not freed, whatever pages the allocator keeps.
    public static func heapBytesInUse() -> Int { Int(reel_heap_bytes_in_use()) }

    /// Runs `measure` in a process of its own: this test binary again, running only the test
    /// `name`, so the tests running beside it do not disturb the count. In that child `measure`
    /// runs and this returns nil (the caller returns at once); in the parent it returns what the
    /// child measured.
    public static func measuredAlone(_ name: String, _ measure: () async throws -> HeapWindows) async throws -> HeapWindows? {
        let variable = "REEL_HEAP_WINDOWS_REPORT"
        if let report = ProcessInfo.processInfo.environment[variable] {
            try await measure().marks.map(String.init).joined(separator: " ").write(toFile: report, atomically: true, encoding: .utf8)
            return nil
        }
        let report = MediaFactory.path("heap-windows-\(name).txt")
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        try MediaFactory.run(binary, ["--testing-library", "swift-testing", "--filter", name], environment: [variable: report])
        return HeapWindows(marks: try String(contentsOfFile: report, encoding: .utf8).split(separator: " ").compactMap { Int($0) })
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

/// The heap's bytes in use after a warm-up and after each of three equal windows of work. A
/// leak grows every window by the same amount; a cache filled once does not.
public struct HeapWindows: CustomStringConvertible, Sendable {
    public let marks: [Int]

    public init(marks: [Int]) { self.marks = marks }

    /// Runs `warmUp`, then `window` three times, reading the heap after each.
    public static func measure(warmUp: () async throws -> Void, window: () async throws -> Void) async rethrows -> HeapWindows {
        try await warmUp()
        var marks = [Memory.heapBytesInUse()]
        for _ in 0..<3 {
            try await window()
            marks.append(Memory.heapBytesInUse())
        }
        return HeapWindows(marks: marks)
    }

    /// Each window's growth in bytes.
    public var growth: [Int] { zip(marks.dropFirst(), marks).map { $0 - $1 } }
    /// The middle window's growth: a cache filled or emptied once moves one window, not it.
    public var medianGrowth: Int { growth.sorted()[growth.count / 2] }
    public var description: String { "the heap's bytes in use \(marks) after a warm-up and after each of three windows (growth \(growth))" }
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
