import Digest
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP GET of a remote media file into a temporary file, hashed as it arrives.
///
/// Through Foundation's `URLSession` (FoundationNetworking on Linux, libcurl underneath): it
/// streams the body to disk through a delegate, has an idle timeout, follows redirects, and
/// needs no C binding. Its own cache is off, so every request reaches the server and the
/// conditional headers are Reel's own.
struct HTTPDownload {
    /// What the server answered.
    enum Outcome {
        /// 304: the cached copy is current.
        case notModified
        /// 200 with the whole body.
        case fetched(Body)
    }

    struct Body {
        /// The temporary file holding it; the caller moves or removes it.
        var path: String
        var sha256: String
        var size: Int64
        var validators: Validators
    }

    /// Why an attempt failed; `retryable` says whether another attempt may succeed.
    enum Failure: Error {
        case status(Int)
        case timedOut(seconds: Double)
        case truncated(received: Int64, expected: Int64)
        case transport(String)
        case cannotWrite(String)
        /// The body is (or says it is) larger than `maxBytes`: stopped there.
        case tooLarge(limit: Int64)

        var retryable: Bool {
            switch self {
            case .status(let code): code >= 500 || code == 408 || code == 429
            case .timedOut, .truncated, .transport: true
            case .cannotWrite, .tooLarge: false
            }
        }
    }

    let url: URL
    /// Seconds without any data before the attempt fails.
    let idleTimeout: Double
    /// Sent as If-None-Match / If-Modified-Since when there is a cached copy.
    let cached: Validators?
    /// Where the body goes.
    let temporaryPath: String
    /// The largest body taken: a larger one stops at its headers (by its Content-Length) or
    /// when it passes the limit.
    let maxBytes: Int64
    let progress: @Sendable (_ received: Int64, _ expected: Int64?) -> Void

    func run() throws(Failure) -> Outcome {
        guard FileManager.default.createFile(atPath: temporaryPath, contents: nil),
              let file = FileHandle(forWritingAtPath: temporaryPath) else {
            throw .cannotWrite("cannot create \(temporaryPath)")
        }
        // Held until the file is closed, so a cache sweep tells this live download from one a
        // killed process left (`RemoteMediaCache.removeAbandonedDownloads`).
        _ = flock(file.fileDescriptor, LOCK_EX | LOCK_NB)
        let receiver = BodyReceiver(file: file, maxBytes: maxBytes, progress: progress)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration, delegate: receiver, delegateQueue: nil)
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: idleTimeout)
        // The bytes as stored: the cache keeps the file, and its length is what the server said.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if let etag = cached?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let modified = cached?.lastModified { request.setValue(modified, forHTTPHeaderField: "If-Modified-Since") }
        session.dataTask(with: request).resume()
        receiver.done.wait()
        session.finishTasksAndInvalidate()
        try? file.close()
        let result = receiver.result()
        do {
            let outcome = try interpret(result)
            if case .notModified = outcome { try? FileManager.default.removeItem(atPath: temporaryPath) }
            return outcome
        } catch {
            try? FileManager.default.removeItem(atPath: temporaryPath)
            throw error
        }
    }

    private func interpret(_ result: BodyReceiver.Result) throws(Failure) -> Outcome {
        if result.tooLarge { throw .tooLarge(limit: maxBytes) }
        if let failure = result.writeFailure { throw .cannotWrite(failure) }
        if let response = result.response {
            switch response.statusCode {
            case 304: return .notModified
            case 200: break
            default: throw .status(response.statusCode)
            }
        }
        if let error = result.error {
            let code = (error as NSError).code
            if code == NSURLErrorTimedOut { throw .timedOut(seconds: idleTimeout) }
            if let expected = result.expected, result.received < expected { throw .truncated(received: result.received, expected: expected) }
            throw .transport(error.localizedDescription)
        }
        guard let response = result.response else { throw .transport("no response") }
        if let expected = result.expected, result.received != expected {
            throw .truncated(received: result.received, expected: expected)
        }
        return .fetched(Body(path: temporaryPath, sha256: result.sha256, size: result.received,
                             validators: Validators(etag: response.value(forHTTPHeaderField: "ETag"),
                                                    lastModified: response.value(forHTTPHeaderField: "Last-Modified"))))
    }
}

/// A cached copy's ETag and Last-Modified, as the server sent them.
struct Validators: Codable, Equatable {
    var etag: String?
    var lastModified: String?
}

/// The session's delegate: writes a 200's body to the file as it arrives and hashes it;
/// stops any other answer at its headers.
private final class BodyReceiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Result {
        var response: HTTPURLResponse?
        var error: (any Error)?
        var received: Int64
        var expected: Int64?
        var sha256: String
        var writeFailure: String?
        var tooLarge: Bool
    }

    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private let file: FileHandle
    private let progress: @Sendable (Int64, Int64?) -> Void
    private var response: HTTPURLResponse?
    private var error: (any Error)?
    private var received: Int64 = 0
    private var digest = SHA256()
    private var writeFailure: String?
    private let maxBytes: Int64
    private var tooLarge = false

    init(file: FileHandle, maxBytes: Int64, progress: @escaping @Sendable (Int64, Int64?) -> Void) {
        self.file = file
        self.maxBytes = maxBytes
        self.progress = progress
    }

    func result() -> Result {
        lock.withLock {
            let expected = Self.expectedLength(response)
            return Result(response: response, error: error, received: received, expected: expected,
                          sha256: digest.hexDigest(), writeFailure: writeFailure, tooLarge: tooLarge)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        let announcedTooLarge = (Self.expectedLength(http) ?? 0) > maxBytes
        lock.withLock {
            self.response = http
            if announcedTooLarge { tooLarge = true }
        }
        completionHandler(http?.statusCode == 200 && !announcedTooLarge ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (total, expected): (Int64, Int64?) = lock.withLock {
            do {
                try file.write(contentsOf: data)
            } catch {
                writeFailure = "cannot write the download: \(error.localizedDescription)"
                dataTask.cancel()
            }
            data.withUnsafeBytes { digest.update($0) }
            received += Int64(data.count)
            if received > maxBytes {
                tooLarge = true
                dataTask.cancel()
            }
            return (received, Self.expectedLength(response))
        }
        progress(total, expected)
    }

    /// The body's length as the server announced it, when that is the length of what arrives:
    /// not for a compressed body (one sent although `identity` was asked for), which arrives
    /// decompressed.
    static func expectedLength(_ response: HTTPURLResponse?) -> Int64? {
        guard let response, response.expectedContentLength >= 0 else { return nil }
        let encoding = response.value(forHTTPHeaderField: "Content-Encoding")?.lowercased() ?? "identity"
        return encoding == "identity" ? response.expectedContentLength : nil
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.withLock { self.error = error }
        done.signal()
    }
}
