import Foundation

/// The desktop's default browser (xdg-open), for a front end that shows a page.
public enum ExternalBrowser {
    /// Opens `url`; nil once started, else what went wrong and what to do instead.
    public static func open(_ url: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url]
        do {
            try process.run()
            return nil
        } catch {
            return "cannot start xdg-open (\(error)); open \(url) yourself"
        }
    }
}
