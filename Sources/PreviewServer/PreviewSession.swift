import ReelApplication
import CompositionGraph
import FileSafety
import Foundation
import MediaIO
import ProjectFile
import RenderEngine
import TimelinePage

/// The project as the page sees it: loads it, watches every file it reads, and on a change
/// loads it again and makes a new generation (keeping the last good one while the project
/// has problems, whose diagnostics the page then shows). Var values set on the page load it
/// again the same way, without touching the file.
final class PreviewSession: @unchecked Sendable {
    let configuration: PreviewConfiguration
    let pieces: PieceScheduler
    private let lock = NSLock()
    private var current: PreviewGeneration?
    private var timelines: [Int: String] = [:]
    private var state: PageState
    private var pageVars: [VarOverride] = []
    private var playhead = 0
    private var reloadScheduled = false
    private var stopped = false
    private let stopping = NSLock()
    private var finished = false
    private let reloads = DispatchQueue(label: "reel.preview.reload")
    private var watcher: FileWatcher?
    /// The stills' open readers, handed from each generation to the next.
    private let readers = ReaderShelf()

    init(_ configuration: PreviewConfiguration) {
        self.configuration = configuration
        state = PageState(project: configuration.projectPath)
        pieces = PieceScheduler(log: configuration.log)
    }

    /// Starts loading the project for the first time, and watching it. Returns at once: a
    /// load may wait on the network (remote media), and the page shows the project once it is
    /// loaded.
    func start() {
        // Hours of edits, each a new generation with its own decoders, encoders and frame
        // pools: what one frees must go back to the kernel, not stay in the heaps.
        HeapPolicy.releaseFreedMemory()
        watcher = FileWatcher { [weak self] in self?.scheduleReload("a file changed") }
        reloads.async { [self] in reload("loaded") }
    }

    /// Stops watching and rendering; returns once no render is running (their temporary
    /// files are removed by then).
    /// Safe to call more than once and from any thread: every call returns once stopped.
    func stop() {
        stopping.withLock {
            let generation: PreviewGeneration? = lock.withLock {
                stopped = true
                return current
            }
            guard !finished else { return }
            // A fetch under way, or one a load is about to start, ends now.
            configuration.workspace.remote.cancel()
            watcher?.stop()
            generation?.playback.cancel()
            pieces.stop()
            reloads.sync {}
            finished = true
        }
    }

    var isStopped: Bool { lock.withLock { stopped } }

    var snapshot: PageState { lock.withLock { state } }

    /// The generation whose frames and pieces the page may ask for: the current one only.
    func generation(_ number: Int) -> PreviewGeneration? {
        lock.withLock { current?.number == number ? current : nil }
    }

    /// The generation with the piece whose key is `key`.
    func piece(key: String) -> (PreviewGeneration, Int)? {
        lock.withLock {
            guard let current, let segment = current.segments.first(where: { $0.pieceKey == key }) else { return nil }
            return (current, segment.index)
        }
    }

    /// The timeline page of generation `number` (made once).
    func timeline(_ number: Int) -> String? {
        guard let generation = generation(number) else { return nil }
        if let page = lock.withLock({ timelines[number] }) { return page }
        let page = TimelinePage.html(for: generation.graph, title: configuration.projectPath) { _, _ in nil }
        lock.withLock { timelines = [number: page] }
        return page
    }

    /// The page's var values (names it does not mention keep theirs); loads the project again.
    func setVars(_ values: [String: String]) {
        lock.withLock {
            pageVars.removeAll { values[$0.name] != nil }
            for name in values.keys.sorted() {
                pageVars.append(VarOverride(name: name, input: .text(values[name]!), location: .commandLine("the page's form")))
            }
        }
        scheduleReload("vars set on the page")
    }

    /// The page's playhead is in segment `index`: make the pieces from there on ahead of time.
    func playhead(segment index: Int) {
        guard let generation = lock.withLock({ () -> PreviewGeneration? in
            playhead = index
            return current
        }), generation.segments.indices.contains(index) else { return }
        pieces.prefetch(generation, from: index)
    }

    private func scheduleReload(_ reason: String) {
        let first: Bool = lock.withLock {
            defer { reloadScheduled = true }
            return !reloadScheduled && !stopped
        }
        guard first else { return }
        reloads.async { [self] in
            lock.withLock { reloadScheduled = false }
            reload(reason)
        }
    }

    private func reload(_ reason: String) {
        let started = DispatchTime.now()
        let (previous, stopped) = lock.withLock { (current, self.stopped) }
        guard !stopped else { return }
        do {
            let (loaded, given) = try configuration.load(pageVars: try pageVarsForTheFile())
            let next = try PreviewGeneration(number: (previous?.number ?? 0) + 1, graph: loaded.graph, stillSize: configuration.size,
                                             cacheFolder: configuration.cacheFolder, readers: readers)
            previous?.stills.handOverReaders()
            let list = PreviewVar.list(document: loaded.document.root, overrides: given)
            let from = lock.withLock {
                current = next
                state.show(next, vars: list, warnings: loaded.warnings.isEmpty ? nil : ErrorText.warnings(loaded))
                return min(playhead, next.segments.count - 1)
            }
            previous?.playback.cancel()
            watcher?.watch(configuration.inputFiles + loaded.graph.readFiles().map(\.path))
            pieces.prefetch(next, from: max(0, from))
            let oldKeys = Set(previous?.segments.map(\.pieceKey) ?? [])
            let changed = next.segments.filter { !oldKeys.contains($0.pieceKey) }.count
            configuration.log("\(reason): \(changed) of \(next.segments.count) segments to render, ready in \(Self.seconds(since: started))")
        } catch {
            let text = ErrorText.message(for: error)
            lock.withLock { state.fail(text) }
            if previous == nil { watcher?.watch(configuration.inputFiles) }
            let count = (error as? ProjectError)?.diagnostics.count ?? 1
            configuration.log("\(reason): the project has \(count) problem\(count == 1 ? "" : "s"), shown on the page; the last good picture stays")
        }
    }

    /// The page's var values for the project file as it is now. Values of vars it no longer
    /// declares (renamed, removed) are forgotten, so they do not fail every load until a
    /// restart; the others must keep to `PageVarRule`, else the load fails with the page's form
    /// as their place. A file that cannot be read keeps them all (loading it says why).
    private func pageVarsForTheFile() throws(ProjectError) -> [VarOverride] {
        guard let root = try? DocumentLoader.load(path: configuration.projectPath).root else { return lock.withLock { pageVars } }
        let declared = VarsSubstitution(document: root)
        let vars = lock.withLock {
            pageVars.removeAll { declared.declaration($0.name) == nil }
            return pageVars
        }
        let folder = PageVarRule.resolved(URL(fileURLWithPath: configuration.projectPath).deletingLastPathComponent().path, in: "/")
        let problems = vars.compactMap { given -> Diagnostic? in
            guard let declaration = declared.declaration(given.name), let text = given.text,
                  let problem = PageVarRule.problem(text, declaration: declaration, folder: folder) else { return nil }
            return Diagnostic(location: given.location, path: "vars", message: "var '\(given.name)' set on the page \(problem)",
                              hint: "to use it anyway, give it when starting the preview"
                                  + (configuration.setOption.map { " (\($0) \(given.name)=…)" } ?? "") + " or make it the var's default")
        }
        guard problems.isEmpty else { throw ProjectError(.invalidProject, diagnostics: problems) }
        return vars
    }

    private static func seconds(since start: DispatchTime) -> String {
        String(format: "%.2f s", Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
    }
}
