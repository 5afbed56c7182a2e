import Foundation

/// The cores this process may run on: the CPUs of its affinity mask (`taskset`, a cpuset),
/// capped by a cgroup CPU limit (a container's or Kubernetes pod's `limits.cpu`, read from
/// cgroup v2 `cpu.max` or v1 `cpu.cfs_quota_us`), rounded up. Foundation's
/// `activeProcessorCount` counts the machine's cores here, which would start too many
/// segment jobs in a pod limited to 1 CPU on a 64-core node.
public enum AvailableCores {
    public static var count: Int {
        var cores = ProcessInfo.processInfo.activeProcessorCount
        #if os(Linux)
        if let affinity = affinityCount() { cores = min(cores, affinity) }
        if let limit = cgroupLimit() { cores = min(cores, limit) }
        #endif
        return max(1, cores)
    }

    #if os(Linux)
    /// From `Cpus_allowed_list` in /proc/self/status, e.g. `0-3,8,10-11`.
    private static func affinityCount() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else { return nil }
        var count = 0
        for range in line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces).split(separator: ",") {
            let ends = range.split(separator: "-").compactMap { Int($0) }
            guard let first = ends.first, let last = ends.last, last >= first else { return nil }
            count += last - first + 1
        }
        return count > 0 ? count : nil
    }

    /// `quota period` (v2: "max 100000" is no limit) or the v1 pair of files.
    private static func cgroupLimit() -> Int? {
        func read(_ path: String) -> String? {
            (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        var quota: Double?, period: Double?
        if let v2 = read("/sys/fs/cgroup/cpu.max") {
            let fields = v2.split(separator: " ")
            if fields.count == 2 { quota = Double(fields[0]); period = Double(fields[1]) }
        } else if let v1 = read("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"), let p = read("/sys/fs/cgroup/cpu/cpu.cfs_period_us") {
            quota = Double(v1); period = Double(p)
        }
        guard let quota, let period, quota > 0, period > 0 else { return nil }
        return Int((quota / period).rounded(.up))
    }
    #endif

    /// Segments rendered at the same time by default: one per core (each segment's encoder
    /// has one thread), at most 8, so memory stays bounded on big machines (each job holds its
    /// encoder's frames).
    public static var segmentJobs: Int { min(count, 8) }
}
