// swift-tools-version:6.0
// The ConsentKit SDK package: consent strings, vendor lists and the in-app CMP.
// No third-party dependencies, by design: app developers link only what we write.
import PackageDescription

let package = Package(
    name: "ConsentKit",
    platforms: [.iOS(.v15), .macOS(.v12)],
    products: [
        .library(name: "TCF", targets: ["TCF"]),
        // The IAB Global Privacy Platform string: header, tcfeuv2 (through TCF), tcfcav1, uspv1,
        // usnat and the US state sections.
        .library(name: "GPP", targets: ["GPP"]),
        .library(name: "ConsentKit", targets: ["ConsentKit"]),
        // For third-party SDKs (ad networks, analytics): the IAB keys a CMP wrote, read and judged,
        // without the CMP itself.
        .library(name: "IABConsentReader", targets: ["IABConsentReader"]),
        .library(name: "ConsentdAPI", targets: ["ConsentdAPI"]),
        // The JSON writer and the ISO 8601 reader and writer, shared by the SDK and consentd.
        .library(name: "ConsentKitFormats", targets: ["ConsentKitFormats"]),
        // Opt-in: App Tracking Transparency, AdSupport and UIKit, linked only by apps that use them.
        .library(name: "ConsentKitAppTracking", targets: ["ConsentKitAppTracking"]),
        // Opt-in: ConsentModel for SwiftUI; Observation is iOS 17 / macOS 14.
        .library(name: "ConsentKitObservation", targets: ["ConsentKitObservation"]),
        // The consent notice: the web page (HTML, CSS, JavaScript), its bridge, and on iOS its presenter.
        .library(name: "ConsentKitUI", targets: ["ConsentKitUI"]),
        // A build-time tool's checks (an app's Info.plist against what it uses), for `consent doctor`.
        .library(name: "ConsentKitDoctor", targets: ["ConsentKitDoctor"]),
    ],
    targets: [
        // JSONWriter and ISO8601: Foundation only, below every other target.
        .target(name: "ConsentKitFormats"),
        .target(name: "TCF", dependencies: ["ConsentKitFormats"]),
        .target(name: "GPP", dependencies: ["TCF", "ConsentKitFormats"]),
        // The IAB keys and the store they live in, shared by the CMP (which writes them) and the
        // reader (which reads them); re-exported by both.
        .target(name: "IABStorage", dependencies: ["TCF"]),
        .target(name: "ConsentKit", dependencies: ["TCF", "GPP", "ConsentdAPI", "IABStorage", "ConsentKitFormats"]),
        .target(name: "IABConsentReader", dependencies: ["IABStorage", "TCF", "GPP"]),
        .target(name: "ConsentKitDoctor"),
        // consentd's HTTP API types, shared by the SDK and the server; Foundation and ConsentKitFormats only.
        .target(name: "ConsentdAPI", dependencies: ["ConsentKitFormats"]),
        .target(name: "ConsentKitAppTracking", dependencies: ["ConsentKit"]),
        .target(name: "ConsentKitObservation", dependencies: ["ConsentKit"]),
        .target(name: "ConsentKitUI", dependencies: ["ConsentKit", "ConsentdAPI", "IABConsentReader", "TCF", "GPP", "ConsentKitFormats"], resources: [.copy("Resources/notice"), .copy("Resources/cmp")]),
        .testTarget(
            name: "TCFTests",
            dependencies: ["TCF"]
        ),
        .testTarget(name: "GPPTests", dependencies: ["GPP", "TCF"]),
        .testTarget(name: "ConsentKitFormatsTests", dependencies: ["ConsentKitFormats"]),
        .testTarget(name: "ConsentKitTests", dependencies: ["ConsentKit", "ConsentdAPI", "TCF", "GPP", "ConsentKitFormats", "IABConsentReader"]),
        .testTarget(name: "IABConsentReaderTests", dependencies: ["IABConsentReader", "IABStorage", "TCF", "GPP"]),
        .testTarget(name: "ConsentKitDoctorTests", dependencies: ["ConsentKitDoctor"]),
        .testTarget(name: "ConsentKitAppTrackingTests", dependencies: ["ConsentKitAppTracking", "ConsentKit"]),
        .testTarget(name: "ConsentKitUITests", dependencies: ["ConsentKitUI", "ConsentKit", "TCF", "GPP", "IABConsentReader"]),
        .testTarget(name: "ConsentKitObservationTests", dependencies: ["ConsentKitObservation", "ConsentKit", "TCF"]),
        // Every Swift block of the DocC catalogs and the README, compiled (Snippets.swift) and compared.
        .testTarget(
            name: "DocumentationTests",
            dependencies: ["ConsentKit", "TCF", "ConsentKitAppTracking", "ConsentKitObservation", "ConsentKitUI", "IABConsentReader"]
        ),
        .testTarget(name: "ConsentdAPITests", dependencies: ["ConsentdAPI"]),
    ],
    swiftLanguageModes: [.v6]
)

// Apple's privacy manifests, one per target that needs one (scripts/check-apple says which and
// checks them; README "Privacy manifests" says why).
for target in package.targets where ["IABStorage", "ConsentKit", "ConsentKitAppTracking", "ConsentKitUI"].contains(target.name) {
    target.resources = (target.resources ?? []) + [.copy("PrivacyInfo.xcprivacy")]
}
