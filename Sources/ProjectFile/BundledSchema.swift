import Foundation
import InstalledResources

/// Reel's project schema, `Schemas/reel.schema.json`, bundled with this module (installed: /usr/share/reel/).
extension DocumentSchema {
    /// The schema document itself.
    public static func bundledSchemaNode() throws(ProjectError) -> Node {
        guard let url = InstalledResources.url(forResource: "reel.schema", withExtension: "json", bundle: Bundle.module) else {
            throw ProjectError(.missingFile, Diagnostic(location: SourceLocation(file: "reel.schema.json", line: 1, column: 1), path: "",
                                                        message: "the bundled schema reel.schema.json is missing from Reel's resources (share/reel/ beside reel's bin/ folder when installed, else the ProjectFile bundle); reinstall Reel"))
        }
        // Reel's own file: the default limits, whatever the environment sets for projects.
        return try DocumentLoader.load(path: url.path, limits: LoadLimits()).root
    }

    /// The schema compiled, once per process.
    public static func bundled() throws(ProjectError) -> DocumentSchema {
        try compiledBundle.get()
    }

    private static let compiledBundle = Result { () throws(ProjectError) in try DocumentSchema(bundledSchemaNode()) }
}
