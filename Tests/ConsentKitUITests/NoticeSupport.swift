import ConsentKit
import Foundation
import TCF
import ConsentKitUI

/// The repository's `Fixtures/`.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func list(_ path: String) throws -> VendorList {
        try VendorList(jsonData: Data(contentsOf: root.appendingPathComponent(path)))
    }

    /// The real GVL v3 #45 (833 vendors, 20 of them deleted).
    static let v3v45: VendorList = try! list("gvl/gvl-v3_vendor-list-v45_2024-03-21.json")
    /// The real GVL v2 #224, which the official 2020 translations cover.
    static let v2v224: VendorList = try! list("gvl/gvl-v2_vendor-list-v224_2023-11-16.json")

    static func translation(_ language: String) throws -> VendorListTranslation {
        try VendorListTranslation(jsonData: Data(contentsOf: root.appendingPathComponent("gvl/translations-v2-2020/purposes-\(language).json")))
    }

    /// The first 20 vendors of v3 #45 not deleted, Google (755) among them.
    static let twentyVendors: IDSet = {
        let active = v3v45.activeVendors().map(\.id).filter { $0 != 755 }
        return IDSet(validIds: Array(active.prefix(19)) + [755])
    }()
}

let noticeCMP = CMPIdentity(cmpId: 300, cmpVersion: 7)
/// 2026-03-04T05:06:07.890Z.
let noticeDate = Date(timeIntervalSince1970: 1_772_600_767.89)

/// Answers every request with consentd's `/v1/config` for one publisher.
struct ConfigTransport: HTTPTransport {
    var vendorIds: [Int]
    var providers: [(Int, String)] = [(89, "Example Ad Network"), (1301, "Another Network")]
    var nonPersonalizedOnly = false
    /// consentd's region decision: true (the EEA), false (elsewhere) or nil (unknown).
    var gdprApplies: Bool? = true
    /// A US region decision instead (GDPR not applying): the visitor's state and the GPP sections in force.
    var us: (state: String, sections: [Int])? = nil
    /// The answer's `notice` object as JSON (the versions and the published options); nil: none.
    var notice: String? = nil

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let list = providers.map { #"{"id":\#($0.0),"name":"\#($0.1)","privacyPolicyUrl":"https://p\#($0.0).example/privacy"}"# }
            .joined(separator: ",")
        let region = us != nil ? "us" : gdprApplies.map { $0 ? "eea" : "other" } ?? "unknown"
        let gpp = us.map { #","subdivision":"\#($0.state)","gpp":{"applicableSections":\#($0.sections),"mspaCoveredTransaction":false,"mspaMode":null}"# } ?? ""
        return TransportResponse(status: 200, body: Data("""
            {"appId":"com.example.app","gdprApplies":\(gdprApplies.map(String.init) ?? "null"),"region":"\(region)","country":"DE","geoSource":"header"\(gpp),
             "publishers":[{"id":"pub-1","name":"Example","vendorIds":\(vendorIds),"adTechProviders":[\(list)],"nonPersonalizedOnly":\(nonPersonalizedOnly)}],
             "vendorIds":\(vendorIds),"adTechProviders":[\(list)],"vendorListVersion":45,"tcfPolicyVersion":4,"gvlSpecificationVersion":3\(notice.map { #","notice":\#($0)"# } ?? "")}
            """.utf8))
    }
}

/// Holds one list.
struct FixedList: VendorListLoading {
    var list: VendorList
    func localVendorList() async -> VendorList? { list }
    func refreshVendorList() async throws -> VendorList? { list }
}

/// A started manager over `list` whose consentd names `vendorIds` and two ad-tech providers.
func noticeManager(
    list: VendorList = Fixtures.v3v45, vendorIds: IDSet = Fixtures.twentyVendors, language: String = "EN",
    nonPersonalizedOnly: Bool = false, gdprApplies: Bool? = true, store: any KeyValueStore = InMemoryKeyValueStore(),
    us: (state: String, sections: [Int])? = nil, notice: String? = nil, noticeVersion: Int = 3, globalPrivacyControl: Bool = false
) async -> ConsentManager {
    var configuration = ConsentConfiguration(
        consentd: ConsentdEndpoint(baseURL: URL(string: "https://consent.example.com")!, publishableKey: "ck_pub_k_s", publisherIds: ["pub-1"]),
        cmp: noticeCMP, store: store,
        transport: ConfigTransport(vendorIds: Array(vendorIds), nonPersonalizedOnly: nonPersonalizedOnly, gdprApplies: gdprApplies, us: us,
                                   notice: notice),
        noticeVersion: noticeVersion, consentLanguage: language, vendorLists: FixedList(list: list), log: .silent, now: { noticeDate },
        sync: .disabled)
    configuration.globalPrivacyControl = globalPrivacyControl
    let manager = ConsentManager(configuration: configuration)
    manager.start(refreshing: false)
    await manager.refresh()
    return manager
}

let publisherSettings = NoticeSettings(
    publisherName: "Example News", privacyPolicyURL: URL(string: "https://news.example/privacy")!)

/// A result message as the page posts it.
func resultJSON(
    _ action: String, layer: Int = 1, language: String = "en", noticeVersion: Int = 3, choices: String? = nil, protocolVersion: Int = 1
) -> Data {
    let choice = choices.map { #","choices":\#($0)"# } ?? ""
    return Data(#"{"protocol":\#(protocolVersion),"type":"result","action":"\#(action)","layer":\#(layer),"language":"\#(language)","noticeVersion":\#(noticeVersion)\#(choice),"timings":{"shownMs":3.5,"decidedMs":900}}"#.utf8)
}
