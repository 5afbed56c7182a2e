import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ProjectFile
import ReelApplication
import ServiceLifecycle
import Synchronization

/// `reel preview`: a local web server with one page that plays the project, shows exact
/// frames, its timeline and vars, and follows every change of the files it reads.
///
/// It binds `configuration.host` (127.0.0.1 unless told otherwise) and runs until `stop()`;
/// then it stops taking requests, cancels the renders (their temporary files go with them)
/// and returns.
public final class PreviewServer: Sendable {
    /// Why the server could not start.
    public struct StartFailure: Error, CustomStringConvertible {
        public enum Reason: Sendable {
            /// Another program listens on the port.
            case portInUse
            /// Any other reason, as the system gives it.
            case cannotListen(String)
        }

        public let host: String
        public let port: Int
        public let reason: Reason

        public var description: String {
            switch reason {
            case .portInUse: "port \(port) on \(host) is in use by another program; stop it, or pick another port (port 0 takes any free one)"
            case .cannotListen(let error): "cannot listen on \(host) port \(port): \(error)"
            }
        }
    }

    private let configuration: PreviewConfiguration
    private let session: PreviewSession
    /// The running server's services, and whether `stop()` came first.
    private let running = Mutex<(group: ServiceGroup?, stopRequested: Bool)>((nil, false))

    public init(_ configuration: PreviewConfiguration) {
        self.configuration = configuration
        session = PreviewSession(configuration)
    }

    /// Starts loading the project, binds and serves until `stop()`. `ready` gets the page's URL once
    /// the port is open. Throws `StartFailure` (the port is taken, the address cannot be
    /// bound), a `ProjectError` when the project file is missing (a file that is not there will
    /// not be edited into a project; an invalid one will), or the page's resources are missing.
    public func run(ready: @escaping @Sendable (String) -> Void) async throws {
        do throws(ProjectError) {
            _ = try DocumentLoader.load(path: configuration.projectPath)
        } catch where error.category == .missingFile {
            throw error
        } catch {}
        let assets = try PageAssets()
        session.start()
        defer { session.stop() }
        let port = BoundPort(configuration.port)
        let hosts = AllowedHosts(host: configuration.host, port: port)
        var logger = Logger(label: "reel.preview") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        let app = Application(
            router: PreviewRoutes.router(session: session, assets: assets, hosts: hosts),
            server: .http1(configuration: .init(additionalChannelHandlers: [ClosesWhenClientLeaves()], idleTimeout: Connections.headTimeout)),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil,
                                 availableConnectionsDelegate: MaximumAvailableConnections(Connections.maximum)),
            onServerRunning: { channel in
                port.value = channel.localAddress?.port ?? port.value
                ready("http://\(AllowedHosts.bracketed(hosts.host)):\(port.value)/")
            },
            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let stopNow: Bool = running.withLock {
            $0.group = group
            return $0.stopRequested
        }
        if stopNow { return }
        do {
            try await group.run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw StartFailure(host: configuration.host, port: configuration.port, reason: .portInUse)
        } catch let error as IOError {
            throw StartFailure(host: configuration.host, port: configuration.port, reason: .cannotListen("\(error)"))
        }
    }

    /// Stops serving (safe from any thread, more than once): the page's waiting requests end,
    /// then the server closes.
    public func stop() {
        let group: ServiceGroup? = running.withLock {
            $0.stopRequested = true
            return $0.group
        }
        session.stop()
        Task { await group?.triggerGracefulShutdown() }
    }
}

/// The port the server listens on: the one asked for, or the one the system gave for port 0.
final class BoundPort: Sendable {
    private let port: Mutex<Int>

    init(_ port: Int) { self.port = Mutex(port) }

    var value: Int {
        get { port.withLock { $0 } }
        set { port.withLock { $0 = newValue } }
    }
}
