// libFuzzer entry point for the notice bridge's result decoder: a message as the notice page
// posts it, through `NoticeResult(json:document:)` against one fixed document.
//
// For every input: decoding must not crash and must answer either a result or a
// `NoticeResultError` with words; what it accepts must turn into a decision that gives only
// what the document showed (no vendor, purpose, special feature or ad-tech provider it did
// not show; no legitimate interest for purposes 1 and 3-6; nothing positive for "reject all"
// and "ad-free") and whose TC string decodes. A broken promise is a `fatalError`, which
// libFuzzer reports as a crash. Built with `-sanitize=fuzzer,address` by scripts/fuzz.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ConsentKit
import ConsentKitUI
import Foundation
import TCF

/// libFuzzer's driver (its `main` without the name), from libclang_rt.fuzzer.
@_extern(c)
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// A small list: purposes 1-11, two special features, three vendors (one deleted), so that the
/// fuzzer reaches every check in little room.
let list: VendorList = {
    let purposes = Dictionary(uniqueKeysWithValues: (1...11).map { ($0, Declaration(id: $0, name: "P\($0)", description: "d")) })
    let features = Dictionary(uniqueKeysWithValues: (1...2).map { ($0, Declaration(id: $0, name: "SF\($0)", description: "d")) })
    func vendor(_ id: Int, consent: IDSet, interest: IDSet, deleted: Date? = nil) -> Vendor {
        Vendor(id: id, name: "V\(id)", purposes: consent, legIntPurposes: interest, specialFeatures: [1], deletedDate: deleted)
    }
    return VendorList(
        gvlSpecificationVersion: 3, vendorListVersion: 45, tcfPolicyVersion: 4, lastUpdated: nil, purposes: purposes,
        specialFeatures: features,
        vendors: [
            2: vendor(2, consent: [1, 3, 4], interest: [2, 7]), 755: vendor(755, consent: [1, 3, 4], interest: [2, 7, 9, 10]),
            8: vendor(8, consent: [1], interest: []), 9: vendor(9, consent: [1], interest: [], deleted: Date(timeIntervalSince1970: 0)),
        ])
}()
let now = Date(timeIntervalSince1970: 1_800_000_000)
let scope = ConsentScope(vendorList: list, noticeVersion: 3, adTechProviderIds: [89])
let document: NoticeDocument = {
    do {
        return try NoticeDocument.build(
            scope: scope,
            settings: NoticeSettings(
                mode: .tcf, publisherName: "Fuzz", privacyPolicyURL: URL(string: "https://fuzz.example/privacy"), offersAdFree: true),
            cmp: CMPIdentity(cmpId: 300, cmpVersion: 1), current: nil,
            request: NoticeRequest(reason: .noDecision, allowsDismissal: true),
            adTechProviders: [AppConfig.AdTechProvider(id: 89, name: "A", privacyPolicyUrl: "https://a.example")])
    } catch {
        fatalError("the fuzzer's document does not build: \(error)")
    }
}()
let shownVendors = IDSet(validIds: document.vendors.map(\.id))

// See FuzzTCF: libFuzzer's own `main` is shadowed by the module's, so start its driver here,
// after the globals above (top-level code runs in order: they would not be set yet).
var argumentCount = CommandLine.argc
var arguments = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, fuzzNotice))

/// Checks one fuzz input (the whole input is the page's message); libFuzzer calls it once per input.
public func fuzzNotice(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let message = Data(bytes: data, count: size)
    let result: NoticeResult
    do {
        result = try NoticeResult(json: message, document: document)
    } catch {
        if error.description.isEmpty { fatalError("a refusal without its words: \(error)") }
        return 0
    }
    let decision: ConsentState?
    do {
        decision = try result.decision(document: document, scope: scope, current: nil, at: now)
    } catch {
        fatalError("an accepted result gives no decision: \(error) for \(String(decoding: message, as: UTF8.self).debugDescription)")
    }
    guard let decision else {
        if result.action != .dismissed { fatalError("only a dismissal decides nothing, not \(result.action)") }
        return 0
    }
    func broken(_ promise: String) -> Never {
        fatalError("\(promise): \(String(decoding: message, as: UTF8.self).debugDescription) gave \(decision)")
    }
    if !decision.vendorConsents.isSubset(of: shownVendors) || !decision.vendorLegitimateInterests.isSubset(of: shownVendors) {
        broken("a vendor not shown is consented")
    }
    if decision.disclosedVendors != shownVendors { broken("DisclosedVendors is not what was shown") }
    if !decision.purposeLegitimateInterests.intersection(TCString.consentOnlyPurposes).isEmpty {
        broken("legitimate interest for purposes 1 or 3-6")
    }
    if !decision.adTechProviderConsents.isSubset(of: [89]) { broken("an ad-tech provider not shown is consented") }
    if [.rejectAll, .adFree].contains(result.action),
       !(decision.purposeConsents.isEmpty && decision.vendorConsents.isEmpty && decision.specialFeatureOptIns.isEmpty) {
        broken("a refusal carries consent")
    }
    let string = decision.tcString(cmp: CMPIdentity(cmpId: 300, cmpVersion: 1))
    do {
        _ = try TCString(decoding: string.encoded())
    } catch {
        broken("the TC string does not decode (\(error))")
    }
    return 0
}
