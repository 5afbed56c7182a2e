#if canImport(Glibc)
import Glibc
#endif

/// What a `--host` name means before anything binds it: the addresses it resolves to, and
/// whether all of them are loopback ones (127.0.0.0/8, ::1). A name is judged by what it
/// resolves to, not by how it is spelt: `127.lan` is a DNS name like any other.
public enum ListenAddress {
    /// The numeric addresses `host` resolves to (numeric hosts as they are), or nil when it
    /// resolves to none.
    public static func resolve(_ host: String) -> [String]? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(first) }
        var addresses: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(info.pointee.ai_addr, info.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 {
                let address = String(cString: buffer)
                if !addresses.contains(address) { addresses.append(address) }
            }
            entry = info.pointee.ai_next
        }
        return addresses.isEmpty ? nil : addresses
    }

    /// True when `host` resolves and every address is a loopback one; nil when it resolves to none.
    public static func isLoopbackOnly(_ host: String) -> Bool? {
        resolve(host).map { $0.allSatisfy(isLoopbackAddress) }
    }

    /// A numeric address in 127.0.0.0/8, ::1, or an IPv4-mapped 127.x.
    static func isLoopbackAddress(_ address: String) -> Bool {
        let v4 = address.hasPrefix("::ffff:") ? String(address.dropFirst(7)) : address
        let parts = v4.split(separator: ".")
        if parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) { return parts[0] == "127" }
        return address == "::1"
    }
}
