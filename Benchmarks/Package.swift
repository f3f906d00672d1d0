// swift-tools-version:6.0
// ConsentKit's benchmarks: the start-path benchmark `ConsentKitBench` (scripts/bench-cmp), the
// notice bridge's `NoticeBench` (scripts/bench-notice) and `NoticeDocuments`, which writes the
// notice's test documents (Tests/notice). A
// package of its own, like Fuzz/, so the SDK's package carries no benchmark executable (one that
// uses `Process`, which iOS does not have). The Python and Lua files beside it are the other
// benchmarks' tools (scripts/bench, consentd_load.py); see README.md.
import PackageDescription

let package = Package(
    name: "ConsentKitBenchmarks",
    // Must not be lower than the SDK's own platforms, or SwiftPM refuses the dependency.
    platforms: [.iOS(.v15), .macOS(.v12)],
    dependencies: [
        .package(name: "ConsentKit", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "ConsentKitBench",
            dependencies: [
                .product(name: "ConsentKit", package: "ConsentKit"),
                .product(name: "TCF", package: "ConsentKit"),
            ]
        ),
        // The notice bridge's Swift side: build a document, apply a result (scripts/bench-notice).
        .executableTarget(
            name: "NoticeBench",
            dependencies: [
                .product(name: "ConsentKit", package: "ConsentKit"),
                .product(name: "ConsentKitUI", package: "ConsentKit"),
                .product(name: "TCF", package: "ConsentKit"),
            ]
        ),
        // Notice documents built by ConsentKitUI, one per line of options, for the notice's
        // browser tests (Tests/notice): the SDK package alone, no consentd.
        .executableTarget(
            name: "NoticeDocuments",
            dependencies: [
                .product(name: "ConsentdAPI", package: "ConsentKit"),
                .product(name: "ConsentKit", package: "ConsentKit"),
                .product(name: "ConsentKitUI", package: "ConsentKit"),
                .product(name: "TCF", package: "ConsentKit"),
            ]
        ),
        // The sync client: a decision with its outbox write, start with events pending, and a
        // drain to consentd (scripts/bench-sync; also the kill -9 test's client).
        .executableTarget(
            name: "SyncBench",
            dependencies: [
                .product(name: "ConsentKit", package: "ConsentKit"),
                .product(name: "TCF", package: "ConsentKit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
