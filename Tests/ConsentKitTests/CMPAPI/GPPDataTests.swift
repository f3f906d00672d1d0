import ConsentKit
import Foundation
import GPP
import Testing

/// `GPPData`: what `__gpp` answers for a GPP string (its PingReturn fields), for consentd's pages
/// and an app's web views alike.
@Suite struct GPPDataTests {
    /// `data`'s JSON read back.
    static func object(_ data: GPPData) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(data.json().utf8)) as? [String: Any])
    }

    @Test("no section: the header alone, DBAA, and none in force, [-1]")
    func empty() throws {
        let json = try Self.object(.empty)
        #expect(json["gppString"] as? String == "DBAA" && json["sectionList"] as? [Int] == [] && json["applicableSections"] as? [Int] == [-1])
        #expect((json["parsedSections"] as? [String: Any])?.isEmpty == true)
        #expect(try GPPString().encoded() == GPPData.empty.gppString, "the encoder writes the same header")
    }

    @Test("a stored string is kept as written; its sections, the ids in force and every supported API are answered")
    func stored() throws {
        let data = try GPPData(gppString: "DBABBg~BVVqAAEABgA.QA", applicableSections: [8])
        let json = try Self.object(data)
        #expect(json["gppString"] as? String == "DBABBg~BVVqAAEABgA.QA" && json["sectionList"] as? [Int] == [8])
        #expect(json["applicableSections"] as? [Int] == [8])
        #expect((json["parsedSections"] as? [String: Any])?["usca"] != nil)
        #expect(GPPData.supportedAPIs.first == "2:tcfeuv2" && GPPData.supportedAPIs.contains("7:usnat") && GPPData.supportedAPIs.contains("27:usri"))
    }

    @Test("applicable ids 0 or -1 mean none: [-1]")
    func noneApplies() throws {
        #expect(try GPPData(GPPString(), applicableSections: [0]).applicableSections == [-1])
        #expect(try GPPData(GPPString(), applicableSections: [-1]).applicableSections == [-1])
    }

    @Test("a string that does not decode is refused with the decoder's error")
    func refused() {
        #expect(throws: GPPDecodingError.self) { try GPPData(gppString: "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA", applicableSections: [2]) }
    }
}
