// swift-tools-version:6.0
// The libFuzzer target for the TCF consent-string codecs. A package of its own so the SDK's
// package never carries a sanitizer-only executable; build and run it with scripts/fuzz.
import PackageDescription

let package = Package(
    name: "ConsentKitFuzz",
    // Must not be lower than the SDK's own platforms, or SwiftPM refuses the dependency.
    platforms: [.iOS(.v15), .macOS(.v12)],
    dependencies: [
        .package(name: "ConsentKit", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "FuzzTCF",
            dependencies: [.product(name: "TCF", package: "ConsentKit")],
            // `@_extern(c)` declares libFuzzer's driver, which ships without a header.
            swiftSettings: [.enableExperimentalFeature("Extern")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
