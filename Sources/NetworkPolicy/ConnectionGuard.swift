import CCurl
import Foundation

/// Holds one libcurl transfer to an `AddressPolicy` at the moment it connects, so a name that
/// resolves to a refused address, at once or only the second time (DNS rebinding), or a
/// redirect to one, gets nowhere.
///
/// The check is curl's open-socket callback (`CURLOPT_OPENSOCKETFUNCTION`): curl calls it with
/// each resolved address it is about to connect to, on every connection, before the socket
/// exists; refused, the address is sent nothing, not even a SYN, and curl goes on to the name's
/// next address. `CURLOPT_PREREQFUNCTION` (libcurl 7.80) sees the address only once connected,
/// TLS handshake done, as text: the refused host would have been reached, and its port probed.
/// Checking a name resolved beforehand would not hold: curl resolves it again.
///
/// With a restrictive policy no proxy is used either: through one, the connected address would
/// be the proxy's, and the proxy would resolve the name.
public final class ConnectionGuard {
    private let policy: AddressPolicy
    private var refusals: [RefusedAddress] = []
    private var opened = 0

    public init(policy: AddressPolicy) { self.policy = policy }

    /// Has curl ask this guard before each connection of the transfer on `handle` (a curl easy
    /// handle); nothing to ask when the policy allows every address. The guard must outlive the
    /// transfer.
    public func install(on handle: UnsafeMutableRawPointer) {
        guard !policy.allowsPrivateNetwork else { return }
        _ = reel_curl_easy_setopt_pointer(handle, REEL_CURLOPT_PROXY, "")
        _ = reel_curl_easy_setopt_pointer(handle, REEL_CURLOPT_OPENSOCKETDATA, Unmanaged.passUnretained(self).toOpaque())
        _ = reel_curl_easy_setopt_open_socket(handle) { context, _, address in
            Unmanaged<ConnectionGuard>.fromOpaque(context!).takeUnretainedValue().openSocket(address!)
        }
    }

    /// The first address refused, when every address curl tried was (it then fails with
    /// `CURLE_COULDNT_CONNECT`); nil when it connected anywhere, or was refused nothing.
    public var refusal: RefusedAddress? { opened == 0 ? refusals.first : nil }

    /// A socket for `address`, as curl opens one without this callback, or none (refused).
    private func openSocket(_ address: UnsafeMutablePointer<ReelCurlSockaddr>) -> Int32 {
        let socketAddress = UnsafeRawPointer(address) + MemoryLayout<ReelCurlSockaddr>.offset(of: \.addr)!
        // Not IPv4 or IPv6 (never, with http and https only): no address to judge, none opened.
        guard let ip = IPAddress(socketAddress: socketAddress, length: Int(address.pointee.addrlen)) else { return REEL_CURL_SOCKET_BAD }
        if let refused = policy.refusal(of: ip) {
            refusals.append(refused)
            return REEL_CURL_SOCKET_BAD
        }
        opened += 1
        return socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
    }
}
