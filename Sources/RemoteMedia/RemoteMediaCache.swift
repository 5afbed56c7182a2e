import AtomicFiles
import Foundation
import ProjectCompiler
import Synchronization

/// The local cache of `http(s)://` media: each URL is fetched once into a content-addressed
/// file, and the render reads that file, so the output depends on the bytes fetched, not on the
/// network.
///
/// The rule for fetching again: the first time a process needs a URL it asks the server with a
/// conditional GET (If-None-Match with the cached ETag, If-Modified-Since with the cached
/// Last-Modified); 304 keeps the cached copy, 200 replaces it. Later uses in the same process
/// (`reel preview` reloading) take the copy without asking. Offline, only the cache is used.
public final class RemoteMediaCache: RemoteMediaLocator {
    public let settings: RemoteMediaSettings
    private let report: @Sendable (FetchEvent) -> Void
    private let interruptions: @Sendable (_ cancel: @escaping @Sendable () -> Void) -> AnyObject?
    /// Held through a fetch, so a URL is fetched once however many threads ask for it.
    private let fetches = Mutex(Fetches())
    private let cancellation = Cancellation()

    /// What this process has fetched.
    private struct Fetches {
        /// URL → local file, for the URLs this process has resolved.
        var resolved: [String: String] = [:]
        var sweptDownloads = false
        /// Where fetched files go once the cache folder has failed: a folder of this process's own.
        var scratch: String?
    }

    /// Temporary downloads are named `.download-UUID` in the cache folder.
    static let downloadPrefix = ".download-"

    /// `interruptions` is called as a fetch starts, with the way to cancel it; what it returns
    /// (the command line's signal handler) is kept until the fetch ends.
    public init(settings: RemoteMediaSettings, report: @escaping @Sendable (FetchEvent) -> Void = { _ in },
                interruptions: @escaping @Sendable (_ cancel: @escaping @Sendable () -> Void) -> AnyObject? = { _ in nil }) {
        self.settings = settings
        self.report = report
        self.interruptions = interruptions
    }

    public func localCopy(of url: String) throws(RemoteMediaFailure) -> String {
        try fetches.withLock { fetches throws(RemoteMediaFailure) in
            if let path = fetches.resolved[url], FileManager.default.fileExists(atPath: path) { return path }
            let path = try settings.offline ? cachedCopy(of: url) : fetch(url, &fetches)
            fetches.resolved[url] = path
            return path
        }
    }

    /// Stops the fetch under way and every later one (`RemoteMediaFailure.Kind.cancelled`):
    /// its download is removed. Safe from any thread.
    public func cancel() { cancellation.cancel() }

    /// Offline: the cached copy, or an error saying there is none.
    private func cachedCopy(of url: String) throws(RemoteMediaFailure) -> String {
        let key = RemoteURL.indexKey(url)
        let path = try withIndex { index throws(CacheFailure) -> String? in
            guard let entry = index.entry(for: key) else { return nil }
            index.touch(key)
            return index.path(of: entry)
        }
        guard let path else {
            throw RemoteMediaFailure(.notFound, "\(RemoteURL.redacted(url)) is not in the media cache (\(settings.folder)), and \(settings.offlineSwitch) forbids fetching it",
                                     hint: "run once without \(settings.offlineSwitch) (and without REEL_OFFLINE) to fetch it")
        }
        return path
    }

    /// Online: a conditional GET when there is a cached copy, a plain one otherwise, with
    /// retries, all within the deadline.
    private func fetch(_ url: String, _ fetches: inout Fetches) throws(RemoteMediaFailure) -> String {
        let shown = RemoteURL.redacted(url)
        guard let address = URL(string: url) else { throw RemoteMediaFailure(.notFound, "'\(shown)' is not a valid URL") }
        let key = RemoteURL.indexKey(url)
        let cached = try cachedEntry(key, &fetches.scratch)
        let folder = fetches.scratch ?? settings.folder
        if !fetches.sweptDownloads && fetches.scratch == nil {
            fetches.sweptDownloads = true
            // Downloads a killed process left (unlocked, and older than a minute).
            TemporaryFile.removeAbandoned(in: folder, prefix: Self.downloadPrefix, olderThan: 60)
        }
        let interruption = interruptions { [weak self] in self?.cancel() }
        defer { withExtendedLifetime(interruption) {} }
        let deadline = ProcessInfo.processInfo.systemUptime + settings.deadline
        let limits = HTTPDownload.Limits(idleTimeout: settings.idleTimeout, minimumRate: settings.minimumRate, maxBytes: settings.maxDownloadBytes,
                                         deadline: deadline, deadlineSeconds: settings.deadline)
        var attempt = 1
        while true {
            let download = HTTPDownload(url: url, limits: limits, cached: cached?.validators, folder: folder, prefix: Self.downloadPrefix,
                                        addressPolicy: settings.addressPolicy,
                                        isCancelled: { [cancellation] in cancellation.isCancelled }) { [report] received, expected in
                report(.progress(url: shown, received: received, expected: expected))
            }
            report(.started(url: shown, conditional: cached != nil))
            let outcome: HTTPDownload.Outcome
            do {
                outcome = try download.run()
            } catch {
                let delay = settings.firstBackoff * Double(1 << (attempt - 1))
                guard error.retryable, attempt < settings.attempts, ProcessInfo.processInfo.systemUptime + delay < deadline else {
                    throw failure(error, url: shown, attempts: attempt)
                }
                report(.retrying(url: shown, reason: Self.describe(error), delay: delay))
                if cancellation.wait(delay) { throw failure(.cancelled, url: shown, attempts: attempt) }
                attempt += 1
                continue
            }
            switch outcome {
            case .notModified:
                report(.notModified(url: shown))
                return try withIndex { index throws(CacheFailure) in
                    index.touch(key)
                    return index.path(of: cached!)
                }
            case .fetched(let body):
                report(.fetched(url: shown, bytes: body.size))
                return try store(body, for: key, fileExtension: address.pathExtension, fetches)
            }
        }
    }

    /// The cache's entry for `key`, if any. When the cache folder cannot be used, the run goes
    /// on without it (warned once): its fetches go to a folder of its own, removed at exit.
    private func cachedEntry(_ key: String, _ scratch: inout String?) throws(RemoteMediaFailure) -> CacheIndex.Entry? {
        guard scratch == nil else { return nil }
        do {
            return try CacheIndex.withLocked(folder: settings.folder) { index throws(CacheFailure) in index.entry(for: key) }
        } catch {
            guard let folder = ScratchFolder.path else { throw RemoteMediaFailure(.unavailable, error.message, hint: Self.folderHint) }
            scratch = folder
            report(.cacheUnusable(reason: error.message, instead: folder))
            return nil
        }
    }

    public static let folderHint = "set REEL_MEDIA_CACHE_DIR to a writable folder"

    /// Moves a fetched body into the folder under its content's name and indexes it (under
    /// `key`); without the cache, only moves it into the scratch folder.
    private func store(_ body: HTTPDownload.Body, for key: String, fileExtension: String, _ fetches: Fetches) throws(RemoteMediaFailure) -> String {
        let ext = fileExtension.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } && !fileExtension.isEmpty && fileExtension.count <= 8
            ? "." + fileExtension.lowercased() : ""
        if let scratch = fetches.scratch {
            let path = scratch + "/" + body.sha256 + ext
            do { try body.file.commit(to: path, sync: false) } catch {
                throw RemoteMediaFailure(.unavailable, "cannot move the download into \(path): \(error.reason)")
            }
            return path
        }
        let entry = CacheIndex.Entry(file: body.sha256 + ext, size: body.size, validators: body.validators,
                                     lastUsed: Date().timeIntervalSince1970)
        let keep = Set(fetches.resolved.keys.map(RemoteURL.indexKey)).union([key])
        let maxBytes = settings.maxBytes
        return try withIndex { index throws(CacheFailure) -> String in
            let path = index.path(of: entry)
            if FileManager.default.fileExists(atPath: path) {
                body.file.discard()
            } else {
                do throws(FileWriteError) { try body.file.commit(to: path, sync: false) } catch {
                    throw CacheFailure("cannot move the download into \(path): \(error.reason)")
                }
            }
            index.set(entry, for: key)
            index.evict(toFit: maxBytes, keep: keep)
            return path
        }
    }

    private func withIndex<T>(_ body: (inout CacheIndex) throws(CacheFailure) -> T) throws(RemoteMediaFailure) -> T {
        do {
            return try CacheIndex.withLocked(folder: settings.folder, body)
        } catch {
            throw RemoteMediaFailure(.unavailable, error.message, hint: Self.folderHint)
        }
    }

    private func failure(_ error: HTTPDownload.Failure, url: String, attempts: Int) -> RemoteMediaFailure {
        let tries = attempts > 1 ? " (\(attempts) attempts)" : ""
        let message = "\(url): \(Self.describe(error))"
        switch error {
        case .status(let code) where (400..<500).contains(code) && code != 408 && code != 429:
            return RemoteMediaFailure(.notFound, message, hint: code == 404 || code == 410 ? "check the URL" : "check the URL and whether it needs access rights")
        case .cancelled:
            return RemoteMediaFailure(.cancelled, message)
        case .redirectedAway, .tooManyRedirects:
            return RemoteMediaFailure(.unusable, message, hint: "give the http(s) URL of the file itself; open the URL in a browser to see where it leads")
        case .webPage:
            return RemoteMediaFailure(.unusable, message,
                                      hint: "give the URL of the media file itself (on a sharing site, its download link), not of the page that shows it")
        case .tooLarge:
            return RemoteMediaFailure(.unusable, message, hint: "use a smaller file, or raise REEL_FETCH_MAX")
        case .refusedAddress:
            return RemoteMediaFailure(.unusable, message, hint: "media come from public addresses here; give a URL on the internet")
        case .deadline:
            return RemoteMediaFailure(.unavailable, message + tries, hint: "raise REEL_FETCH_DEADLINE, or try again on a faster connection")
        default:
            return RemoteMediaFailure(.unavailable, message + tries, hint: "try again later; \(settings.offlineSwitch) renders from the cached copy if there is one")
        }
    }

    static func describe(_ error: HTTPDownload.Failure) -> String {
        switch error {
        case .status(let code): "the server answered HTTP \(code)" + (HTTPStatus.reason(code).isEmpty ? "" : " " + HTTPStatus.reason(code))
        case .timedOut(let seconds): "no data for \(Self.seconds(seconds)) s (timed out)"
        case .tooSlow(let rate, let seconds):
            "fewer than \(rate) bytes a second came over \(Self.seconds(seconds)) s (REEL_FETCH_MIN_RATE sets the minimum)"
        case .deadline(let seconds): "not fetched within \(Self.seconds(seconds)) s (REEL_FETCH_DEADLINE sets it)"
        case .truncated(let received, let expected): "the body ended after \(received) of its \(expected) bytes (truncated)"
        case .transport(let reason): reason
        case .cannotWrite(let reason): reason
        case .tooLarge(let limit): "it is larger than the download limit of \(limit) bytes (REEL_FETCH_MAX sets it)"
        case .redirectedAway(let target): "it redirects to \(target), and Reel fetches only http:// and https:// URLs"
        case .tooManyRedirects(let limit): "it redirects more than \(limit) times (a redirect loop)"
        case .webPage(let type): "it gives a web page (Content-Type: \(type)), not a media file"
        case .refusedAddress(let refused): "refused: \(refused)"
        case .cancelled: "the fetch was cancelled"
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// What a fetch is doing, for a progress line.
public enum FetchEvent: Sendable {
    case started(url: String, conditional: Bool)
    case progress(url: String, received: Int64, expected: Int64?)
    case notModified(url: String)
    case fetched(url: String, bytes: Int64)
    case retrying(url: String, reason: String, delay: Double)
    /// The cache folder cannot be used (`reason`): this run fetches into `instead`, removed
    /// when it ends.
    case cacheUnusable(reason: String, instead: String)

    /// What a log says of the event: one line (a live progress display draws `.progress` itself).
    public var line: String {
        switch self {
        case .started(let url, let conditional): "fetching \(url)\(conditional ? " (checking the cached copy)" : "")"
        case .progress(let url, let received, let expected): "fetching \(url): \(Self.megabytes(received))\(expected.map { " of \(Self.megabytes($0))" } ?? "")"
        case .notModified(let url): "\(url): unchanged, using the cached copy"
        case .fetched(let url, let bytes): "fetched \(url): \(Self.megabytes(bytes))"
        case .retrying(let url, let reason, let delay): "\(url): \(reason); trying again in \(delay) s"
        case .cacheUnusable(let reason, let instead):
            "warning: the media cache cannot be used (\(reason)); fetching into \(instead) for this run only, "
                + "so nothing fetched is kept: \(RemoteMediaCache.folderHint)"
        }
    }

    /// `12.3 MB`, with a dot whatever the locale.
    static func megabytes(_ bytes: Int64) -> String {
        let tenths = (bytes + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}

/// A folder of this process's own in the system's temporary folder, removed when the process
/// exits: where fetched files go when the cache folder cannot be used. nil if it cannot be made.
enum ScratchFolder {
    static let path: String? = {
        var template = Array((NSTemporaryDirectory() + "reel-media-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!).map { String(cString: $0) } }) else { return nil }
        atexit { if let path = ScratchFolder.path { try? FileManager.default.removeItem(atPath: path) } }
        return made
    }()
}
