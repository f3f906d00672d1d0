import Testing
@testable import ConsentKit

@Test func theSDKVersionIsASemanticVersion() {
    let parts = ConsentKitSDK.version.split(separator: ".")
    #expect(parts.count == 3)
    #expect(parts.allSatisfy { Int($0) != nil })
}
