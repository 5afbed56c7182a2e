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
        #expect(publicOnly.refusal(of: loopback)?.description == "127.0.0.1 is not a public address (loopback)")
        #expect(publicOnly.refusal(of: IPAddress("93.184.215.14")!) == nil)
        #expect(any.refusal(of: loopback) == nil)
        #expect(any.refusal(of: IPAddress("169.254.169.254")!) == nil)
    }
}
