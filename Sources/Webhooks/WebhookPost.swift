import CCurl
import Foundation
import NetworkPolicy

extension WebhookSender {
    /// One POST of `body` with `headers` to `url` through libcurl (module CCurl), http(s)
    /// only, redirects not followed, the response's body dropped.
    func post(_ body: Data, to url: String, headers: [String]) -> WebhookResult {
        if let reason = reel_curl_unavailable() { return .failed(.transport(String(cString: reason))) }
        guard let handle = reel_curl_easy_init() else { return .failed(.transport("libcurl cannot start a transfer")) }
        defer { reel_curl_easy_cleanup(handle) }
        var headerList: UnsafeMutableRawPointer?
        for header in headers { headerList = reel_curl_slist_append(headerList, header) }
        defer { reel_curl_slist_free_all(headerList) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(REEL_CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(REEL_CURL_ERROR_SIZE))
        defer { errorBuffer.deallocate() }

        for (option, value) in [(REEL_CURLOPT_NOSIGNAL, 1), (REEL_CURLOPT_FOLLOWLOCATION, 0),
                                (REEL_CURLOPT_CONNECTTIMEOUT_MS, Int(connectTimeout.milliseconds)),
                                (REEL_CURLOPT_TIMEOUT_MS, Int(timeout.milliseconds)), (REEL_CURLOPT_POSTFIELDSIZE, body.count)] {
            _ = reel_curl_easy_setopt_long(handle, option, value)
        }
        _ = reel_curl_easy_setopt_pointer(handle, REEL_CURLOPT_URL, url)
        _ = reel_curl_easy_setopt_pointer(handle, REEL_CURLOPT_PROTOCOLS_STR, "http,https")
        // Copied by curl, as many bytes as the size set before: a POST.
        _ = reel_curl_easy_setopt_pointer(handle, REEL_CURLOPT_COPYPOSTFIELDS, [UInt8](body))
        _ = reel_curl_easy_setopt_pointer(handle, REEL_CURLOPT_HTTPHEADER, headerList)
        _ = reel_curl_easy_setopt_pointer(handle, REEL_CURLOPT_ERRORBUFFER, errorBuffer)
        _ = reel_curl_easy_setopt_write(handle, REEL_CURLOPT_WRITEFUNCTION) { _, size, count, _ in size * count }
        let connectionGuard = ConnectionGuard(policy: addressPolicy)
        connectionGuard.install(on: handle)
        let code = withExtendedLifetime(connectionGuard) { reel_curl_easy_perform(handle) }

        // Every address refused: the policy's reason is the message, whatever curl made of it.
        if let refused = connectionGuard.refusal { return .failed(.refusedAddress(refused)) }
        let status = reel_curl_easy_getinfo_long(handle, REEL_CURLINFO_RESPONSE_CODE)
        let words = errorBuffer.pointee != 0 ? String(cString: errorBuffer) : String(cString: reel_curl_easy_strerror(code))
        switch ReelCurlCode(UInt32(code)) {
        case REEL_CURLE_OK where (200..<300).contains(status): return .delivered(status: status)
        case REEL_CURLE_OK: return .rejected(status: status)
        case REEL_CURLE_UNSUPPORTED_PROTOCOL, REEL_CURLE_URL_MALFORMAT: return .failed(.unsupportedURL(words))
        case REEL_CURLE_OPERATION_TIMEDOUT: return .failed(.timedOut(words))
        default: return .failed(.transport(words))
        }
    }
}
