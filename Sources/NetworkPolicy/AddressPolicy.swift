/// Which addresses Reel may connect to for a URL it was given (a webhook's, a remote media
/// file's): public ones only, unless private networks are allowed (`--allow-private-network`).
/// An IPv6 address that carries an IPv4 address is judged by that IPv4 address.
/// `ConnectionGuard` applies it to a libcurl transfer.
public struct AddressPolicy: Sendable, Equatable {
    /// Whether loopback, private, shared, link-local, unspecified and local-use NAT64
    /// addresses are allowed too.
    public var allowsPrivateNetwork: Bool

    public init(allowPrivateNetwork: Bool) { allowsPrivateNetwork = allowPrivateNetwork }

    /// Why `address` may not be connected to; nil when it may.
    public func refusal(of address: IPAddress) -> RefusedAddress? {
        let scope = address.scope
        return allowsPrivateNetwork || scope == .global ? nil : RefusedAddress(address: address, scope: scope)
    }
}

/// An address the policy refused to connect to.
public struct RefusedAddress: Error, Equatable, Sendable, CustomStringConvertible {
    public let address: IPAddress
    public let scope: AddressScope

    /// `127.0.0.1 is a loopback address, not a public one`; for an IPv6 address carrying an
    /// IPv4 address, that address too (`::127.0.0.1 carries 127.0.0.1 (IPv4-compatible), …`).
    public var description: String {
        if scope == .localTranslation {
            return "\(address) is in the local-use NAT64 prefix 64:ff9b:1::/48, which leads to an IPv4 address of the network's own choosing "
                + "(it may be a private one), not known to be public"
        }
        let what = "\(scope == .unspecified ? "an" : "a") \(scope.rawValue) address, not a public one"
        guard let embedded = address.embeddedIPv4 else { return "\(address) is \(what)" }
        return "\(address) carries the IPv4 address \(embedded.address) (\(embedded.form.rawValue)), \(what)"
    }
}
