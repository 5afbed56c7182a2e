import CompositionGraph
import Foundation
import MediaTime
import ProjectCompiler
import ProjectFile
import TestSupport

/// Runs generated cases through the real front end (`ProjectPipeline.load` from a file, with
/// the examples' media faked by name and a small font catalogue) and checks the properties of
/// every outcome. Meant to run in a process of its own (`FuzzTests` starts one): a crash ends
/// that process, and the file `current` tells which case it was.
struct FuzzRunner {
    struct Settings {
        var seed: UInt64
        var first: Int
        var count: Int
        /// Cases not to run (they killed an earlier child).
        var skip: Set<Int> = []
        /// Thread CPU time a case may take.
        var caseBudget = 2.0
        /// Wall time after which a case counts as hung and the process stops.
        var hangAfter = 30.0
        /// Folder for the case files, the `current` marker and the report.
        var work: URL
    }

    /// The outcome of a run, written as JSON for the parent process.
    struct Report: Codable {
        var seed: UInt64 = 0
        var first = 0
        var cases = 0
        var successes = 0
        var clearErrors = 0
        var exitCodes: [String: Int] = [:]
        var hangs = 0
        var slowestCPU = 0.0
        var slowestCPUCase = -1
        var slowestWall = 0.0
        var largestCaseGrowthBytes = 0
        var largestCaseGrowthCase = -1
        var residentAfterWarmUp = 0
        var residentAtEnd = 0
        var maxResidentBytes = 0
        var elapsedSeconds = 0.0
        /// Property violations: case index, recipe, what was wrong (at most 50 kept).
        var violations: [String] = []
        var violationCount = 0
        var bySeed: [String: Int] = [:]
        /// The first case not yet run (for checkpoints).
        var next = 0
    }

    let settings: Settings
    let mutator: ProjectMutator
    /// Per seed folder, the folder the case is written into (its neighbours linked in).
    private let caseFolders: [String: URL]

    init(settings: Settings) throws {
        self.settings = settings
        let seeds = try Self.loadSeeds()
        mutator = ProjectMutator(seeds: seeds)
        var folders: [String: URL] = [:]
        let fm = FileManager.default
        for seed in seeds where folders[seed.folder.path] == nil {
            let mirror = settings.work.appendingPathComponent("tree").appendingPathComponent(
                String(seed.folder.path.dropFirst(repositoryRoot.path.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/")))
            try fm.createDirectory(at: mirror, withIntermediateDirectories: true)
            for entry in try fm.contentsOfDirectory(atPath: seed.folder.path) where !["yaml", "yml", "json"].contains((entry as NSString).pathExtension) {
                let link = mirror.appendingPathComponent(entry)
                if !fm.fileExists(atPath: link.path) {
                    try fm.createSymbolicLink(at: link, withDestinationURL: seed.folder.appendingPathComponent(entry))
                }
            }
            folders[seed.folder.path] = mirror
        }
        caseFolders = folders
    }

    /// The examples (`Examples/**/*.yaml|json`) and the fixtures of the loader and the compiler.
    static func loadSeeds() throws -> [FuzzSeed] {
        let fm = FileManager.default
        var files: [URL] = []
        for folder in ["Examples", "Tests/ProjectCompilerTests/Fixtures/invalid", "Tests/ProjectFileTests/Fixtures/valid",
                       "Tests/ProjectFileTests/Fixtures/invalid"] {
            let root = repositoryRoot.appendingPathComponent(folder)
            guard let walker = fm.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where ["yaml", "json"].contains(url.pathExtension) { files.append(url) }
        }
        files.sort { $0.path < $1.path }
        return try files.map { url in
            let bytes = try [UInt8](Data(contentsOf: url))
            let tree = try? DocumentLoader.load(path: url.path).root
            let compiles = (try? ProjectPipeline.load(path: url.path, media: FakeMediaFacts.promo, fonts: FakeFonts())) != nil
            return FuzzSeed(name: String(url.path.dropFirst(repositoryRoot.path.count + 1)), folder: url.deletingLastPathComponent(),
                            fileExtension: url.pathExtension, bytes: bytes, tree: tree, compiles: compiles)
        }
    }

    func generate(_ index: Int) -> FuzzCase {
        var random = FuzzRandom(seed: settings.seed, case: index)
        return mutator.makeCase(&random)
    }

    /// Where case `index` is written (beside its seed's neighbours).
    func casePath(_ c: FuzzCase) -> String {
        let folder = caseFolders[seedFolder(of: c)] ?? settings.work
        return folder.appendingPathComponent("case.\(c.fileExtension)").path
    }

    private func seedFolder(of c: FuzzCase) -> String {
        mutator.seeds.first { $0.name == c.recipe.first }?.folder.path ?? ""
    }

    // MARK: Running

    func run() throws -> Report {
        var report = Report()
        report.seed = settings.seed
        report.first = settings.first
        let marker = settings.work.appendingPathComponent("current")
        let watchdog = Watchdog(hangAfter: settings.hangAfter, marker: marker)
        watchdog.start()
        let runStart = Date()
        let media = FakeMediaFacts.promo, fonts = FakeFonts()
        let checkpoint = settings.work.appendingPathComponent("checkpoint.json")
        for index in settings.first..<(settings.first + settings.count) where !settings.skip.contains(index) {
            if report.cases % 100 == 0 {
                // So that the parent keeps the counts of the cases run before a crash.
                report.next = index
                try JSONEncoder().encode(report).write(to: checkpoint)
            }
            let c = generate(index)
            let path = casePath(c)
            try Data(c.bytes).write(to: URL(fileURLWithPath: path))
            let overrides = c.overrides.map { VarOverride(name: $0.name, input: .text($0.value), location: .commandLine("--set")) }
            try "\(settings.seed) \(index)\n".write(to: marker, atomically: false, encoding: .utf8)

            let residentBefore = Memory.residentBytes()
            let load = { () -> Timed in
                watchdog.begin(index)
                defer { watchdog.end() }
                return Self.timedLoad(path: path, overrides: overrides, media: media, fonts: fonts)
            }
            let (outcome, rendered, firstCPU, wall) = load()
            let growth = Memory.residentBytes() - residentBefore
            // A case over its budget is timed twice more and judged by its fastest run: on a
            // shared host a thread's CPU time grows when another machine's work shares its core
            // (case 584 of the default run: 1.07–1.29 s, once 2.04 s with its wall time twice that).
            var cpu = firstCPU
            if cpu > settings.caseBudget { for _ in 0..<2 { cpu = min(cpu, load().cpu) } }

            report.cases += 1
            report.bySeed[c.recipe.first ?? "?", default: 0] += 1
            var problems: [String] = []
            switch outcome {
            case .success(let loaded):
                report.successes += 1
                report.exitCodes["0", default: 0] += 1
                let broken = loaded.graph.checkInvariants()
                if !broken.isEmpty { problems.append("compiled graph breaks its invariants: \(broken.prefix(3))") }
            case .failure(let error):
                report.clearErrors += 1
                report.exitCodes[String(Self.exitStatus(error)), default: 0] += 1
                problems += Self.check(error, rendered: rendered, path: path, bytes: c.bytes, hasOverrides: !c.overrides.isEmpty)
            }
            if cpu > settings.caseBudget { problems.append(String(format: "took %.2f s of CPU at best of 3 runs (budget %.1f s)", cpu, settings.caseBudget)) }
            if cpu > report.slowestCPU { report.slowestCPU = cpu; report.slowestCPUCase = index }
            report.slowestWall = max(report.slowestWall, wall)
            if growth > report.largestCaseGrowthBytes { report.largestCaseGrowthBytes = growth; report.largestCaseGrowthCase = index }
            if index - settings.first == min(200, settings.count - 1) { report.residentAfterWarmUp = Memory.trimmedResidentBytes() }
            if !problems.isEmpty {
                report.violationCount += 1
                if report.violations.count < 50 {
                    report.violations.append("case \(index) [\(c.recipe.joined(separator: "; "))]: \(problems.joined(separator: "; "))")
                }
            }
        }
        report.next = settings.first + settings.count
        report.residentAtEnd = Memory.trimmedResidentBytes()
        report.maxResidentBytes = Memory.maxResidentBytes()
        report.elapsedSeconds = Date().timeIntervalSince(runStart)
        try? FileManager.default.removeItem(at: marker)
        return report
    }

    /// A case's outcome, its rendered message or listing, and the CPU and wall time they took.
    typealias Timed = (outcome: Result<ProjectPipeline.Loaded, ProjectError>, rendered: String, cpu: Double, wall: Double)

    static func timedLoad(path: String, overrides: [VarOverride], media: FakeMediaFacts, fonts: FakeFonts) -> Timed {
        let cpuStart = threadCPUSeconds(), wallStart = Clock.wall()
        let outcome: Result<ProjectPipeline.Loaded, ProjectError>
        do {
            outcome = .success(try ProjectPipeline.load(path: path, overrides: overrides, media: media, fonts: fonts))
        } catch {
            outcome = .failure(error)
        }
        // The rendered message is part of the outcome: it quotes lines and places carets.
        let rendered: String
        switch outcome {
        case .success(let loaded): rendered = loaded.graph.listing
        case .failure(let error): rendered = error.description
        }
        return (outcome, rendered, threadCPUSeconds() - cpuStart, Clock.wall() - wallStart)
    }

    /// The exit status `reel` gives the error's category (README; `reel/Failure.swift`).
    static func exitStatus(_ error: ProjectError) -> Int32 {
        switch error.category {
        case .usage: 64
        case .invalidProject: 65
        case .missingFile: 66
        case .unavailable: 75
        case .cannotWrite: 73
        case .cancelled: 130
        }
    }

    /// The properties of an error: an exit status of 64, 65 or 66, at least one diagnostic, and
    /// every diagnostic at a real place: in the case file at a line and column that exist
    /// (columns count Unicode scalars; one past the end of a line is the end of the line),
    /// or, for a value given with --set, at `--set`. The rendered text names each place.
    static func check(_ error: ProjectError, rendered: String, path: String, bytes: [UInt8], hasOverrides: Bool) -> [String] {
        var problems: [String] = []
        if ![64, 65, 66].contains(Self.exitStatus(error)) { problems.append("exit status \(Self.exitStatus(error))") }
        if error.diagnostics.isEmpty { problems.append("an error without diagnostics") }
        let lineLengths = Self.lineLengths(bytes)
        for d in error.diagnostics {
            let l = d.location
            if l.file == "--set" && hasOverrides && l.line == 0 { continue }
            guard l.file == path else { problems.append("diagnostic in '\(l.file)', not the project file: \(d.message)"); continue }
            guard l.line >= 1, l.column >= 1 else { problems.append("diagnostic at \(l.line):\(l.column): \(d.message)"); continue }
            guard l.line <= lineLengths.count else {
                problems.append("diagnostic at line \(l.line) of \(lineLengths.count): \(d.message)")
                continue
            }
            if l.column > lineLengths[l.line - 1] + 1 {
                problems.append("diagnostic at \(l.line):\(l.column), the line has \(lineLengths[l.line - 1]) characters: \(d.message)")
            }
            if !rendered.contains("\(path):\(l.line):\(l.column): \(d.severity.rawValue): ") { problems.append("rendered text lacks \(l): \(d.message)") }
        }
        return problems
    }

    /// Unicode scalars per line, lines broken at `\n`, `\r\n` or `\r` (as `TextPosition`);
    /// bytes that are not UTF-8 count one each.
    static func lineLengths(_ bytes: [UInt8]) -> [Int] {
        var lengths: [Int] = []
        var count = 0
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") {
                lengths.append(count)
                count = 0
                if b == UInt8(ascii: "\r"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\n") { i += 1 }
            } else if b & 0xC0 != 0x80 {
                count += 1
            }
            i += 1
        }
        lengths.append(count)
        return lengths
    }
}

/// Stops the process when a case runs longer than `hangAfter` seconds of wall time: the
/// `current` marker stays behind naming the case, and the exit status says it hung.
final class Watchdog: @unchecked Sendable {
    static let hangStatus: Int32 = 86
    private let hangAfter: Double
    private let marker: URL
    private let lock = NSLock()
    private var started: Double?
    private var index = -1

    init(hangAfter: Double, marker: URL) {
        self.hangAfter = hangAfter
        self.marker = marker
    }

    func start() {
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 0.1)
                let (since, index) = lock.withLock { (started, self.index) }
                if let since, Clock.wall() - since > hangAfter {
                    try? "hang \(index)\n".write(to: marker.appendingPathExtension("hang"), atomically: true, encoding: .utf8)
                    _exit(Self.hangStatus)
                }
            }
        }
        thread.start()
    }

    func begin(_ index: Int) { lock.withLock { started = Clock.wall(); self.index = index } }
    func end() { lock.withLock { started = nil } }
}

enum Clock {
    static func wall() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
