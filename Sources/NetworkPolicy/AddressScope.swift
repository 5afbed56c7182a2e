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
}

extension IPAddress {
    /// The scope of this address; an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) has that of
    /// its IPv4 address, which is where a dual-stack socket connects.
    public var scope: AddressScope {
        if isIn(Self.ipv4Mapped, prefixLength: 96) { return IPAddress(bytes: Array(bytes[12...])).scope }
        return Self.ranges.first { isIn($0.network, prefixLength: $0.prefixLength) }?.scope ?? .global
    }

    private static let ipv4Mapped = IPAddress("::ffff:0.0.0.0")!

    private static let ranges: [(network: IPAddress, prefixLength: Int, scope: AddressScope)] = {
        let blocks: [(String, AddressScope)] = [
            ("0.0.0.0/8", .unspecified), ("::/128", .unspecified),
            ("127.0.0.0/8", .loopback), ("::1/128", .loopback),
            ("10.0.0.0/8", .privateNetwork), ("172.16.0.0/12", .privateNetwork), ("192.168.0.0/16", .privateNetwork), ("fc00::/7", .privateNetwork),
            ("100.64.0.0/10", .sharedAddressSpace),
            ("169.254.0.0/16", .linkLocal), ("fe80::/10", .linkLocal),
        ]
        return blocks.map { block, scope in
            let parts = block.split(separator: "/")
            return (IPAddress(String(parts[0]))!, Int(parts[1])!, scope)
        }
    }()
}
