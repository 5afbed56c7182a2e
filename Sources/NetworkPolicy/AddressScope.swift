/// Where an address leads: the public internet, or back into this machine, its network or its
/// cloud's metadata service, which a URL from outside must not reach.
public enum AddressScope: String, Sendable {
    case global = "public"
    /// 127.0.0.0/8, ::1.
    case loopback
    /// 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 (RFC 1918); fc00::/7 (unique local, RFC 4193).
    case privateNetwork = "private"
    /// 100.64.0.0/10, carrier-grade NAT (RFC 6598); Alibaba Cloud's metadata service is there.
    case sharedAddressSpace = "carrier-grade NAT"
    /// 169.254.0.0/16, where cloud metadata services answer (169.254.169.254); fe80::/10.
    case linkLocal = "link-local"
    /// 0.0.0.0/8 (0.0.0.0 reaches this machine on Linux), ::.
    case unspecified
    /// 64:ff9b:1::/48, the local-use NAT64 prefix (RFC 8215): a translator of the network's own
    /// maps it to IPv4 addresses in a layout its operator chooses, so which IPv4 address it
    /// leads to (a private one, perhaps) cannot be told from the address.
    case localTranslation = "local-use NAT64"
}

extension IPAddress {
    /// The scope of this address. An IPv6 address that carries an IPv4 address (`embeddedIPv4`)
    /// has that address's scope: a dual-stack socket, a NAT64 translator or a 6to4 relay takes
    /// the connection there.
    public var scope: AddressScope {
        if let embedded = embeddedIPv4 { return embedded.address.scope }
        return Self.ranges.first { isIn($0.network, prefixLength: $0.prefixLength) }?.scope ?? .global
    }

    /// The ways an IPv6 address carries an IPv4 address.
    public enum IPv4Form: String, Sendable {
        /// `::ffff:a.b.c.d` (::ffff:0:0/96).
        case mapped = "IPv4-mapped"
        /// `::a.b.c.d` (::/96, but for :: and ::1), deprecated but still routed by some systems.
        case compatible = "IPv4-compatible"
        /// 64:ff9b::/96, the well-known NAT64 prefix (RFC 6052): the last 32 bits.
        case nat64 = "NAT64"
        /// 2002::/16 (RFC 3056): bits 16 to 47.
        case sixToFour = "6to4"
    }

    /// The IPv4 address this IPv6 address carries, and how; nil for an IPv4 address and for
    /// IPv6 addresses that carry none.
    public var embeddedIPv4: (address: IPAddress, form: IPv4Form)? {
        guard bytes.count == 16 else { return nil }
        let last32 = IPAddress(bytes: Array(bytes[12...]))
        if isIn(Self.mappedPrefix, prefixLength: 96) { return (last32, .mapped) }
        if isIn(Self.nat64Prefix, prefixLength: 96) { return (last32, .nat64) }
        if isIn(Self.sixToFourPrefix, prefixLength: 16) { return (IPAddress(bytes: Array(bytes[2..<6])), .sixToFour) }
        if isIn(Self.compatiblePrefix, prefixLength: 96), bytes[12...].contains(where: { $0 != 0 }), self != Self.ipv6Loopback {
            return (last32, .compatible)
        }
        return nil
    }

    private static let mappedPrefix = IPAddress("::ffff:0.0.0.0")!
    private static let nat64Prefix = IPAddress("64:ff9b::")!
    private static let sixToFourPrefix = IPAddress("2002::")!
    private static let compatiblePrefix = IPAddress("::")!
    private static let ipv6Loopback = IPAddress("::1")!

    private static let ranges: [(network: IPAddress, prefixLength: Int, scope: AddressScope)] = {
        let blocks: [(String, AddressScope)] = [
            ("0.0.0.0/8", .unspecified), ("::/128", .unspecified),
            ("127.0.0.0/8", .loopback), ("::1/128", .loopback),
            ("10.0.0.0/8", .privateNetwork), ("172.16.0.0/12", .privateNetwork), ("192.168.0.0/16", .privateNetwork), ("fc00::/7", .privateNetwork),
            ("100.64.0.0/10", .sharedAddressSpace),
            ("169.254.0.0/16", .linkLocal), ("fe80::/10", .linkLocal),
            ("64:ff9b:1::/48", .localTranslation),
        ]
        return blocks.map { block, scope in
            let parts = block.split(separator: "/")
            return (IPAddress(String(parts[0]))!, Int(parts[1])!, scope)
        }
    }()
}
