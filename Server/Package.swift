// swift-tools-version:6.0
// The server side of ConsentKit: for now the `consent` command-line tool. It depends on the
// SDK package by path for the codecs and wire types; the SDK never depends on it.
import PackageDescription

let package = Package(
    name: "ConsentServer",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "ConsentKit", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .executableTarget(
            name: "consent",
            dependencies: [
                .product(name: "TCF", package: "ConsentKit"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "HeapStatistics",
            ]
        ),
        // glibc's mallinfo2, for the memory figure of `consent bench`.
        .target(name: "HeapStatistics"),
        .testTarget(
            name: "consentTests",
            dependencies: ["consent"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
