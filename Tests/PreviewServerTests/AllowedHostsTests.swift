@testable import PreviewServer
import Testing

/// The Host header rule against DNS rebinding, for each kind of bound address.
struct AllowedHostsTests {
    @Test func loopbackTakesItsAddressAndLocalhostWithThePort() {
        let hosts = AllowedHosts(host: "127.0.0.1", port: BoundPort(8640))
        #expect(hosts.allows(authority: "127.0.0.1:8640"))
        #expect(hosts.allows(authority: "localhost:8640"))
        #expect(hosts.allows(authority: "LOCALHOST:8640"))
        for refused in ["127.0.0.1", "127.0.0.1:8641", "evil.example:8640", "127.0.0.1.evil.example:8640", "[::1]:8640", "192.168.1.2:8640", "", ":8640"] {
            #expect(!hosts.allows(authority: refused), "\(refused)")
        }
        #expect(!hosts.allows(authority: nil))
        #expect(hosts.allows(origin: "http://127.0.0.1:8640"))
        #expect(!hosts.allows(origin: "http://evil.example:8640"))
        #expect(!hosts.allows(origin: "https://127.0.0.1:8640"))
    }

    @Test func ipv6Loopback() {
        let hosts = AllowedHosts(host: "::1", port: BoundPort(9000))
        #expect(hosts.allows(authority: "[::1]:9000"))
        #expect(hosts.allows(authority: "localhost:9000"))
        #expect(!hosts.allows(authority: "[::2]:9000"))
        #expect(hosts.example == "[::1]:9000")
    }

    /// Every interface (only with --allow-remote): any address literal, but no name other than
    /// localhost, since rebinding needs a name.
    @Test func anyAddressTakesAddressLiteralsButNoNames() {
        let hosts = AllowedHosts(host: "0.0.0.0", port: BoundPort(8640))
        #expect(hosts.allows(authority: "192.168.1.20:8640"))
        #expect(hosts.allows(authority: "[fe80::1]:8640"))
        #expect(hosts.allows(authority: "localhost:8640"))
        #expect(!hosts.allows(authority: "preview.example:8640"))
        #expect(!hosts.allows(authority: "192.168.1.20:80"))
    }

    /// A Host without a port means http's default, 80: `http://127.0.0.1/` sends `127.0.0.1`.
    @Test func aHostWithoutAPortIsPort80() {
        let hosts = AllowedHosts(host: "127.0.0.1", port: BoundPort(80))
        for allowed in ["127.0.0.1", "localhost", "127.0.0.1:80", "LOCALHOST"] {
            #expect(hosts.allows(authority: allowed), "\(allowed)")
        }
        for refused in ["127.0.0.1:", "127.0.0.1:8640", "evil.example", "[::1]", "::1", "127.0.0.1:80:80"] {
            #expect(!hosts.allows(authority: refused), "\(refused)")
        }
        #expect(hosts.allows(origin: "http://127.0.0.1"))
        #expect(AllowedHosts(host: "::1", port: BoundPort(80)).allows(authority: "[::1]"))
        #expect(!AllowedHosts(host: "127.0.0.1", port: BoundPort(8080)).allows(authority: "127.0.0.1"))
    }

    @Test func theRealPortOfPortZero() {
        let port = BoundPort(0)
        let hosts = AllowedHosts(host: "127.0.0.1", port: port)
        port.value = 41234
        #expect(hosts.allows(authority: "127.0.0.1:41234"))
    }
}
