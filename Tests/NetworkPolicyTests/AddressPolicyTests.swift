import NetworkPolicy
import Testing

struct AddressPolicyTests {
    func scope(_ text: String) -> AddressScope? { IPAddress(text)?.scope }

    @Test func scopes() {
        let expected: [(String, AddressScope)] = [
            ("8.8.8.8", .global), ("2001:4860:4860::8888", .global), ("1.1.1.1", .global),
            ("127.0.0.1", .loopback), ("127.255.255.254", .loopback), ("::1", .loopback),
            ("10.0.0.1", .privateNetwork), ("10.255.255.255", .privateNetwork),
            ("172.15.255.255", .global), ("172.16.0.0", .privateNetwork), ("172.31.255.255", .privateNetwork), ("172.32.0.0", .global),
            ("192.168.1.1", .privateNetwork), ("192.169.0.1", .global),
            ("fc00::1", .privateNetwork), ("fd00:ec2::254", .privateNetwork), ("fbff::1", .global),
            ("100.63.255.255", .global), ("100.64.0.0", .sharedAddressSpace), ("100.100.100.200", .sharedAddressSpace),
            ("100.127.255.255", .sharedAddressSpace), ("100.128.0.0", .global),
            ("169.254.169.254", .linkLocal), ("169.254.0.1", .linkLocal), ("fe80::1", .linkLocal), ("febf::1", .linkLocal),
            ("fec0::1", .global),
            ("0.0.0.0", .unspecified), ("0.1.2.3", .unspecified), ("::", .unspecified),
        ]
        for (text, scope) in expected { #expect(self.scope(text) == scope, "\(text)") }
    }

    /// An IPv4-mapped IPv6 address has its IPv4 address's scope, in either notation.
    @Test func ipv4Mapped() {
        #expect(scope("::ffff:127.0.0.1") == .loopback)
        #expect(scope("::ffff:7f00:1") == .loopback)
        #expect(scope("::ffff:169.254.169.254") == .linkLocal)
        #expect(scope("::ffff:10.1.2.3") == .privateNetwork)
        #expect(scope("::ffff:100.64.0.1") == .sharedAddressSpace)
        #expect(scope("::ffff:0.0.0.0") == .unspecified)
        #expect(scope("::ffff:8.8.8.8") == .global)
    }

    /// An IPv6 address that carries an IPv4 address has that address's scope, in every form
    /// a connection can reach it through: IPv4-compatible (::/96 but :: and ::1), the NAT64
    /// prefix 64:ff9b::/96 (the last 32 bits), 6to4 2002::/16 (bits 16 to 47). Their
    /// neighbours outside those prefixes are what they are.
    @Test func embeddedIPv4() {
        let expected: [(String, AddressScope)] = [
            ("::127.0.0.1", .loopback), ("::7f00:1", .loopback), ("::169.254.169.254", .linkLocal), ("::10.0.0.1", .privateNetwork),
            ("::0.0.0.2", .unspecified), ("::8.8.8.8", .global), ("::", .unspecified), ("::1", .loopback), ("::1:7f00:1", .global),
            ("64:ff9b::7f00:1", .loopback), ("64:ff9b::127.0.0.1", .loopback), ("64:ff9b::169.254.169.254", .linkLocal),
            ("64:ff9b::192.168.0.1", .privateNetwork), ("64:ff9b::100.64.0.1", .sharedAddressSpace), ("64:ff9b::8.8.8.8", .global),
            ("64:ff9b:0:0:1::7f00:1", .global),
            ("2002:7f00:1::1", .loopback), ("2002:a9fe:a9fe::", .linkLocal), ("2002:c0a8:101:1::1", .privateNetwork),
            ("2002:0:1::", .unspecified), ("2002:808:808::1", .global), ("2003:7f00:1::1", .global),
        ]
        for (text, scope) in expected { #expect(self.scope(text) == scope, "\(text)") }
        #expect(IPAddress("2002:7f00:1::1")?.embeddedIPv4?.address == IPAddress("127.0.0.1"))
        #expect(IPAddress("2002:7f00:1::1")?.embeddedIPv4?.form == .sixToFour)
        #expect(IPAddress("::ffff:10.0.0.1")?.embeddedIPv4?.form == .mapped)
        #expect(IPAddress("::1")?.embeddedIPv4 == nil && IPAddress("127.0.0.1")?.embeddedIPv4 == nil)
    }

    /// 64:ff9b:1::/48, the local-use NAT64 prefix, maps to IPv4 in a layout its network's
    /// operator chooses: where it leads cannot be known, so it is not public, whatever it holds.
    @Test func localUseNAT64IsNeverPublic() {
        for text in ["64:ff9b:1::8.8.8.8", "64:ff9b:1::7f00:1", "64:ff9b:1:ffff:ffff:ffff:ffff:ffff", "64:ff9b:1::"] {
            #expect(scope(text) == .localTranslation, "\(text)")
        }
        #expect(scope("64:ff9b:2::808:808") == .global)
        let refused = AddressPolicy(allowPrivateNetwork: false).refusal(of: IPAddress("64:ff9b:1::808:808")!)
        #expect(refused?.description == "64:ff9b:1::808:808 is in the local-use NAT64 prefix 64:ff9b:1::/48, which leads to an IPv4 address "
            + "of the network's own choosing (it may be a private one), not known to be public")
        #expect(AddressPolicy(allowPrivateNetwork: true).refusal(of: IPAddress("64:ff9b:1::808:808")!) == nil)
    }

    @Test func textRoundTrip() {
        for text in ["127.0.0.1", "::1", "fe80::1", "::ffff:10.0.0.1", "2001:db8::8:800:200c:417a"] {
            #expect(IPAddress(text)?.description == text)
        }
        for text in ["", "localhost", "127.1", "256.0.0.1", "[::1]", "fe80::1%eth0", "::ffff:1.2.3"] { #expect(IPAddress(text) == nil, "\(text)") }
    }

    @Test func policy() {
        let publicOnly = AddressPolicy(allowPrivateNetwork: false)
        let any = AddressPolicy(allowPrivateNetwork: true)
        let loopback = IPAddress("127.0.0.1")!
        #expect(publicOnly.refusal(of: loopback)?.address == loopback)
        #expect(publicOnly.refusal(of: loopback)?.scope == .loopback)
        #expect(publicOnly.refusal(of: loopback)?.description == "127.0.0.1 is a loopback address, not a public one")
        #expect(publicOnly.refusal(of: IPAddress("0.0.0.0")!)?.description == "0.0.0.0 is an unspecified address, not a public one")
        #expect(publicOnly.refusal(of: IPAddress("::127.0.0.1")!)?.description
            == "::127.0.0.1 carries the IPv4 address 127.0.0.1 (IPv4-compatible), a loopback address, not a public one")
        #expect(publicOnly.refusal(of: IPAddress("64:ff9b::a9fe:a9fe")!)?.description
            == "64:ff9b::a9fe:a9fe carries the IPv4 address 169.254.169.254 (NAT64), a link-local address, not a public one")
        #expect(publicOnly.refusal(of: IPAddress("93.184.215.14")!) == nil)
        #expect(any.refusal(of: loopback) == nil)
        #expect(any.refusal(of: IPAddress("169.254.169.254")!) == nil)
    }
}
