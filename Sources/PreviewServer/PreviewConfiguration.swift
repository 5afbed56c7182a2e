import ProjectCompiler
import ProjectFile
import RenderEngine

/// What `reel preview` asks of the server.
public struct PreviewConfiguration: Sendable {
    /// Loads the project with the var values the page set (they win over the command line's);
    /// returns it with every var value given from outside. Throws what `reel validate` reports.
    public typealias Loader = @Sendable (_ pageVars: [VarOverride]) throws -> (project: ProjectPipeline.Loaded, vars: [VarOverride])

    /// The project file as given on the command line (the page's title).
    public var projectPath: String
    /// Files read besides those the graph names: the project file, a `--vars` file.
    public var inputFiles: [String]
    public var load: Loader
    /// The message of an error, exactly as the command line prints it.
    public var describe: @Sendable (any Error) -> String
    /// The size of stills and playback, as `reel frame --size`.
    public var size: StillSize
    /// The address to bind: 127.0.0.1 unless the user says otherwise.
    public var host: String
    /// 0: any free port.
    public var port: Int
    /// Where parts and playback pieces are kept (the segment cache).
    public var cacheFolder: String
    /// A line for the terminal (a reload, a failure); from any thread.
    public var log: @Sendable (String) -> Void

    public init(projectPath: String, inputFiles: [String], load: @escaping Loader, describe: @escaping @Sendable (any Error) -> String,
                size: StillSize, host: String, port: Int, cacheFolder: String, log: @escaping @Sendable (String) -> Void) {
        self.projectPath = projectPath
        self.inputFiles = inputFiles
        self.load = load
        self.describe = describe
        self.size = size
        self.host = host
        self.port = port
        self.cacheFolder = cacheFolder
        self.log = log
    }
}
