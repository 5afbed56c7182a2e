import Foundation
import ProjectCompiler
import ProjectFile
import TestSupport
import Testing

/// Property-based fuzzing of the project front end (loader, schema, vars, decoder, compiler):
/// mutated examples and fixtures must each end in success or a clear `ProjectError` (exit
/// status 64/65/66, every diagnostic at a real file:line:col), within 2 s of CPU, and the
/// whole run under 200 MB resident. The cases run in a child process (this test binary
/// again), so a crash is caught and named, and other tests do not disturb the memory figures.
///
/// CI runs `defaultCases` cases with `defaultSeed`. A longer run:
///
///     REEL_FUZZ_CASES=200000 REEL_FUZZ_SEED=7 swift test --skip-build --filter FuzzTests
///     scripts/fuzz 200000 7                          # the same, with a summary
///     REEL_FUZZ_CASE=1234 swift test --skip-build --filter FuzzTests/replay   # one case, described
@Suite(.serialized) struct FuzzTests {
    static let defaultCases = 2000
    static let defaultSeed: UInt64 = 20_261_124
    static let childVariable = "REEL_FUZZ_CHILD"
    /// Peak resident size allowed for the child process (the whole run).
    static let memoryLimit = 200 * 1024 * 1024

    static var environment: [String: String] { ProcessInfo.processInfo.environment }
    static var seed: UInt64 { environment["REEL_FUZZ_SEED"].flatMap(UInt64.init) ?? defaultSeed }
    static var cases: Int { environment["REEL_FUZZ_CASES"].flatMap(Int.init) ?? defaultCases }

    /// What the parent learnt: the merged reports of its children and the cases that killed one.
    struct Findings {
        var report = FuzzRunner.Report()
        var crashes: [String] = []
        var hangs: [String] = []
    }

    @Test func mutatedProjectsEndInSuccessOrAClearError() throws {
        if let work = Self.environment[Self.childVariable] {
            try Self.runChild(work: URL(fileURLWithPath: work))
            return
        }
        let findings = try Self.runChildren(seed: Self.seed, cases: Self.cases)
        let r = findings.report
        let mib = { (bytes: Int) in String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        print("""
            fuzz: seed \(r.seed), \(r.cases) cases: \(r.clearErrors) clear errors, \(r.successes) successes, \
            \(findings.crashes.count) crashes, \(findings.hangs.count) hangs; exit statuses \(r.exitCodes.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
            fuzz: slowest case \(String(format: "%.3f", r.slowestCPU)) s CPU (case \(r.slowestCPUCase)), \(String(format: "%.3f", r.slowestWall)) s wall; \
            peak resident \(mib(r.maxResidentBytes)); largest growth in one case \(mib(r.largestCaseGrowthBytes)) (case \(r.largestCaseGrowthCase)); \
            resident after warm-up \(mib(r.residentAfterWarmUp)), at the end \(mib(r.residentAtEnd)); \(String(format: "%.1f", r.elapsedSeconds)) s
            """)
        #expect(findings.crashes.isEmpty, "crashes:\n\(findings.crashes.joined(separator: "\n"))")
        #expect(findings.hangs.isEmpty, "hangs:\n\(findings.hangs.joined(separator: "\n"))")
        #expect(r.violationCount == 0, "\(r.violationCount) cases broke a property:\n\(r.violations.joined(separator: "\n"))")
        #expect(r.cases + findings.crashes.count + findings.hangs.count == Self.cases)
        #expect(r.maxResidentBytes < Self.memoryLimit, "peak resident size \(mib(r.maxResidentBytes))")
        // No case keeps memory: what the run holds at the end is what it held after warm-up,
        // give or take the allocator (the child runs with one malloc arena; measured: 40 bytes
        // a case over 30 000 distinct cases, noise of several MB with the default arenas).
        let allowed = 4 * 1024 * 1024 + 200 * Self.cases
        #expect(r.residentAtEnd - r.residentAfterWarmUp < allowed,
                "resident size grew from \(mib(r.residentAfterWarmUp)) to \(mib(r.residentAtEnd)), more than \(mib(allowed))")
        // The corpus must reach every stage: parse errors, schema errors, compile errors, successes.
        #expect(r.successes > Self.cases / 20, "too few successes: the mutations never reach the compiler")
        #expect(r.clearErrors > Self.cases / 4)
        #expect((r.exitCodes["66"] ?? 0) > 0 && (r.exitCodes["65"] ?? 0) > 0)
    }

    /// Describes one case (`REEL_FUZZ_CASE=N`, with the run's `REEL_FUZZ_SEED`) and runs it in
    /// this process; without the variable it replays the first case of the default run.
    @Test func replay() throws {
        let index = Self.environment["REEL_FUZZ_CASE"].flatMap(Int.init) ?? 0
        let work = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let runner = try FuzzRunner(settings: .init(seed: Self.seed, first: index, count: 1, work: work))
        let c = runner.generate(index)
        print("case \(index) of seed \(Self.seed): \(c.recipe.joined(separator: "; ")); \(c.bytes.count) bytes as .\(c.fileExtension)")
        if Self.environment["REEL_FUZZ_CASE"] != nil {
            let keep = repositoryRoot.appendingPathComponent(".build/fuzz-case-\(index).\(c.fileExtension)")
            try Data(c.bytes).write(to: keep)
            print("written to \(keep.path)")
        }
        let report = try runner.run()
        print(report.violations.joined(separator: "\n"))
        #expect(report.violationCount == 0)
        #expect(report.cases == 1)
    }

    /// The same seed gives the same cases (the generator never reads the clock).
    @Test func casesAreDeterministic() throws {
        let work = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let runner = try FuzzRunner(settings: .init(seed: 99, first: 0, count: 0, work: work))
        for index in [0, 1, 17, 2500] {
            let a = runner.generate(index), b = runner.generate(index)
            #expect(a.bytes == b.bytes && a.recipe == b.recipe)
        }
        #expect(runner.generate(1).bytes != runner.generate(2).bytes)
        #expect(runner.mutator.seeds.count >= 30, "seeds: \(runner.mutator.seeds.map(\.name))")
    }

    // MARK: Parent and child

    static func scratchFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reel-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// In the child: runs the cases the environment names and writes the report.
    static func runChild(work: URL) throws {
        let env = environment
        let first = env["REEL_FUZZ_FIRST"].flatMap(Int.init) ?? 0
        let count = env["REEL_FUZZ_COUNT"].flatMap(Int.init) ?? 0
        let skip = Set((env["REEL_FUZZ_SKIP"] ?? "").split(separator: ",").compactMap { Int($0) })
        let runner = try FuzzRunner(settings: .init(seed: seed, first: first, count: count, skip: skip, work: work))
        let report = try runner.run()
        try JSONEncoder().encode(report).write(to: work.appendingPathComponent("report.json"))
    }

    /// Runs the cases in child processes; a child that dies names the case it was on (the
    /// `current` marker), the case is kept under `.build/fuzz-findings/`, and a new child
    /// goes on from the next case.
    static func runChildren(seed: UInt64, cases: Int) throws -> Findings {
        var findings = Findings()
        findings.report.seed = seed
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        var next = 0
        var dead: [Int] = []
        while next < cases {
            let work = try scratchFolder()
            defer { try? FileManager.default.removeItem(at: work) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["--testing-library", "swift-testing", "--filter", "mutatedProjectsEndInSuccessOrAClearError"]
            process.environment = environment.merging([childVariable: work.path, "REEL_FUZZ_SEED": String(seed), "MALLOC_ARENA_MAX": "1",
                                                       "REEL_FUZZ_FIRST": String(next), "REEL_FUZZ_COUNT": String(cases - next),
                                                       "REEL_FUZZ_SKIP": dead.map(String.init).joined(separator: ",")]) { $1 }
            let log = work.appendingPathComponent("child.log")
            FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: log)
            process.standardError = process.standardOutput
            try process.run()
            process.waitUntilExit()
            let reportFile = work.appendingPathComponent("report.json")
            if process.terminationReason == .exit, process.terminationStatus == 0, let data = try? Data(contentsOf: reportFile) {
                merge(try JSONDecoder().decode(FuzzRunner.Report.self, from: data), into: &findings.report)
                break
            }
            // The child died: which case was it on?
            let marker = (try? String(contentsOf: work.appendingPathComponent("current"), encoding: .utf8)) ?? ""
            guard let index = marker.split(separator: " ").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
                let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                Issue.record("the fuzz child exited \(process.terminationStatus) before its first case:\n\(output.suffix(3000))")
                return findings
            }
            let hung = process.terminationReason == .exit && process.terminationStatus == Watchdog.hangStatus
            let runner = try FuzzRunner(settings: .init(seed: seed, first: index, count: 1, work: work))
            let c = runner.generate(index)
            let findingsFolder = repositoryRoot.appendingPathComponent(".build/fuzz-findings")
            try FileManager.default.createDirectory(at: findingsFolder, withIntermediateDirectories: true)
            let kept = findingsFolder.appendingPathComponent("seed\(seed)-case\(index).\(c.fileExtension)")
            try Data(c.bytes).write(to: kept)
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let line = "case \(index) [\(c.recipe.joined(separator: "; "))] \(hung ? "hung" : "crashed (\(process.terminationReason == .uncaughtSignal ? "signal" : "status") \(process.terminationStatus))"), kept as \(kept.path)\n"
                + output.split(separator: "\n").filter { $0.contains("Fatal error") || $0.contains("overflow") || $0.contains("error:") }.prefix(3).joined(separator: "\n")
            if hung { findings.hangs.append(line) } else { findings.crashes.append(line) }
            // Keep the counts of the cases the child finished before its last checkpoint, and
            // run the rest again from there, without the dead case.
            dead.append(index)
            let checkpoint = work.appendingPathComponent("checkpoint.json")
            if let data = try? Data(contentsOf: checkpoint), let report = try? JSONDecoder().decode(FuzzRunner.Report.self, from: data) {
                merge(report, into: &findings.report)
                next = report.next
            } else {
                next = index + 1
            }
            if findings.crashes.count + findings.hangs.count >= 25 { break }
        }
        return findings
    }

    static func merge(_ r: FuzzRunner.Report, into total: inout FuzzRunner.Report) {
        total.cases += r.cases
        total.successes += r.successes
        total.clearErrors += r.clearErrors
        for (k, v) in r.exitCodes { total.exitCodes[k, default: 0] += v }
        for (k, v) in r.bySeed { total.bySeed[k, default: 0] += v }
        if r.slowestCPU > total.slowestCPU { total.slowestCPU = r.slowestCPU; total.slowestCPUCase = r.slowestCPUCase }
        total.slowestWall = max(total.slowestWall, r.slowestWall)
        if r.largestCaseGrowthBytes > total.largestCaseGrowthBytes {
            total.largestCaseGrowthBytes = r.largestCaseGrowthBytes
            total.largestCaseGrowthCase = r.largestCaseGrowthCase
        }
        total.maxResidentBytes = max(total.maxResidentBytes, r.maxResidentBytes)
        if r.residentAfterWarmUp > 0 {
            total.residentAfterWarmUp = max(total.residentAfterWarmUp, r.residentAfterWarmUp)
            total.residentAtEnd = max(total.residentAtEnd, r.residentAtEnd)
        }
        total.elapsedSeconds += r.elapsedSeconds
        total.violationCount += r.violationCount
        total.violations += r.violations.prefix(max(0, 50 - total.violations.count))
    }
}
