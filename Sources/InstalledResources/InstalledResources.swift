import Foundation

/// Where Reel's resource files (the project schema, the service's OpenAPI document, the preview
/// page) are read from. An installed reel (`/usr/bin/reel` of the Debian package) reads them from
/// `share/reel/` beside the folder of its executable (`/usr/share/reel/`); a reel in a build tree,
/// and the tests, find no such folder and read SwiftPM's resource bundle of the module that owns
/// the file (`Bundle.module`, which stops the process when its bundle is missing).
public enum InstalledResources {
    /// `../share/reel` from the running executable, symlinks resolved.
    public static let folder: URL? = Bundle.main.executableURL.map { executable in
        executable.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/reel", isDirectory: true)
    }

    /// The file `name.ext` (in `subdirectory`) of the installed folder when that folder exists
    /// (nil when the file is not there), else of `bundle`, which is only evaluated then.
    public static func url(forResource name: String, withExtension ext: String, subdirectory: String? = nil,
                           installedIn installed: URL? = folder, bundle: @autoclosure () -> Bundle) -> URL? {
        guard let installed, isFolder(installed) else {
            return bundle().url(forResource: name, withExtension: ext, subdirectory: subdirectory)
        }
        var file = installed
        if let subdirectory { file.appendPathComponent(subdirectory, isDirectory: true) }
        file.appendPathComponent("\(name).\(ext)")
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }

    private static func isFolder(_ url: URL) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) && folder.boolValue
    }
}
