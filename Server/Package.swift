// swift-tools-version:6.0
// The server side of ConsentKit: `consentd`, the consent platform server (library
// `ConsentServer` and its executable), and the `consent` command-line tool. It depends on the
// SDK package by path for the codecs and wire types; the SDK never depends on it.
import PackageDescription

let package = Package(
    name: "ConsentServer",
    platforms: [.macOS(.v15)],
    products: [
        // What the fuzzer (Fuzz/) builds: the checks of consentd's request bodies, alone.
        .library(name: "ConsentRequests", targets: ["ConsentRequests"]),
    ],
    dependencies: [
        .package(name: "ConsentKit", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/sqlite-kit", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit", from: "2.17.0"),
        .package(url: "https://github.com/vapor/sql-kit", from: "3.30.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.9.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.30.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.20.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
        .package(url: "https://github.com/vapor/async-kit", from: "1.20.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    ],
    targets: [
        // A consent event body checked field by field: Foundation and the SDK's TCF, GPP, ConsentdAPI
        // and ConsentKitFormats only, so it builds without HTTP or storage.
        .target(
            name: "ConsentRequests",
            dependencies: [
                .product(name: "TCF", package: "ConsentKit"),
                .product(name: "GPP", package: "ConsentKit"),
                .product(name: "ConsentdAPI", package: "ConsentKit"),
                .product(name: "ConsentKitFormats", package: "ConsentKit"),
            ]
        ),
        .target(
            name: "ConsentServer",
            dependencies: [
                "ConsentRequests",
                .product(name: "TCF", package: "ConsentKit"),
                .product(name: "GPP", package: "ConsentKit"),
                .product(name: "ConsentdAPI", package: "ConsentKit"),
                .product(name: "ConsentKitFormats", package: "ConsentKit"),
                // The notice: consentd serves its files and builds its documents for /demo.
                .product(name: "ConsentKit", package: "ConsentKit"),
                .product(name: "ConsentKitUI", package: "ConsentKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                // scrypt for the console's passwords (the product 3.x and 4.x both have).
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncKit", package: "async-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Resources/vendor-list"), .copy("Resources/demo"), .copy("Resources/console")]
        ),
        .executableTarget(
            name: "consentd",
            dependencies: [
                "ConsentServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "consent",
            dependencies: [
                "ConsentServer",
                .product(name: "TCF", package: "ConsentKit"),
                .product(name: "GPP", package: "ConsentKit"),
                .product(name: "ConsentKit", package: "ConsentKit"),
                .product(name: "ConsentKitUI", package: "ConsentKit"),
                .product(name: "ConsentKitDoctor", package: "ConsentKit"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "HeapStatistics",
            ]
        ),
        // glibc's mallinfo2, for the memory figure of `consent bench`.
        .target(name: "HeapStatistics"),
        .testTarget(
            name: "ConsentServerTests",
            dependencies: [
                "ConsentServer",
                "ConsentRequests",
                .product(name: "ConsentdAPI", package: "ConsentKit"),
                .product(name: "ConsentKitFormats", package: "ConsentKit"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "TCF", package: "ConsentKit"),
                .product(name: "GPP", package: "ConsentKit"),
                .product(name: "ConsentKit", package: "ConsentKit"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "consentTests",
            dependencies: ["consent", "consentd"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
