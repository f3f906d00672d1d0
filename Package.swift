// swift-tools-version:6.0
// The ConsentKit SDK package: consent strings, vendor lists and the in-app CMP.
// No third-party dependencies, by design: app developers link only what we write.
import PackageDescription

let package = Package(
    name: "ConsentKit",
    platforms: [.iOS(.v15), .macOS(.v12)],
    products: [
        .library(name: "TCF", targets: ["TCF"]),
        .library(name: "ConsentKit", targets: ["ConsentKit"]),
        .library(name: "ConsentdAPI", targets: ["ConsentdAPI"]),
    ],
    targets: [
        .target(name: "TCF"),
        .target(name: "ConsentKit", dependencies: ["TCF", "ConsentdAPI"]),
        // consentd's HTTP API types, shared by the SDK and the server; Foundation only.
        .target(name: "ConsentdAPI"),
        .testTarget(
            name: "TCFTests",
            dependencies: ["TCF"]
        ),
        .testTarget(name: "ConsentKitTests", dependencies: ["ConsentKit", "TCF"]),
        .testTarget(name: "ConsentdAPITests", dependencies: ["ConsentdAPI"]),
        // The start-path benchmark (scripts/bench-cmp); never a dependency of the libraries.
        .executableTarget(name: "ConsentKitBench", dependencies: ["ConsentKit", "TCF"], path: "Benchmarks/ConsentKitBench"),
    ],
    swiftLanguageModes: [.v6]
)
