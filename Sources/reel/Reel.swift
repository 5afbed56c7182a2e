import ArgumentParser

@main
struct Reel: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel",
        abstract: "Render videos from declarative project files.",
        subcommands: [Probe.self, Render.self]
    )
}
