import Digest
import Foundation

/// The `Reel-Signature` header: `t=UNIX_SECONDS,v1=HEX`, where `v1` is the HMAC-SHA256 of
/// `"<t>.<raw body>"` keyed with the endpoint's secret. Signing `t` with the body lets a
/// receiver refuse an old request replayed; several `v1` (one a secret) let a secret be
/// rotated without a window where deliveries fail.
public enum WebhookSignature {
    /// How far `t` may be from the receiver's clock, either way.
    public static let defaultTolerance: Duration = .seconds(300)

    /// The header for `body` sent at `timestamp` (whole seconds), signed with `secret`.
    public static func header(secret: String, timestamp: Date, body: some Sequence<UInt8>) -> String {
        header(secrets: [secret], timestamp: timestamp, body: body)
    }

    /// The header with one `v1` for each of `secrets` (the new and the old while rotating).
    public static func header(secrets: [String], timestamp: Date, body: some Sequence<UInt8>) -> String {
        let t = String(Int64(timestamp.timeIntervalSince1970.rounded(.down)))
        let bytes = Array(body)
        return (["t=" + t] + secrets.map { "v1=" + signature(secret: $0, t: t, body: bytes) }).joined(separator: ",")
    }

    /// What a receiver checks: that one `v1` is this body's signature with `secret`, and that
    /// `t` is within `tolerance` of `now`. Fields other than `t` and `v1` are ignored.
    public static func verify(header: String, secret: String, body: some Sequence<UInt8>, now: Date = Date(),
                              tolerance: Duration = defaultTolerance) -> Verification {
        var t: String?
        var signatures: [String] = []
        for field in header.split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = field.firstIndex(of: "=") else { return .malformedHeader }
            let key = field[..<equals].trimmingCharacters(in: .whitespaces)
            let value = field[field.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            switch key {
            case "t":
                guard t == nil, !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return .malformedHeader }
                t = value
            case "v1": signatures.append(value)
            default: continue
            }
        }
        guard let t else { return .missingTimestamp }
        guard let seconds = Int64(t) else { return .malformedHeader }
        guard !signatures.isEmpty else { return .missingSignature }
        // The t as sent, leading zeros and all, is what was signed.
        let expected = Array(signature(secret: secret, t: t, body: Array(body)).utf8)
        // Every candidate compared in full: the time taken tells nothing of the expected value.
        let matches = signatures.map { constantTimeEqual(Array($0.utf8), expected) }
        guard matches.contains(true) else { return .mismatch }
        let age = now.timeIntervalSince1970 - Double(seconds)
        let limit = Double(tolerance.milliseconds) / 1000
        if age > limit { return .tooOld }
        if -age > limit { return .inTheFuture }
        return .valid
    }

    /// What `verify` found.
    public enum Verification: Equatable, Sendable {
        case valid
        /// A field that is not `key=value`, two `t`, or a `t` that is not whole seconds.
        case malformedHeader
        case missingTimestamp
        /// No `v1` field.
        case missingSignature
        /// No `v1` is the body's signature with this secret: another secret, or another body
        /// (one parsed and written again is another body).
        case mismatch
        /// Signed, but `t` is more than the tolerance ago: a replay, or a clock far behind.
        case tooOld
        /// Signed, but `t` is more than the tolerance ahead: a clock far ahead.
        case inTheFuture
    }

    private static func signature(secret: String, t: String, body: [UInt8]) -> String {
        var hmac = HMACSHA256(key: secret.utf8)
        hmac.update(t + ".")
        hmac.update(body)
        return hmac.hexCode()
    }

    /// Whether `a` and `b` are equal, in a time that depends on their lengths only.
    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
