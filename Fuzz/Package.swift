// swift-tools-version:6.0
// The libFuzzer targets: FuzzTCF for the TCF consent-string codecs, FuzzGPP for the GPP string codec, FuzzConsentd for consentd's
// request checks, FuzzNotice for the notice bridge's result decoder, FuzzWeb for the web CMP's
// request bodies and the size of the TCData they are answered with. A package of its own so the SDK's
// package never carries a sanitizer-only executable; build and run it with scripts/fuzz.
import PackageDescription

let package = Package(
    name: "ConsentKitFuzz",
    // Must not be lower than the SDK's and the server's own platforms, or SwiftPM refuses the dependency.
    platforms: [.iOS(.v15), .macOS(.v15)],
    dependencies: [
        .package(name: "ConsentKit", path: ".."),
        // Only its ConsentRequests library is built (no HTTP, no storage).
        .package(name: "ConsentServer", path: "../Server"),
    ],
    targets: [
        // The memory bound and the base64url encoder FuzzTCF and FuzzGPP share.
        .target(name: "FuzzSupport", swiftSettings: [.enableExperimentalFeature("Extern")]),
        .executableTarget(
            name: "FuzzTCF",
            dependencies: ["FuzzSupport", .product(name: "TCF", package: "ConsentKit")],
            // `@_extern(c)` declares libFuzzer's driver, which ships without a header.
            swiftSettings: [.enableExperimentalFeature("Extern")]
        ),
        .executableTarget(
            name: "FuzzGPP",
            dependencies: ["FuzzSupport", .product(name: "GPP", package: "ConsentKit")],
            swiftSettings: [.enableExperimentalFeature("Extern")]
        ),
        .executableTarget(
            name: "FuzzConsentd",
            dependencies: [
                .product(name: "ConsentRequests", package: "ConsentServer"),
                .product(name: "ConsentdAPI", package: "ConsentKit"),
                .product(name: "ConsentKitFormats", package: "ConsentKit"),
            ],
            swiftSettings: [.enableExperimentalFeature("Extern")]
        ),
        .executableTarget(
            name: "FuzzNotice",
            dependencies: [
                .product(name: "ConsentKitUI", package: "ConsentKit"),
                .product(name: "ConsentKit", package: "ConsentKit"),
                .product(name: "TCF", package: "ConsentKit"),
            ],
            swiftSettings: [.enableExperimentalFeature("Extern")]
        ),
        .executableTarget(
            name: "FuzzWeb",
            dependencies: [
                .product(name: "ConsentRequests", package: "ConsentServer"),
                .product(name: "ConsentKit", package: "ConsentKit"),
                .product(name: "TCF", package: "ConsentKit"),
            ],
            swiftSettings: [.enableExperimentalFeature("Extern")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
