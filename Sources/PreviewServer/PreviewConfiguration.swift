import ReelApplication
import ProjectCompiler
import ProjectFile
import RenderEngine

/// What `reel preview` asks of the server.
public struct PreviewConfiguration: Sendable {
    /// The project file as given on the command line (the page's title).
    public var projectPath: String
    /// Opens the project (media facts, fonts, the remote media cache of the session).
    public var workspace: Workspace
    /// Var values set on the command line (`--set`), which win over `varsFile`'s; the page's
    /// win over both.
    public var setVars: [VarOverride]
    /// A file of var values (`--vars`), read again at every load.
    public var varsFile: String?
    /// How the person who starts the preview gives a var a value (a front end's option, `--set`),
    /// for hints; nil: not said.
    public var setOption: String?
    /// The rendition to show (nil: the project's first, if it has renditions).
    public var rendition: String?
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

    public init(projectPath: String, workspace: Workspace, setVars: [VarOverride], varsFile: String?, rendition: String?,
                size: StillSize, host: String, port: Int, cacheFolder: String, log: @escaping @Sendable (String) -> Void) {
        self.projectPath = projectPath
        self.workspace = workspace
        self.setVars = setVars
        self.varsFile = varsFile
        self.rendition = rendition
        self.size = size
        self.host = host
        self.port = port
        self.cacheFolder = cacheFolder
        self.log = log
    }

    /// Files read besides those the graph names: the project file, the vars file.
    var inputFiles: [String] { [projectPath] + (varsFile.map { [$0] } ?? []) }

    /// The project with the var values the page set (they win over the command line's);
    /// returns it with every var value given from outside. Throws what `reel validate` reports.
    func load(pageVars: [VarOverride]) throws(ProjectError) -> (project: ProjectPipeline.Loaded, vars: [VarOverride]) {
        let vars = try VarInputs(varsFile: varsFile, set: setVars + pageVars, rendition: rendition, renditionInput: "rendition")
        return (try workspace.open(projectPath, vars: vars), vars.overrides)
    }
}
