/// Which addresses Reel may connect to for a URL it was given (a webhook's, a remote media
/// file's): public ones only, unless private networks are allowed (`--allow-private-network`).
/// `ConnectionGuard` applies it to a libcurl transfer.
public struct AddressPolicy: Sendable, Equatable {
    /// Whether loopback, private, shared, link-local and unspecified addresses are allowed too.
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

    public var description: String { "\(address) is not a public address (\(scope.rawValue))" }
}
