import Foundation
import Testing
@testable import TCF

/// The real Global Vendor Lists in `Fixtures/gvl` decode into the one model, and every
/// vendor matches what Foundation's JSON parser reads from the same file.
@Suite struct VendorListDecodingTests {
    static let v1 = "gvl/gvl-v1_vendorlist-v66_2018-07-03.json"
    static let v2 = "gvl/gvl-v2_vendor-list-v224_2023-11-16.json"
    static let v3 = "gvl/gvl-v3_vendor-list-v45_2024-03-21.json"

    static func load(_ path: String) throws -> VendorList {
        try VendorList(jsonData: Fixtures.data(path))
    }

    static func date(_ text: String) -> Date { TCFTimestamp(iso8601: text)!.date }

    @Test func theV3ListDecodesWithEverySection() throws {
        let list = try Self.load(Self.v3)
        #expect(list.gvlSpecificationVersion == 3)
        #expect(list.vendorListVersion == 45)
        #expect(list.tcfPolicyVersion == 4)
        #expect(list.lastUpdated == Self.date("2024-03-21T16:07:33Z"))
        #expect(list.language == "EN")
        #expect(list.purposes.count == 11)
        #expect(list.specialPurposes.count == 2)
        #expect(list.features.count == 3)
        #expect(list.specialFeatures.count == 2)
        #expect(list.stacks.count == 45)
        #expect(list.dataCategories.count == 11)
        #expect(list.vendors.count == 833)
        #expect(list.vendors.keys.max() == 4202)
        #expect(list.vendors.values.filter { $0.deletedDate != nil }.count == 20)
        #expect(list.purposes[1]?.illustrations.count == 1)
        #expect(list.dataCategories[1]?.name == "IP addresses")
        #expect(list.stacks[1]?.specialFeatures == IDSet([1, 2]))
    }

    @Test func aV3VendorHasItsRetentionUrlsDataAndDeviceStorageFields() throws {
        let vendor = try #require(try Self.load(Self.v3).vendors[1])
        #expect(vendor.name == "Exponential Interactive, Inc d/b/a VDX.tv")
        #expect(vendor.purposes == IDSet([1, 2, 3, 4, 7, 8, 9, 10]))
        #expect(vendor.legIntPurposes.isEmpty)
        #expect(vendor.flexiblePurposes == IDSet([2, 7, 8, 9, 10]))
        #expect(vendor.specialPurposes == IDSet([1, 2]))
        #expect(vendor.features == IDSet([1, 2, 3]))
        #expect(vendor.dataDeclaration == IDSet([1, 3, 4, 6, 8, 10, 11]))
        #expect(vendor.dataRetention == Vendor.DataRetention(stdRetention: 397))
        #expect(vendor.urls == [Vendor.URLs(
            langId: "en", privacy: "https://vdx.tv/privacy/",
            legIntClaim: "https://cdnx.exponential.com/wp-content/uploads/2018/04/Balancing-Assessment-for-Legitimate-Interest-Publishers-v2.pdf"
        )])
        #expect(vendor.cookieMaxAgeSeconds == 7_776_000)
        #expect(vendor.usesCookies == true)
        #expect(vendor.cookieRefresh == true)
        #expect(vendor.usesNonCookieAccess == false)
        #expect(vendor.deviceStorageDisclosureUrl == "https://vdxtv.expo.workers.dev")
        #expect(vendor.deletedDate == nil)
        #expect(vendor.httpGetLimit == nil)
    }

    @Test func aDeletedVendorKeepsItsDeclarationsAndIsDeletedAfterItsDate() throws {
        let vendor = try #require(try Self.load(Self.v3).vendors[165])
        #expect(vendor.deletedDate == Self.date("2023-10-20T00:00:00Z"))
        #expect(vendor.isDeleted(at: Self.date("2023-10-21T00:00:00Z")))
        #expect(!vendor.isDeleted(at: Self.date("2023-10-19T00:00:00Z")))
        #expect(vendor.httpGetLimit == 32)
        #expect(vendor.dataRetention?.forPurpose(10) == 90)
        #expect(vendor.dataRetention?.forPurpose(1) == 28)
    }

    @Test func theV2ListHasLegalDescriptionsAndPolicyUrls() throws {
        let list = try Self.load(Self.v2)
        #expect(list.gvlSpecificationVersion == 2)
        #expect(list.vendorListVersion == 224)
        #expect(list.tcfPolicyVersion == 2)
        #expect(list.vendors.count == 1007)
        #expect(list.stacks.count == 42)
        #expect(list.dataCategories.isEmpty)
        #expect(list.purposes[1]?.descriptionLegal?.hasPrefix("Vendors can:") == true)
        #expect(list.vendors[1]?.policyUrl == "https://vdx.tv/privacy/")
        #expect(list.vendors[7]?.cookieMaxAgeSeconds == nil)
        #expect(list.vendors.values.filter { $0.deletedDate != nil }.count == 183)
    }

    @Test func theV1ListMapsItsIdListsOntoTheSameModel() throws {
        let list = try Self.load(Self.v1)
        #expect(list.gvlSpecificationVersion == 1)
        #expect(list.vendorListVersion == 66)
        #expect(list.tcfPolicyVersion == nil)
        #expect(list.purposes.count == 7)
        #expect(list.features.count == 3)
        #expect(list.specialPurposes.isEmpty)
        #expect(list.vendors.count == 345)
        let vendor = try #require(list.vendors[2101])
        #expect(vendor.name == "SET Events")
        #expect(vendor.purposes == IDSet([6]))
        #expect(vendor.legIntPurposes == IDSet([5]))
        #expect(vendor.features == IDSet([1, 2, 3]))
        #expect(vendor.policyUrl == "http://www.gamesgames.com/privacy-policy")
        #expect(vendor.usesCookies == nil)
    }

    @Test(arguments: [v1, v2, v3])
    func everyVendorMatchesFoundationsReadingOfTheFile(path: String) throws {
        let list = try Self.load(path)
        let json = try Fixtures.json(path) as! [String: Any]
        let vendors: [[String: Any]] = (json["vendors"] as? [[String: Any]])
            ?? (json["vendors"] as! [String: [String: Any]]).map(\.value)
        #expect(list.vendors.count == vendors.count)
        func ids(_ object: [String: Any], _ keys: String...) -> [Int] {
            keys.lazy.compactMap { object[$0] as? [Int] }.first.map { $0.sorted() } ?? []
        }
        for expected in vendors {
            let id = expected["id"] as! Int
            let vendor = try #require(list.vendors[id])
            #expect(vendor.name == expected["name"] as? String)
            #expect(vendor.purposes.sorted == ids(expected, "purposes", "purposeIds"))
            #expect(vendor.legIntPurposes.sorted == ids(expected, "legIntPurposes", "legIntPurposeIds"))
            #expect(vendor.flexiblePurposes.sorted == ids(expected, "flexiblePurposes"))
            #expect(vendor.specialPurposes.sorted == ids(expected, "specialPurposes"))
            #expect(vendor.features.sorted == ids(expected, "features", "featureIds"))
            #expect(vendor.specialFeatures.sorted == ids(expected, "specialFeatures"))
            #expect(vendor.dataDeclaration.sorted == ids(expected, "dataDeclaration"))
            #expect(vendor.policyUrl == expected["policyUrl"] as? String)
            #expect(vendor.cookieMaxAgeSeconds == expected["cookieMaxAgeSeconds"] as? Int)
            #expect(vendor.usesCookies == expected["usesCookies"] as? Bool)
            #expect(vendor.cookieRefresh == expected["cookieRefresh"] as? Bool)
            #expect(vendor.usesNonCookieAccess == expected["usesNonCookieAccess"] as? Bool)
            #expect(vendor.deviceStorageDisclosureUrl == expected["deviceStorageDisclosureUrl"] as? String)
            #expect(vendor.deletedDate == (expected["deletedDate"] as? String).map(Self.date))
            #expect(vendor.httpGetLimit == (expected["overflow"] as? [String: Any])?["httpGetLimit"] as? Int)
            let urls = (expected["urls"] as? [[String: Any]] ?? []).map {
                Vendor.URLs(langId: $0["langId"] as! String, privacy: $0["privacy"] as! String, legIntClaim: $0["legIntClaim"] as? String)
            }
            #expect(vendor.urls == urls)
            if let retention = expected["dataRetention"] as? [String: Any] {
                func days(_ key: String) -> [Int: Int] {
                    Dictionary(uniqueKeysWithValues: (retention[key] as? [String: Int] ?? [:]).map { (Int($0.key)!, $0.value) })
                }
                #expect(vendor.dataRetention == Vendor.DataRetention(
                    stdRetention: retention["stdRetention"] as? Int, purposes: days("purposes"), specialPurposes: days("specialPurposes")
                ))
            } else {
                #expect(vendor.dataRetention == nil)
            }
        }
    }

    @Test(arguments: [v1, v2, v3])
    func everyDeclarationMatchesFoundationsReadingOfTheFile(path: String) throws {
        let list = try Self.load(path)
        let json = try Fixtures.json(path) as! [String: Any]
        let sections: [(String, [Int: Declaration])] = [
            ("purposes", list.purposes), ("specialPurposes", list.specialPurposes), ("features", list.features),
            ("specialFeatures", list.specialFeatures), ("dataCategories", list.dataCategories),
        ]
        for (key, declarations) in sections {
            let entries: [[String: Any]] = (json[key] as? [[String: Any]])
                ?? (json[key] as? [String: [String: Any]])?.map(\.value) ?? []
            #expect(declarations.count == entries.count, "\(key)")
            for entry in entries {
                let declaration = try #require(declarations[entry["id"] as! Int])
                #expect(declaration.name == entry["name"] as? String)
                #expect(declaration.description == entry["description"] as? String)
                #expect(declaration.descriptionLegal == entry["descriptionLegal"] as? String)
                #expect(declaration.illustrations == entry["illustrations"] as? [String] ?? [])
            }
        }
    }
}
