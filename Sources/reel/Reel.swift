import ArgumentParser

@main
struct Reel: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel",
        abstract: "Render videos from declarative project files.",
        subcommands: [Validate.self, Graph.self, Probe.self]
    )
}
