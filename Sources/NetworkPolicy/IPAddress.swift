import Foundation

/// An IPv4 or IPv6 address: 4 or 16 bytes in network order, written the usual way
/// (`127.0.0.1`, `::ffff:10.0.0.1`).
public struct IPAddress: Hashable, Sendable, LosslessStringConvertible {
    public let bytes: [UInt8]

    /// The address of a dotted quad or of IPv6 text (no zone, no brackets).
    public init?(_ text: String) {
        for (family, count) in [(AF_INET, 4), (AF_INET6, 16)] {
            var bytes = [UInt8](repeating: 0, count: count)
            if inet_pton(family, text, &bytes) == 1 {
                self.bytes = bytes
                return
            }
        }
        return nil
    }

    /// The address of a `sockaddr_in` or `sockaddr_in6` of `length` bytes; nil for another family.
    init?(socketAddress: UnsafeRawPointer, length: Int) {
        switch Int32(socketAddress.loadUnaligned(as: sockaddr.self).sa_family) {
        case AF_INET where length >= MemoryLayout<sockaddr_in>.size:
            bytes = withUnsafeBytes(of: socketAddress.loadUnaligned(as: sockaddr_in.self).sin_addr) { Array($0) }
        case AF_INET6 where length >= MemoryLayout<sockaddr_in6>.size:
            bytes = withUnsafeBytes(of: socketAddress.loadUnaligned(as: sockaddr_in6.self).sin6_addr) { Array($0) }
        default:
            return nil
        }
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    public var description: String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { text in
            inet_ntop(bytes.count == 4 ? AF_INET : AF_INET6, bytes, text.baseAddress, socklen_t(text.count))
            return String(cString: text.baseAddress!)
        }
    }

    /// Whether the first `bits` bits are those of `network` (of the same family).
    func isIn(_ network: IPAddress, prefixLength bits: Int) -> Bool {
        guard bytes.count == network.bytes.count else { return false }
        let whole = bits / 8
        guard bytes[..<whole] == network.bytes[..<whole] else { return false }
        guard bits % 8 != 0 else { return true }
        let mask = UInt8(0xff) << (8 - bits % 8)
        return bytes[whole] & mask == network.bytes[whole] & mask
    }
}
