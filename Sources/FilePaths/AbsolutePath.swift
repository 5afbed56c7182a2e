import Foundation

/// The one rule for turning a path Reel is given into the path it uses: an absolute path stays
/// where it points, a relative one starts at `folder` (the current folder unless given), and
/// the result is standardized, without `.`, `..` or doubled `/`. `..` is taken by name, before
/// any symlink; `~` is a name like any other.
public func absolutePath(_ path: String, from folder: String = FileManager.default.currentDirectoryPath) -> String {
    URL(fileURLWithPath: path.hasPrefix("/") ? path : folder + "/" + path).standardizedFileURL.path
}
