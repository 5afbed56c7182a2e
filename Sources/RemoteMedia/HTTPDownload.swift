import AtomicFiles
import CCurl
import Digest
import Foundation
import NetworkPolicy

/// One HTTP GET of a remote media file into a temporary file, hashed as it arrives.
///
/// Through libcurl's easy interface (module CCurl), on the calling thread: each piece of the
/// body is written and hashed before the next is read, so memory stays small whatever the
/// body's size; curl waits on its socket without spinning, follows redirects to http(s) only,
/// and checks the limits and the cancellation at least once a second. (FoundationNetworking's
/// `URLSession` did neither: it queued every piece for its delegate without waiting, 690 MB
/// held for a 600 MB file, and kept a write source on the socket that spun a core while a
/// server was slow.)
struct HTTPDownload {
    /// What the server answered.
    enum Outcome {
        /// 304: the cached copy is current.
        case notModified
        /// 200 with the whole body.
        case fetched(Body)
    }

    struct Body {
        /// The temporary file holding it, still locked; the caller renames it into place or
        /// removes it (releasing it does).
        var file: TemporaryFile
        var sha256: String
        var size: Int64
        var validators: Validators
    }

    /// Why an attempt failed.
    enum Failure: Error {
        case status(Int)
        case timedOut(seconds: Double)
        /// Fewer than `minimumRate` bytes a second over `seconds`.
        case tooSlow(minimumRate: Int64, seconds: Double)
        /// The fetch's deadline passed.
        case deadline(seconds: Double)
        case truncated(received: Int64, expected: Int64)
        case transport(String)
        case cannotWrite(String)
        /// The body is (or says it is) larger than `maxBytes`: stopped there.
        case tooLarge(limit: Int64)
        /// A redirect to a URL Reel does not fetch (another scheme).
        case redirectedAway(to: String)
        case tooManyRedirects(limit: Int)
        /// A web page (`Content-Type: text/html`), not media.
        case webPage(contentType: String)
        /// Every address of the URL's host (or of a redirect's) is one the policy refuses.
        case refusedAddress(String)
        case cancelled

        /// Whether another attempt may succeed.
        var retryable: Bool {
            switch self {
            case .status(let code): code >= 500 || code == 408 || code == 429
            case .timedOut, .tooSlow, .truncated, .transport: true
            case .deadline, .cannotWrite, .tooLarge, .redirectedAway, .tooManyRedirects, .webPage, .refusedAddress, .cancelled: false
            }
        }
    }

    /// When to give up on an attempt.
    struct Limits {
        /// Seconds without any data.
        var idleTimeout: Double
        /// Bytes a second, over any `idleTimeout` seconds once that long has passed; 0: none.
        var minimumRate: Int64
        /// The largest body taken: a larger one stops at its headers (by its Content-Length) or
        /// when it passes the limit.
        var maxBytes: Int64
        /// Uptime (`ProcessInfo.systemUptime`) after which the fetch stops, and its length.
        var deadline: Double
        var deadlineSeconds: Double
    }

    /// The redirects followed before giving up.
    static let maxRedirects = 10

    /// An http(s) URL, as curl takes it (credentials in it are sent as Basic authentication).
    let url: String
    let limits: Limits
    /// Sent as If-None-Match / If-Modified-Since when there is a cached copy.
    let cached: Validators?
    /// Where the body goes: a `TemporaryFile` named `PREFIX…` in `folder`.
    let folder: String
    let prefix: String
    /// The addresses it may connect to, checked as each connection is made (redirects too);
    /// nil: any.
    let addressPolicy: AddressPolicy?
    /// Checked at least once a second: true stops the download (`Failure.cancelled`).
    let isCancelled: @Sendable () -> Bool
    let progress: @Sendable (_ received: Int64, _ expected: Int64?) -> Void

    func run() throws(Failure) -> Outcome {
        let curl: CurlTransfer
        do { curl = try CurlTransfer(url: url, headers: cached?.requestHeaders ?? [], policy: addressPolicy) } catch { throw .transport(error.reason) }
        // Locked until renamed or removed, so a cache sweep tells this live download from one a
        // killed process left (`TemporaryFile.removeAbandoned`).
        let file: TemporaryFile
        do { file = try TemporaryFile(in: folder, prefix: prefix) } catch { throw .cannotWrite(error.message) }
        let transfer = Transfer(download: self, curl: curl, file: file)
        let code = transfer.perform()
        do {
            let outcome = try interpret(code, transfer, file)
            if case .notModified = outcome { file.discard() }
            return outcome
        } catch {
            file.discard()
            throw error
        }
    }

    private func interpret(_ code: Int32, _ transfer: Transfer, _ file: TemporaryFile) throws(Failure) -> Outcome {
        if let stop = transfer.stop { throw stop }
        if let refused = transfer.curl.refusal { throw .refusedAddress("\(refused)") }
        let status = transfer.status
        switch ReelCurlCode(UInt32(code)) {
        case REEL_CURLE_OK: break
        case REEL_CURLE_WRITE_ERROR where status != 200: break // another status's body, refused at its first piece
        case REEL_CURLE_PARTIAL_FILE:
            throw .truncated(received: transfer.received, expected: transfer.expectedLength ?? transfer.received)
        case REEL_CURLE_TOO_MANY_REDIRECTS: throw .tooManyRedirects(limit: Self.maxRedirects)
        case REEL_CURLE_UNSUPPORTED_PROTOCOL where transfer.headers["location"] != nil:
            throw .redirectedAway(to: RemoteURL.redacted(transfer.headers["location"]!))
        default: throw .transport(transfer.errorMessage(code))
        }
        switch status {
        case 304: return .notModified
        case 200: break
        default: throw .status(status)
        }
        // An empty body never met the checks made at its first piece.
        if let failure = transfer.refusal() { throw failure }
        if let expected = transfer.expectedLength, transfer.received != expected {
            throw .truncated(received: transfer.received, expected: expected)
        }
        return .fetched(Body(file: file, sha256: transfer.digest.hexDigest(), size: transfer.received,
                             validators: Validators(etag: transfer.headers["etag"], lastModified: transfer.headers["last-modified"])))
    }
}

/// A cached copy's ETag and Last-Modified, as the server sent them.
struct Validators: Codable, Equatable {
    var etag: String?
    var lastModified: String?

    /// What asks the server whether the cached copy is current.
    var requestHeaders: [String] {
        (etag.map { ["If-None-Match: \($0)"] } ?? []) + (lastModified.map { ["If-Modified-Since: \($0)"] } ?? [])
    }
}

/// One curl transfer and what its callbacks (all on the calling thread) learn: the last
/// response's headers, the body written to the file and hashed, and why it was stopped.
private final class Transfer {
    let download: HTTPDownload
    /// The handle, its address policy and error buffer.
    let curl: CurlTransfer
    let file: TemporaryFile
    /// The last response's headers by lowercased name (a status line starts them again).
    private(set) var headers: [String: String] = [:]
    private(set) var received: Int64 = 0
    var digest = SHA256()
    /// Why a callback stopped the transfer.
    private(set) var stop: HTTPDownload.Failure?
    private var checkedHeaders = false
    private let started = ProcessInfo.processInfo.systemUptime
    /// When a header or a piece of the body last arrived.
    private var lastData: Double
    /// (uptime, bytes received) four times a second: those of the last `idleTimeout` seconds,
    /// and the one before them.
    private var samples: [(time: Double, bytes: Int64)] = []

    init(download: HTTPDownload, curl: CurlTransfer, file: TemporaryFile) {
        self.download = download
        self.curl = curl
        self.file = file
        lastData = started
    }

    var status: Int { curl.status }

    /// The body's length as the server announced it, when that is the length of what arrives:
    /// not for a compressed body (one sent although `identity` was asked for), which arrives
    /// decompressed.
    var expectedLength: Int64? {
        guard (headers["content-encoding"]?.lowercased() ?? "identity") == "identity" else { return nil }
        let length = reel_curl_easy_getinfo_offset(curl.handle, REEL_CURLINFO_CONTENT_LENGTH_DOWNLOAD_T)
        return length >= 0 ? length : nil
    }

    func errorMessage(_ code: Int32) -> String { RemoteURL.redacted(curl.errorText(code)) }

    /// Runs the transfer; curl's result code.
    func perform() -> Int32 {
        let handle = curl.handle
        for (option, value) in [(REEL_CURLOPT_FOLLOWLOCATION, 1), (REEL_CURLOPT_MAXREDIRS, HTTPDownload.maxRedirects), (REEL_CURLOPT_NOPROGRESS, 0)] {
            _ = reel_curl_easy_setopt_long(handle, option, value)
        }
        // The bytes as stored: the cache keeps the file, and its length is what the server
        // says. (A body a server compresses anyway is decoded.)
        _ = reel_curl_easy_setopt_pointer(handle, REEL_CURLOPT_ACCEPT_ENCODING, "identity")
        let context = Unmanaged.passUnretained(self).toOpaque()
        for option in [REEL_CURLOPT_WRITEDATA, REEL_CURLOPT_HEADERDATA, REEL_CURLOPT_XFERINFODATA] {
            _ = reel_curl_easy_setopt_pointer(handle, option, context)
        }
        _ = reel_curl_easy_setopt_write(handle, REEL_CURLOPT_WRITEFUNCTION) { data, size, count, context in
            Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().receive(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        _ = reel_curl_easy_setopt_write(handle, REEL_CURLOPT_HEADERFUNCTION) { data, size, count, context in
            Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        _ = reel_curl_easy_setopt_transfer_info(handle) { context, _, _, _, _ in
            Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().check() ? 0 : 1
        }
        return curl.perform()
    }

    /// A header line; a status line starts a response (the next one after a redirect).
    private func receiveHeader(_ line: UnsafeRawBufferPointer) -> Int {
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            headers = [:]
        } else if let colon = text.firstIndex(of: ":") {
            headers[text[..<colon].lowercased()] = text[text.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        }
        lastData = ProcessInfo.processInfo.systemUptime
        return line.count
    }

    /// A piece of the body: written and hashed before curl reads on, or the transfer stopped
    /// (a return short of its length does that).
    private func receive(_ piece: UnsafeRawBufferPointer) -> Int {
        if !checkedHeaders {
            checkedHeaders = true
            guard status == 200 else { return 0 } // another status's body (a 404 page) is not wanted
            if let failure = refusal() { return halt(failure) }
        }
        received += Int64(piece.count)
        if received > download.limits.maxBytes { return halt(.tooLarge(limit: download.limits.maxBytes)) }
        do { try file.write(piece) } catch {
            return halt(.cannotWrite("cannot write the download \(file.path): \(error.reason)"))
        }
        digest.update(piece)
        lastData = ProcessInfo.processInfo.systemUptime
        download.progress(received, expectedLength)
        return piece.count
    }

    /// What a 200's headers rule out: a web page, or a body larger than the limit.
    func refusal() -> HTTPDownload.Failure? {
        let type = headers["content-type"] ?? ""
        if type.lowercased().hasPrefix("text/html") { return .webPage(contentType: type) }
        if let length = expectedLength, length > download.limits.maxBytes { return .tooLarge(limit: download.limits.maxBytes) }
        return nil
    }

    private func halt(_ failure: HTTPDownload.Failure) -> Int {
        stop = failure
        return 0
    }

    /// curl's progress call (at least once a second): false stops the transfer, when it is
    /// cancelled, at the deadline, after `idleTimeout` seconds of silence, or when the last
    /// `idleTimeout` seconds brought less than the minimum rate.
    private func check() -> Bool {
        let now = ProcessInfo.processInfo.systemUptime
        let limits = download.limits
        if samples.last.map({ now - $0.time >= 0.25 }) ?? true { samples.append((now, received)) }
        while samples.count > 1 && samples[1].time <= now - limits.idleTimeout { samples.removeFirst() }
        if download.isCancelled() {
            stop = .cancelled
        } else if now >= limits.deadline {
            stop = .deadline(seconds: limits.deadlineSeconds)
        } else if now - lastData >= limits.idleTimeout {
            stop = .timedOut(seconds: limits.idleTimeout)
        } else if let anchor = samples.first, now - anchor.time >= limits.idleTimeout,
                  Double(received - anchor.bytes) < Double(limits.minimumRate) * (now - anchor.time) {
            stop = .tooSlow(minimumRate: limits.minimumRate, seconds: limits.idleTimeout)
        }
        return stop == nil
    }
}
