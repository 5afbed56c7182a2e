import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ProjectCompiler

/// The local cache of `http(s)://` media: each URL is fetched once into a content-addressed
/// file, and the render reads that file, so the output depends on the bytes fetched, not on the
/// network.
///
/// The rule for fetching again: the first time a process needs a URL it asks the server with a
/// conditional GET (If-None-Match with the cached ETag, If-Modified-Since with the cached
/// Last-Modified); 304 keeps the cached copy, 200 replaces it. Later uses in the same process
/// (`reel preview` reloading) take the copy without asking. Offline, only the cache is used.
public final class RemoteMediaCache: RemoteMediaLocator, @unchecked Sendable {
    public let settings: RemoteMediaSettings
    private let report: @Sendable (FetchEvent) -> Void
    private let lock = NSLock()
    /// URL → local file, for the URLs this process has resolved.
    private var resolved: [String: String] = [:]
    private var sweptDownloads = false
    /// Temporary downloads are named `.download-UUID` in the cache folder.
    static let downloadPrefix = ".download-"

    public init(settings: RemoteMediaSettings, report: @escaping @Sendable (FetchEvent) -> Void = { _ in }) {
        self.settings = settings
        self.report = report
    }

    public func localCopy(of url: String) throws(RemoteMediaFailure) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let path = resolved[url], FileManager.default.fileExists(atPath: path) { return path }
        let path = try settings.offline ? cachedCopy(of: url) : fetch(url)
        resolved[url] = path
        return path
    }

    /// Offline: the cached copy, or an error saying there is none.
    private func cachedCopy(of url: String) throws(RemoteMediaFailure) -> String {
        let path = try withIndex { index throws(CacheFailure) -> String? in
            guard let entry = index.entry(for: url) else { return nil }
            index.touch(url)
            return index.path(of: entry)
        }
        guard let path else {
            throw RemoteMediaFailure(.notFound, "\(url) is not in the media cache (\(settings.folder)), and --offline forbids fetching it",
                                     hint: "run once without --offline (and without REEL_OFFLINE) to fetch it")
        }
        return path
    }

    /// Online: a conditional GET when there is a cached copy, a plain one otherwise, with retries.
    private func fetch(_ url: String) throws(RemoteMediaFailure) -> String {
        guard let address = URL(string: url) else { throw RemoteMediaFailure(.notFound, "'\(url)' is not a valid URL") }
        let cached = try withIndex { index throws(CacheFailure) in index.entry(for: url) }
        if !sweptDownloads {
            sweptDownloads = true
            Self.removeAbandonedDownloads(in: settings.folder)
        }
        var attempt = 1
        while true {
            let temporary = settings.folder + "/" + Self.downloadPrefix + UUID().uuidString
            let download = HTTPDownload(url: address, idleTimeout: settings.idleTimeout, cached: cached?.validators,
                                        temporaryPath: temporary, maxBytes: settings.maxDownloadBytes) { [report] received, expected in
                report(.progress(url: url, received: received, expected: expected))
            }
            report(.started(url: url, conditional: cached != nil))
            let outcome: HTTPDownload.Outcome
            do {
                outcome = try download.run()
            } catch {
                guard error.retryable, attempt < settings.attempts else { throw failure(error, url: url, attempts: attempt) }
                let delay = settings.firstBackoff * Double(1 << (attempt - 1))
                report(.retrying(url: url, reason: Self.describe(error), delay: delay))
                Thread.sleep(forTimeInterval: delay)
                attempt += 1
                continue
            }
            switch outcome {
            case .notModified:
                report(.notModified(url: url))
                return try withIndex { index throws(CacheFailure) in
                    index.touch(url)
                    return index.path(of: cached!)
                }
            case .fetched(let body):
                report(.fetched(url: url, bytes: body.size))
                return try store(body, for: url, fileExtension: address.pathExtension)
            }
        }
    }

    /// Removes the temporary downloads that processes killed mid-download left in `folder`:
    /// those nobody holds locked (a live download holds its file from creating it to closing
    /// it) and nobody has written for a minute (a download just created and not yet locked, or
    /// just closed and not yet renamed, is newer).
    static func removeAbandonedDownloads(in folder: String, olderThan age: TimeInterval = 60) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names where name.hasPrefix(downloadPrefix) {
            let path = folder + "/" + name
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                  Date().timeIntervalSince(modified) > age else { continue }
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else { continue }
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
            close(fd)
        }
    }

    /// Moves a fetched body into the folder under its content's name and indexes it.
    private func store(_ body: HTTPDownload.Body, for url: String, fileExtension: String) throws(RemoteMediaFailure) -> String {
        let ext = fileExtension.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } && !fileExtension.isEmpty && fileExtension.count <= 8
            ? "." + fileExtension.lowercased() : ""
        let entry = CacheIndex.Entry(file: body.sha256 + ext, size: body.size, validators: body.validators,
                                     lastUsed: Date().timeIntervalSince1970)
        let keep = Set(resolved.keys).union([url])
        let maxBytes = settings.maxBytes
        return try withIndex { index throws(CacheFailure) -> String in
            let path = index.path(of: entry)
            if FileManager.default.fileExists(atPath: path) {
                try? FileManager.default.removeItem(atPath: body.path)
            } else if rename(body.path, path) != 0 {
                try? FileManager.default.removeItem(atPath: body.path)
                throw CacheFailure("cannot move the download into \(path): \(String(cString: strerror(errno)))")
            }
            index.set(entry, for: url)
            index.evict(toFit: maxBytes, keep: keep)
            return path
        }
    }

    private func withIndex<T>(_ body: (inout CacheIndex) throws(CacheFailure) -> T) throws(RemoteMediaFailure) -> T {
        do {
            return try CacheIndex.withLocked(folder: settings.folder, body)
        } catch {
            throw RemoteMediaFailure(.unavailable, error.message, hint: "set REEL_MEDIA_CACHE_DIR to a writable folder")
        }
    }

    private func failure(_ error: HTTPDownload.Failure, url: String, attempts: Int) -> RemoteMediaFailure {
        let tries = attempts > 1 ? " (\(attempts) attempts)" : ""
        switch error {
        case .status(let code) where (400..<500).contains(code) && code != 408 && code != 429:
            return RemoteMediaFailure(.notFound, "\(url): \(Self.describe(error))",
                                      hint: code == 404 || code == 410 ? "check the URL" : "check the URL and whether it needs access rights")
        default:
            return RemoteMediaFailure(.unavailable, "\(url): \(Self.describe(error))\(tries)",
                                      hint: "try again later; --offline renders from the cached copy if there is one")
        }
    }

    static func describe(_ error: HTTPDownload.Failure) -> String {
        switch error {
        case .status(let code): "the server answered HTTP \(code)" + (HTTPStatus.reason(code).isEmpty ? "" : " " + HTTPStatus.reason(code))
        case .timedOut(let seconds): "no data for \(Self.seconds(seconds)) s (timed out)"
        case .truncated(let received, let expected): "the body ended after \(received) of its \(expected) bytes (truncated)"
        case .transport(let reason): reason
        case .cannotWrite(let reason): reason
        case .tooLarge(let limit): "it is larger than the download limit of \(limit) bytes (REEL_FETCH_MAX sets it)"
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
}
