/// HMAC-SHA256 (RFC 2104 over `SHA256`; RFC 4231's vectors checked): a keyed hash that only
/// a holder of the key can compute, as webhook signatures are.
public struct HMACSHA256: Sendable {
    /// The hash of the key padded with 0x36, then the message.
    private var inner = SHA256()
    /// The key padded with 0x5c, hashed before the inner digest.
    private let outerKey: [UInt8]

    /// A key longer than SHA-256's 64-byte block is hashed first (RFC 2104).
    public init<Key: Sequence>(key: Key) where Key.Element == UInt8 {
        var block = Array(key)
        if block.count > 64 {
            var hash = SHA256()
            hash.update(block)
            block = hash.digest()
        }
        block += [UInt8](repeating: 0, count: 64 - block.count)
        outerKey = block.map { $0 ^ 0x5c }
        inner.update(block.map { $0 ^ 0x36 })
    }

    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 { inner.update(bytes) }

    public mutating func update(_ text: String) { inner.update(text.utf8) }

    /// The code's 32 bytes. Like `hexCode()`, it ends the computation: call one of them once.
    public mutating func code() -> [UInt8] {
        var outer = SHA256()
        outer.update(outerKey)
        outer.update(inner.digest())
        return outer.digest()
    }

    /// The code as 64 lower-case hex digits.
    public mutating func hexCode() -> String { hexString(code()) }
}
