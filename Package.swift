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
    ],
    targets: [
        .target(name: "TCF"),
        .target(name: "ConsentKit", dependencies: ["TCF"]),
        .testTarget(
            name: "TCFTests",
            dependencies: ["TCF"]
        ),
        .testTarget(name: "ConsentKitTests", dependencies: ["ConsentKit", "TCF"]),
    ],
    swiftLanguageModes: [.v6]
)
