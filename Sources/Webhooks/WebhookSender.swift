import Foundation
import NetworkPolicy

/// Makes one delivery attempt of a webhook: a signed JSON POST through libcurl, on the calling
/// thread, never followed to a redirect's target, only to the addresses `addressPolicy` allows.
/// Retrying (`RetrySchedule`) and storing deliveries are the service's.
public struct WebhookSender: Sendable {
    /// `reel/VERSION`.
    public let userAgent: String
    public var addressPolicy: AddressPolicy
    /// For resolving the receiver's name and connecting to it.
    public var connectTimeout: Duration
    /// For the whole attempt, connecting included, until the receiver's status arrives.
    public var timeout: Duration

    public init(version: String, addressPolicy: AddressPolicy, connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(30)) {
        userAgent = "reel/" + version
        self.addressPolicy = addressPolicy
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }

    /// POSTs `body` (the event's JSON, sent as it is) to `url` with `Content-Type:
    /// application/json`, `Reel-Signature` (signed with `secret` at `now`), `Reel-Delivery:
    /// deliveryID` and `User-Agent`. Each attempt is signed at its own time (receivers refuse
    /// an old `t`) and keeps the delivery's id (receivers drop one they have seen).
    /// `deliveryID` is visible ASCII (it is a header's value).
    public func send(_ body: Data, to url: String, deliveryID: String, secret: String, now: Date = Date()) -> WebhookResult {
        precondition(!deliveryID.isEmpty && deliveryID.utf8.allSatisfy { (0x21...0x7e).contains($0) }, "a delivery id is visible ASCII")
        return post(body, to: url, headers: [
            "Content-Type: application/json",
            "Reel-Signature: " + WebhookSignature.header(secret: secret, timestamp: now, body: body),
            "Reel-Delivery: " + deliveryID,
            "User-Agent: " + userAgent,
            // No `Expect: 100-continue` round trip before a large body.
            "Expect:",
        ])
    }
}

/// How an attempt ended.
public enum WebhookResult: Equatable, Sendable {
    /// A 2xx status.
    case delivered(status: Int)
    /// Any other status, a redirect's included.
    case rejected(status: Int)
    case failed(WebhookFailure)
}

/// Why an attempt got no status.
public enum WebhookFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not an http(s) URL, or no URL at all (libcurl's words).
    case unsupportedURL(String)
    /// Every address of the URL's host is one the policy refuses; the first of them.
    case refusedAddress(RefusedAddress)
    /// No status within the connect timeout or the timeout (libcurl's words).
    case timedOut(String)
    /// Anything else: a name that does not resolve, a connection refused or reset, TLS, no
    /// libcurl (libcurl's words).
    case transport(String)

    public var description: String {
        switch self {
        case .unsupportedURL(let words), .timedOut(let words), .transport(let words): words
        case .refusedAddress(let refused): "refused: \(refused)"
        }
    }
}
