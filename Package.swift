// swift-tools-version: 6.0
import PackageDescription

/// Compiled with -O in debug builds too: the modules whose code runs for every pixel, sample,
/// hashed byte or schema check. The tests run hundreds of renders with the debug build, which
/// at -Onone spent much of its time in Swift code (a sixth of a small render in SHA-256 alone).
/// `@testable import` still works (debug builds pass -enable-testing); no Reel code uses
/// `assert`, which -O would drop. The output's bytes stay the same: the goldens prove it.
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// Module layout (see README "Design"):
/// MediaTime ← {ProjectFile, CompositionGraph} ← ProjectCompiler ← reel
/// JSONSchema ← ProjectFile (JSONSchema is a general JSON Schema validator; it knows nothing of Reel)
/// CompositionGraph ← {OverlayRendering, RenderEngine, TimelinePage} ← reel
/// {ProjectFile, ProjectCompiler} ← Interchange ← reel (EDL and OpenTimelineIO in and out; no FFmpeg, no Cairo)
/// CompositionGraph ← FileSafety ← {Batch, reel}: an output is never a file the command reads.
/// {ProjectCompiler, RemoteMedia, RenderEngine, MediaIO, OverlayRendering, FileSafety, Batch, Interchange, TimelinePage, FilePaths}
///   ← ReelApplication ← {PreviewServer, reel}: the application layer, what every front end does with the libraries (open a project
///   with this machine's media, fonts and media cache; validate, plan, render, batch, export; say what went wrong as values).
/// {ProjectFile, ProjectCompiler, CompositionGraph, TimelinePage} ← ProjectDiff ← ReelApplication: what a change does to the output (`reel diff`),
///   decided from the segments' content keys, which ReelApplication computes; no FFmpeg, no Cairo.
/// {ReelApplication, RenderEngine, TimelinePage, Hummingbird} ← PreviewServer ← reel: `reel preview`, a web page on this machine; it makes
///   its stills with RenderEngine and asks ReelApplication for its playback (`PlaybackRender`). Only `reel` writes to the terminal.
/// {ReelApplication, AtomicFiles, Digest, Webhooks, NetworkPolicy, SQLStore, Hummingbird} ← RenderService ← reel: `reel serve`, the render API
///   with its jobs in SQLite, or in PostgreSQL for several nodes on one queue. SQLStore: one SQL text over SQLite's C API (CSQLite) and libpq (CLibPQ).
/// RegularFiles ← {ProjectFile, ProjectCompiler, Batch, RenderEngine, LUTFiles, …}: every file read is checked to be a file (and stamped);
///   CompositionGraph holds values only (no file reading, no pixel maths). Digest ← {Batch, RemoteMedia, RenderEngine, Webhooks}.
/// MediaIO (FFmpeg, and glibc's heap through CLinuxHeap), OverlayRendering (Cairo), RemoteMedia, NetworkPolicy and Webhooks (libcurl,
///   through CCurl) and SQLStore (SQLite, libpq) are the only modules that touch C libraries.
/// {Digest, NetworkPolicy} ← Webhooks, for the render service: `Reel-Signature` (HMAC-SHA256), the retry schedule, one signed POST.
///   NetworkPolicy holds a libcurl transfer to public addresses, checked as it connects; `CurlTransfer` is the one libcurl set-up
///   (http(s) only, that guard, curl's error text) RemoteMedia and Webhooks share.
/// PortableMath ← {ProjectCompiler, OverlayRendering, RenderEngine}: no libm call shapes the output.
/// Looks ← {CompositionGraph, ProjectCompiler, TimelinePage, RenderEngine}: each look (filter) described once, in its own folder of
///   Sources/Looks; the graph holds filters by their look, and everything else works from the catalog.
/// {Looks, LUTFiles} ← LookKernels ← RenderEngine: each look's pixels; RegularFiles ← LUTFiles ← ProjectCompiler: `.cube` files.
/// PortableMath ← TransitionKernels ← {ProjectCompiler, RenderEngine, FormatGeneration}: the mixing transitions (gl-transitions' kinds),
///   each declared (name, parameters) beside its pixel maths; the graph holds a mix by name and values.
/// CShaderGL ← ShaderRendering ← {ProjectCompiler, RenderEngine}: users' GLSL transitions, compiled (errors at the .glsl file's lines)
///   and drawn by Mesa's llvmpipe through EGL without a display, on one thread, the CPU's features pinned to SSE4.1 for the same bytes.
/// ReelVersion ← {RenderEngine, RenderService, reel}: the product's version, said once.
/// FilePaths ← {ProjectCompiler, FileSafety, Batch, Interchange, reel}: one rule makes a given path absolute.
/// AtomicFiles ← {MediaIO, RenderEngine, RemoteMedia, Batch, ReelApplication}: every file Reel writes appears whole or not at all
///   (a locked temporary file renamed into place); MediaIO and the others word its errors as their own.
/// {CompositionGraph, Looks, MediaFormat, ProjectCompiler} ← FormatGeneration ← GenerateFormat (`scripts/generate-format`): the schema's
///   parts and docs/format.md's tables that list the format's catalogues, made from their Swift declarations; FormatGenerationTests checks both.
/// InstalledResources ← {ProjectFile, PreviewServer, RenderService}: resource files from /usr/share/reel/ when reel is installed
///   there (scripts/package-deb), else from SwiftPM's bundles.
let package = Package(
    name: "Reel",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "reel", targets: ["reel"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
    ],
    targets: [
        // Pure Swift: no FFmpeg, no Cairo.
        .target(name: "MediaTime", swiftSettings: optimizedInDebug),
        // Lengths with units and sums of them ("100vw - 2 * 48px"), evaluated exactly.
        .target(name: "LengthExpressions", dependencies: ["MediaTime"]),
        // sin, cos, exp, log… with the same bits on every CPU (glibc's differ with and without FMA).
        .target(name: "PortableMath", swiftSettings: optimizedInDebug),
        .target(name: "MediaFormat"),
        .target(name: "JSONSchema", swiftSettings: optimizedInDebug),
        // Is this path a file Reel may read (not a FIFO, a folder or a device)?
        .target(name: "RegularFiles"),
        // The one rule for making a given path absolute (relative to a folder, standardized).
        .target(name: "FilePaths"),
        // Reel's version, read by every front end and by the render engine (segment keys).
        .target(name: "ReelVersion"),
        // Every look (filter) a layer can take, each described once: its name and parameters (Sources/Looks/README.md).
        .target(name: "Looks", exclude: ["README.md"]),
        // `.cube` 3D LUT files: read and checked by the compiler, prepared by the looks' pixels.
        .target(name: "LUTFiles", dependencies: ["RegularFiles"]),
        // The looks' pixels: each look's kernel, integer maths on 8-bit planes (no FFmpeg, no Cairo).
        .target(name: "LookKernels", dependencies: ["Looks", "LUTFiles"], swiftSettings: optimizedInDebug),
        // Writing a file whole or not at all: a locked temporary file beside it, renamed into place.
        .target(name: "AtomicFiles"),
        // Where the resource files are: /usr/share/reel/ for an installed reel, else SwiftPM's bundles.
        .target(name: "InstalledResources"),
        .target(
            name: "ProjectFile",
            dependencies: ["MediaTime", "JSONSchema", "RegularFiles", "InstalledResources", .product(name: "Yams", package: "Yams")],
            resources: [.copy("Resources/reel.schema.json")],
            swiftSettings: optimizedInDebug
        ),
        .target(name: "CompositionGraph", dependencies: ["MediaTime", "MediaFormat", "Looks", "PortableMath"], swiftSettings: optimizedInDebug),
        .target(name: "TransitionKernels", dependencies: ["PortableMath"], swiftSettings: optimizedInDebug),
        // Mesa's llvmpipe through EGL without a display: users' GLSL transitions, run on the CPU.
        .target(name: "CShaderGL", linkerSettings: [.linkedLibrary("EGL")]),
        .target(name: "ShaderRendering", dependencies: ["CShaderGL", "TransitionKernels"]),
        .target(name: "ProjectCompiler", dependencies: ["MediaTime", "LengthExpressions", "MediaFormat", "JSONSchema", "ProjectFile", "CompositionGraph", "Looks", "LUTFiles", "PortableMath", "RegularFiles", "FilePaths", "TransitionKernels", "ShaderRendering", "Digest"], swiftSettings: optimizedInDebug),
        .target(name: "FileSafety", dependencies: ["CompositionGraph", "MediaFormat", "FilePaths"]),
        .target(name: "Digest", swiftSettings: optimizedInDebug),
        .target(name: "Batch", dependencies: ["AtomicFiles", "Digest", "JSONSchema", "ProjectFile", "CompositionGraph", "ProjectCompiler", "FileSafety", "RegularFiles", "FilePaths"]),
        .target(name: "TimelinePage", dependencies: ["MediaTime", "CompositionGraph", "Looks"]),
        // libcurl, opened at run time: remote media downloads (RemoteMedia).
        .target(name: "CCurl"),
        .target(name: "RemoteMedia", dependencies: ["AtomicFiles", "Digest", "ProjectFile", "ProjectCompiler", "CCurl", "NetworkPolicy"]),
        // Which addresses a URL from outside may lead to, checked as libcurl connects.
        .target(name: "NetworkPolicy", dependencies: ["CCurl"]),
        // libpq: the render service's PostgreSQL job store, shared by several nodes.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // One SQL text for SQLite and PostgreSQL (libpq), both through their C APIs: connections, rows, transactions, migrations.
        .target(name: "SQLStore", dependencies: ["CLibPQ", "CSQLite", .product(name: "NIOPosix", package: "swift-nio")]),
        // Webhook deliveries for the render service: signatures, the retry schedule, one signed POST.
        .target(name: "Webhooks", dependencies: ["Digest", "CCurl", "NetworkPolicy"]),
        // What a change to a project does to its output, from content keys: changed ranges and their causes (no FFmpeg, no Cairo).
        .target(name: "ProjectDiff", dependencies: ["MediaTime", "JSONSchema", "ProjectFile", "CompositionGraph", "ProjectCompiler", "TimelinePage"]),
        // The catalogues' parts of the schema and tables of docs/format.md, from their declarations (scripts/generate-format).
        .target(name: "FormatGeneration", dependencies: ["CompositionGraph", "Looks", "MediaFormat", "ProjectCompiler", "ProjectFile", "TransitionKernels"]),
        .executableTarget(name: "GenerateFormat", dependencies: ["FormatGeneration"]),
        .target(name: "Interchange", dependencies: ["MediaTime", "JSONSchema", "ProjectFile", "CompositionGraph", "ProjectCompiler", "RegularFiles", "FilePaths"]),

        // FFmpeg.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libavutil libswscale libswresample",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"])]
        ),
        // glibc heap tuning (mallopt, prctl) for MediaIO's HeapPolicy; empty on other systems.
        .target(name: "CLinuxHeap"),
        .target(name: "MediaIO", dependencies: ["AtomicFiles", "MediaTime", "MediaFormat", "CFFmpeg", "CLinuxHeap"], swiftSettings: optimizedInDebug),

        // Cairo, Pango, librsvg.
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo pangocairo librsvg-2.0 fontconfig",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev", "librsvg2-dev", "libfontconfig-dev"])]
        ),
        .target(name: "OverlayRendering", dependencies: ["MediaTime", "CompositionGraph", "PortableMath", "RegularFiles", "CCairo"], swiftSettings: optimizedInDebug),

        .target(name: "RenderEngine", dependencies: ["AtomicFiles", "MediaTime", "MediaFormat", "Digest", "PortableMath", "CompositionGraph", "Looks", "LookKernels", "TransitionKernels", "ShaderRendering",
                                             "LUTFiles", "RegularFiles", "ReelVersion", "MediaIO", "OverlayRendering"], swiftSettings: optimizedInDebug),

        // The application layer: what every front end does with the libraries (open a project
        // with this machine's media, fonts and remote media cache; say what went wrong).
        .target(name: "ReelApplication", dependencies: ["NetworkPolicy", "CompositionGraph", "ProjectFile", "ProjectCompiler", "RemoteMedia", "OverlayRendering",
                                                    "RenderEngine", "Interchange", "Batch", "FileSafety", "TimelinePage", "MediaIO", "FilePaths", "AtomicFiles", "ProjectDiff"]),

        // The preview server (`reel preview`): Hummingbird over the application layer.
        .target(
            name: "PreviewServer",
            dependencies: ["MediaTime", "MediaIO", "ProjectFile", "ProjectCompiler", "CompositionGraph", "RenderEngine", "TimelinePage", "FileSafety",
                           "ReelApplication", "InstalledResources",
                           .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdCore", package: "hummingbird"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            resources: [.copy("Resources/page")]
        ),

        // The render service (`reel serve`): Hummingbird and a SQLite or PostgreSQL job store over the application layer.
        .target(
            name: "RenderService",
            dependencies: ["ReelApplication", "AtomicFiles", "ProjectFile", "ProjectCompiler", "RenderEngine", "Batch", "MediaFormat", "Digest", "RemoteMedia", "Webhooks", "NetworkPolicy", "SQLStore", "InstalledResources", "ReelVersion",
                           .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                           .product(name: "Logging", package: "swift-log"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            resources: [.copy("Resources/openapi.json")]
        ),

        .executableTarget(
            name: "reel",
            dependencies: [
                "MediaTime", "MediaFormat", "FilePaths", "ProjectFile", "CompositionGraph", "ProjectCompiler", "MediaIO", "OverlayRendering", "RenderEngine", "Batch", "TimelinePage", "FileSafety", "Interchange", "PreviewServer", "RenderService", "RemoteMedia", "NetworkPolicy", "ReelApplication", "ProjectDiff", "ReelVersion",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Tests.
        .target(name: "TestSupport", dependencies: ["MediaTime", "CompositionGraph", "ProjectFile", "CLinuxHeap"], path: "Tests/TestSupport", exclude: ["webhook_receiver.py"]),
        // A Hummingbird router served on loopback for one test, spoken to over plain sockets.
        .target(name: "HTTPTesting", dependencies: ["TestSupport", .product(name: "Hummingbird", package: "hummingbird"),
                                                    .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                                                    .product(name: "Logging", package: "swift-log"),
                                                    .product(name: "NIOCore", package: "swift-nio"),
                                                    .product(name: "HTTPTypes", package: "swift-http-types")],
                path: "Tests/HTTPTesting"),
        .testTarget(name: "MediaTimeTests", dependencies: ["MediaTime"]),
        .testTarget(name: "LengthExpressionsTests", dependencies: ["LengthExpressions", "MediaTime"]),
        .testTarget(name: "AtomicFilesTests", dependencies: ["AtomicFiles"]),
        .testTarget(name: "InstalledResourcesTests", dependencies: ["InstalledResources"]),
        .testTarget(name: "PortableMathTests", dependencies: ["PortableMath", "Digest"]),
        .testTarget(name: "TransitionKernelsTests", dependencies: ["TransitionKernels"]),
        .testTarget(name: "ShaderRenderingTests", dependencies: ["ShaderRendering", "TransitionKernels"]),
        // JSON documents for the schema tests are read with ProjectFile's loader.
        .testTarget(name: "JSONSchemaTests", dependencies: ["JSONSchema", "ProjectFile", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "ProjectFileTests", dependencies: ["ProjectFile", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "FormatGenerationTests", dependencies: ["FormatGeneration", "ProjectFile"]),
        .testTarget(name: "CompositionGraphTests", dependencies: ["CompositionGraph", "TestSupport"]),
        .testTarget(name: "ProjectCompilerTests", dependencies: ["ProjectCompiler", "ProjectFile", "CompositionGraph", "Looks", "TestSupport"],
                    exclude: ["Fixtures", "Snapshots"]),
        .testTarget(name: "MediaIOTests", dependencies: ["AtomicFiles", "MediaIO", "MediaFormat", "TestSupport"]),
        .testTarget(name: "OverlayRenderingTests", dependencies: ["OverlayRendering", "CompositionGraph", "TestSupport"]),
        .testTarget(name: "RenderEngineTests", dependencies: ["RenderEngine", "Digest", "MediaIO", "CompositionGraph", "Looks", "LookKernels", "LUTFiles", "TestSupport"],
                    exclude: ["Golden"]),
        .testTarget(name: "TimelinePageTests", dependencies: ["TimelinePage", "CompositionGraph", "Looks", "MediaTime", "TestSupport"]),
        .testTarget(name: "FileSafetyTests", dependencies: ["FileSafety", "CompositionGraph", "MediaTime", "TestSupport"]),
        .testTarget(name: "DigestTests", dependencies: ["Digest"]),
        .testTarget(name: "NetworkPolicyTests", dependencies: ["NetworkPolicy"]),
        .testTarget(name: "WebhooksTests", dependencies: ["Webhooks", "NetworkPolicy", "TestSupport"]),
        .testTarget(name: "InterchangeTests", dependencies: ["Interchange", "ProjectCompiler", "ProjectFile", "CompositionGraph", "MediaTime", "TestSupport"]),
        .testTarget(name: "BatchTests", dependencies: ["Batch", "ProjectFile", "ProjectCompiler", "CompositionGraph", "MediaTime", "TestSupport"]),
        .testTarget(name: "RenderServiceTests", dependencies: ["RenderService", "SQLStore", "AtomicFiles", "ReelApplication", "RemoteMedia", "Webhooks", "NetworkPolicy", "TestSupport",
                                                             .product(name: "Hummingbird", package: "hummingbird"),
                                                             .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                                                             .product(name: "Logging", package: "swift-log"), "HTTPTesting"]),
        .testTarget(name: "ReelApplicationTests", dependencies: ["ReelApplication", "ProjectFile", "RemoteMedia", "RenderEngine", "FileSafety", "AtomicFiles", "Batch",
                                                               "CompositionGraph", "MediaIO", "MediaTime", "Interchange", "ProjectDiff", "TestSupport"]),
        .testTarget(name: "PreviewServerTests", dependencies: ["PreviewServer", "ProjectFile", "CompositionGraph", "ReelApplication", "RemoteMedia", "RenderEngine", "MediaIO", "TestSupport",
                                                             .product(name: "Hummingbird", package: "hummingbird"),
                                                             "HTTPTesting"]),
        .testTarget(name: "ReelCLITests", dependencies: ["reel", "ReelApplication", "TestSupport", "CompositionGraph", "Digest", "FileSafety", "MediaIO", "OverlayRendering", "PreviewServer", "ProjectFile", "RenderEngine"],
                    exclude: ["Golden", "Support/media_server.py"]),
    ],
    swiftLanguageModes: [.v6]
)

/// Release builds of Reel's own modules are testable too (`@testable import` needs
/// -enable-testing), so one release build serves the tests and the Debian package: `scripts/test`
/// builds once, runs the tests on that build, and packages its `reel` (relinked with the Swift
/// runtime in, scripts/link-static.py). -enable-testing keeps internal symbols visible; the
/// promo rendered with and without it took the same time (8.6–8.8 s) and gave the same bytes.
for target in package.targets where target.type != .test && target.type != .system && target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-enable-testing"], .when(configuration: .release))]
}
