import CCurl
import Foundation
import NetworkPolicy

extension WebhookSender {
    /// One POST of `body` with `headers` to `url` through libcurl (`CurlTransfer`: http(s)
    /// only, to the addresses the policy allows), redirects not followed, the response's body
    /// dropped.
    func post(_ body: Data, to url: String, headers: [String]) -> WebhookResult {
        let transfer: CurlTransfer
        do { transfer = try CurlTransfer(url: url, headers: headers, policy: addressPolicy) } catch { return .failed(.transport(error.reason)) }
        let handle = transfer.handle
        for (option, value) in [(REEL_CURLOPT_FOLLOWLOCATION, 0),
                                (REEL_CURLOPT_CONNECTTIMEOUT_MS, Int(connectTimeout.milliseconds)),
                                (REEL_CURLOPT_TIMEOUT_MS, Int(timeout.milliseconds)), (REEL_CURLOPT_POSTFIELDSIZE, body.count)] {
            _ = reel_curl_easy_setopt_long(handle, option, value)
        }
        // Copied by curl, as many bytes as the size set before: a POST.
        _ = reel_curl_easy_setopt_pointer(handle, REEL_CURLOPT_COPYPOSTFIELDS, [UInt8](body))
        _ = reel_curl_easy_setopt_write(handle, REEL_CURLOPT_WRITEFUNCTION) { _, size, count, _ in size * count }
        let code = transfer.perform()

        // Every address refused: the policy's reason is the message, whatever curl made of it.
        if let refused = transfer.refusal { return .failed(.refusedAddress(refused)) }
        let status = transfer.status
        let words = transfer.errorText(code)
        switch ReelCurlCode(UInt32(code)) {
        case REEL_CURLE_OK where (200..<300).contains(status): return .delivered(status: status)
        case REEL_CURLE_OK: return .rejected(status: status)
        case REEL_CURLE_UNSUPPORTED_PROTOCOL, REEL_CURLE_URL_MALFORMAT: return .failed(.unsupportedURL(words))
        case REEL_CURLE_OPERATION_TIMEDOUT: return .failed(.timedOut(words))
        default: return .failed(.transport(words))
        }
    }
}
