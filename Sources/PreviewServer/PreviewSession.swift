import ReelApplication
import CompositionGraph
import FileSafety
import Foundation
import MediaIO
import ProjectFile
import RenderEngine
import Synchronization
import TimelinePage

/// The project as the page sees it: loads it, watches every file it reads, and on a change
/// loads it again and makes a new generation (keeping the last good one while the project
/// has problems, whose diagnostics the page then shows). Var values set on the page load it
/// again the same way, without touching the file.
final class PreviewSession: Sendable {
    let configuration: PreviewConfiguration
    let pieces: PieceScheduler
    private let state: Mutex<State>
    /// Whether `stop()` has finished; held while it stops.
    private let finished = Mutex(false)
    private let reloads = DispatchQueue(label: "reel.preview.reload")
    /// The stills' open readers, handed from each generation to the next.
    private let readers = ReaderShelf()

    private struct State {
        var current: PreviewGeneration?
        var timelines: [Int: String] = [:]
        var page: PageState
        var pageVars: [VarOverride] = []
        var playhead = 0
        var reloadScheduled = false
        var stopped = false
        var watcher: FileWatcher?
    }

    init(_ configuration: PreviewConfiguration) {
        self.configuration = configuration
        state = Mutex(State(page: PageState(project: configuration.projectPath)))
        pieces = PieceScheduler(log: configuration.log)
    }

    /// Starts loading the project for the first time, and watching it. Returns at once: a
    /// load may wait on the network (remote media), and the page shows the project once it is
    /// loaded.
    func start() {
        // Hours of edits, each a new generation with its own decoders, encoders and frame
        // pools: what one frees must go back to the kernel, not stay in the heaps.
        HeapPolicy.releaseFreedMemory()
        let watcher = FileWatcher { [weak self] in self?.scheduleReload("a file changed") }
        state.withLock { $0.watcher = watcher }
        reloads.async { [self] in reload("loaded") }
    }

    /// Stops watching and rendering; returns once no render is running (their temporary
    /// files are removed by then).
    /// Safe to call more than once and from any thread: every call returns once stopped.
    func stop() {
        finished.withLock { finished in
            let (generation, watcher) = state.withLock { state in
                state.stopped = true
                return (state.current, state.watcher)
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

    var isStopped: Bool { state.withLock { $0.stopped } }

    var snapshot: PageState { state.withLock { $0.page } }

    /// The generation whose frames and pieces the page may ask for: the current one only.
    func generation(_ number: Int) -> PreviewGeneration? {
        state.withLock { $0.current?.number == number ? $0.current : nil }
    }

    /// The generation with the piece whose key is `key`.
    func piece(key: String) -> (PreviewGeneration, Int)? {
        state.withLock { state in
            guard let current = state.current, let segment = current.segments.first(where: { $0.key == key }) else { return nil }
            return (current, segment.index)
        }
    }

    /// The timeline page of generation `number` (made once).
    func timeline(_ number: Int) -> String? {
        guard let generation = generation(number) else { return nil }
        if let page = state.withLock({ $0.timelines[number] }) { return page }
        let page = TimelinePage.html(for: generation.graph, title: configuration.projectPath) { _, _ in nil }
        state.withLock { $0.timelines = [number: page] }
        return page
    }

    /// The page's var values (names it does not mention keep theirs); loads the project again.
    func setVars(_ values: [String: String]) {
        state.withLock { state in
            state.pageVars.removeAll { values[$0.name] != nil }
            for name in values.keys.sorted() {
                state.pageVars.append(VarOverride(name: name, input: .text(values[name]!), location: .commandLine("the page's form")))
            }
        }
        scheduleReload("vars set on the page")
    }

    /// The page's playhead is in segment `index`: make the pieces from there on ahead of time.
    func playhead(segment index: Int) {
        guard let generation = state.withLock({ state -> PreviewGeneration? in
            state.playhead = index
            return state.current
        }), generation.segments.indices.contains(index) else { return }
        pieces.prefetch(generation, from: index)
    }

    private func scheduleReload(_ reason: String) {
        let first: Bool = state.withLock { state in
            defer { state.reloadScheduled = true }
            return !state.reloadScheduled && !state.stopped
        }
        guard first else { return }
        reloads.async { [self] in
            state.withLock { $0.reloadScheduled = false }
            reload(reason)
        }
    }

    private func reload(_ reason: String) {
        let started = DispatchTime.now()
        let (previous, stopped, watcher) = state.withLock { ($0.current, $0.stopped, $0.watcher) }
        guard !stopped else { return }
        do {
            let (loaded, given) = try configuration.load(pageVars: try pageVarsForTheFile())
            let stills = try StillFrames(graph: loaded.graph, fitting: configuration.size, readers: readers)
            let next = try PreviewGeneration(number: (previous?.number ?? 0) + 1, graph: loaded.graph, stills: stills,
                                             cacheFolder: configuration.cacheFolder)
            previous?.stills.handOverReaders()
            let list = PreviewVar.list(document: loaded.document.root, overrides: given)
            let from = state.withLock { state in
                state.current = next
                state.page.show(next, vars: list, warnings: loaded.warnings.isEmpty ? nil : ErrorText.warnings(loaded))
                return min(state.playhead, next.segments.count - 1)
            }
            previous?.playback.cancel()
            watcher?.watch(configuration.inputFiles + loaded.graph.readFiles().map(\.path))
            pieces.prefetch(next, from: max(0, from))
            let oldKeys = Set(previous?.segments.map(\.key) ?? [])
            let changed = next.segments.filter { !oldKeys.contains($0.key) }.count
            configuration.log("\(reason): \(changed) of \(next.segments.count) segments to render, ready in \(Self.seconds(since: started))")
        } catch {
            let text = ErrorText.message(for: error)
            state.withLock { $0.page.fail(text) }
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
        // Without values from the page there is nothing to check (and no second read of a big file).
        guard !state.withLock({ $0.pageVars.isEmpty }) else { return [] }
        guard let root = try? DocumentLoader.load(path: configuration.projectPath).root else { return state.withLock { $0.pageVars } }
        let declared = VarsSubstitution(document: root)
        let vars = state.withLock { state in
            state.pageVars.removeAll { declared.declaration($0.name) == nil }
            return state.pageVars
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
