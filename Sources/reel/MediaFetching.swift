import ReelApplication
import ArgumentParser
import Foundation
import NetworkPolicy
import RemoteMedia

/// `--offline`, and the cache of `http(s)://` media every command that reads a project uses.
struct MediaFetching: ParsableArguments {
    @Flag(help: "Fetch no remote media: use only the media cache (REEL_OFFLINE=1 does the same).")
    var offline = false

    /// A workspace whose media cache has the environment's settings and reports its fetches
    /// on standard error; Ctrl-C or SIGTERM during a fetch cancels it (exit 130). Throws
    /// `UsageError` for a malformed setting.
    func workspace(addressPolicy: AddressPolicy? = nil) throws -> Workspace {
        let line = FetchProgressLine()
        do {
            return try Workspace(environment: ProcessInfo.processInfo.environment, offline: offline, offlineSwitch: "--offline", addressPolicy: addressPolicy,
                                 report: { line.show($0) }, interruptions: { SignalCancellation(handler: $0) })
        } catch {
            throw UsageError(error.description)
        }
    }
}
