import ArgumentParser
import ReelVersion

@main
struct Reel: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel",
        abstract: "Render videos from declarative project files.",
        discussion: """
            A project (YAML or JSON) names media, places clips on tracks with transitions, mixes \
            audio and draws text and images on top. Start with:
              reel validate Examples/promo/project.yaml
              reel graph Examples/promo/project.yaml
              reel frame Examples/promo/project.yaml --at 3.5s -o frame.png
              reel render Examples/promo/project.yaml -o promo.mp4
            The format is described in docs/format.md; the schema is Schemas/reel.schema.json.
            """,
        version: ReelVersion.current,
        subcommands: [Validate.self, Graph.self, Probe.self, Render.self, Plan.self, Join.self, Frame.self, Thumbnails.self, Preview.self, Serve.self, BatchRender.self, Import.self, Export.self, Diff.self]
    )
}
