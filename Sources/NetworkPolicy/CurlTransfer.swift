import CCurl

/// One libcurl easy handle set up as every transfer Reel makes from a URL it was given (remote
/// media downloads, webhook deliveries): http and https only, redirects included; no signals
/// (curl runs on threads of a server); curl's own words for a failure kept in an error
/// buffer; and, with an address policy, each connection held to it (`ConnectionGuard`). The
/// caller sets the rest (method, body, redirects, timeouts, callbacks) and runs `perform()`.
public final class CurlTransfer {
    /// The easy handle, for the caller's own options; valid while this transfer lives.
    public let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let connectionGuard: ConnectionGuard?
    private let headerList: UnsafeMutableRawPointer?

    /// Why a transfer could not start: libcurl is missing or refused a handle.
    public struct Unavailable: Error {
        public let reason: String
    }

    /// A transfer of `url` with `headers` (`Name: value` lines); connections only to the
    /// addresses `policy` allows (nil: any).
    public init(url: String, headers: [String] = [], policy: AddressPolicy?) throws(Unavailable) {
        if let reason = reel_curl_unavailable() { throw Unavailable(reason: String(cString: reason)) }
        guard let handle = reel_curl_easy_init() else { throw Unavailable(reason: "libcurl cannot start a transfer") }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(REEL_CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(REEL_CURL_ERROR_SIZE))
        var headerList: UnsafeMutableRawPointer?
        for header in headers { headerList = reel_curl_slist_append(headerList, header) }
        self.handle = handle
        self.errorBuffer = errorBuffer
        self.headerList = headerList
        connectionGuard = policy.map(ConnectionGuard.init)
        _ = reel_curl_easy_setopt_long(handle, REEL_CURLOPT_NOSIGNAL, 1)
        _ = reel_curl_easy_setopt_pointer(handle, REEL_CURLOPT_URL, url)
        _ = reel_curl_easy_setopt_pointer(handle, REEL_CURLOPT_PROTOCOLS_STR, "http,https")
        _ = reel_curl_easy_setopt_pointer(handle, REEL_CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = reel_curl_easy_setopt_pointer(handle, REEL_CURLOPT_ERRORBUFFER, errorBuffer)
        if let headerList { _ = reel_curl_easy_setopt_pointer(handle, REEL_CURLOPT_HTTPHEADER, headerList) }
        connectionGuard?.install(on: handle)
    }

    deinit {
        reel_curl_easy_cleanup(handle)
        if let headerList { reel_curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    /// Runs the transfer on the calling thread; curl's result code.
    public func perform() -> Int32 { reel_curl_easy_perform(handle) }

    /// The last response's status (0 before any).
    public var status: Int { reel_curl_easy_getinfo_long(handle, REEL_CURLINFO_RESPONSE_CODE) }

    /// The first address the policy refused, when every address curl tried was refused.
    public var refusal: RefusedAddress? { connectionGuard?.refusal }

    /// What went wrong, in curl's words: the error buffer's detail, else the result code's text.
    public func errorText(_ code: Int32) -> String {
        errorBuffer.pointee != 0 ? String(cString: errorBuffer) : String(cString: reel_curl_easy_strerror(code))
    }
}
