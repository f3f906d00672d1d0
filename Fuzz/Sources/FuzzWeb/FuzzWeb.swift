// libFuzzer entry point for the web CMP's request bodies and what consentd answers them with:
// a `POST /v1/web/session` or `POST /v1/web/choices` body through `WebRequestFields` (repeated
// and unknown keys refused with their path), then every TC string it carries (`tcString`,
// `appConsent.tcString`) decoded and turned into the CMP API's `TCData`, cut to the vendor list
// in use (GVL v3 #45, from Fixtures/), as the routes do. An input that is not a JSON object is
// taken as a TC string itself, so the fuzzer also reaches the decoder and TCData directly.
//
// For every input: nothing crashes; a refusal says what is wrong and where; and the answer's size
// is bounded by the vendor list, whatever the string (issue 24, H1): TCData's JSON never passes
// `TCData.maximumJSONSize`, and never more than `answerBound`, a figure computed from the list's
// vendors and purposes alone. A broken promise is a `fatalError`, which libFuzzer reports as a
// crash and saves as an artifact. scripts/fuzz also runs it with `-malloc_limit_mb`, so a single
// allocation out of proportion to the input is a failure too. Built with
// `-sanitize=fuzzer,address` by scripts/fuzz.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ConsentKit
import ConsentRequests
import Foundation
import TCF

/// libFuzzer's driver (its `main` without the name), from libclang_rt.fuzzer.
@_extern(c)
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// The vendor list the routes cut TCData to: consentd's bundled list (GVL v3 #45), read from
/// Fixtures/ (scripts/fuzz runs from the repository's root; `FUZZ_VENDOR_LIST` names another).
let vendorList: VendorList = {
    let path = ProcessInfo.processInfo.environment["FUZZ_VENDOR_LIST"] ?? "Fixtures/gvl/gvl-v3_vendor-list-v45_2024-03-21.json"
    guard let data = FileManager.default.contents(atPath: path) else { fatalError("FuzzWeb: no vendor list at \(path)") }
    do {
        return try VendorList(jsonData: data)
    } catch {
        fatalError("FuzzWeb: the vendor list at \(path) does not decode: \(error)")
    }
}()
let bounds = TCData.Bounds(vendorList: vendorList)
let cmp = CMPIdentity(cmpId: 4095, cmpVersion: 1)

/// The most bytes TCData's JSON may take for this list, from the list alone: each id map writes
/// at most one `"id":false,` (at most 13 bytes) per id up to the list's largest vendor, five maps
/// of vendors at most (consents, legitimate interests, disclosed; publisher maps are purposes),
/// and each restriction one `"id":n,` per listed vendor and purpose; plus 64 KiB for the fixed
/// fields, the strings (`tcString` is at most the input) and the purpose maps.
let answerBound: Int = {
    let largestVendor = vendorList.vendors.keys.max() ?? 0
    let purposes = vendorList.purposes.count
    return 5 * 13 * largestVendor + purposes * (vendorList.vendors.count * 10 + 8) + 64 * 1024
}()

/// Checks one fuzz input; libFuzzer calls it once per input.
public func fuzzWeb(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(bytes: data, count: size)
    guard body.first == UInt8(ascii: "{") else {
        checkAnswer(tcString: String(decoding: body, as: UTF8.self), addtlConsent: nil)
        return 0
    }
    check(body, as: "session", WebRequestFields.checkSession)
    check(body, as: "choice", WebRequestFields.checkChoice)
    return 0
}

/// One body through one route's key check; what passes goes on to TCData with its strings.
func check(_ body: Data, as route: String, _ keys: (Data) throws(InvalidField) -> Void) {
    do {
        try keys(body)
    } catch {
        // A refusal says what is wrong and, when it names a field, a non-empty path.
        if error.message.isEmpty || error.field?.isEmpty == true {
            fatalError("a \(route) refusal without its words: \(error.code) \(String(describing: error.field)) for \(String(decoding: body, as: UTF8.self).debugDescription)")
        }
        return
    }
    guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
        fatalError("the \(route) check passed a body that is not a JSON object: \(String(decoding: body, as: UTF8.self).debugDescription)")
    }
    if let tcString = object["tcString"] as? String {
        checkAnswer(tcString: tcString, addtlConsent: object["addtlConsent"] as? String)
    }
    if let app = object["appConsent"] as? [String: Any], let tcString = app["tcString"] as? String {
        checkAnswer(tcString: tcString, addtlConsent: app["addtlConsent"] as? String)
    }
}

/// A TC string as the routes answer it: decoded (a refusal is fine), then TCData cut to the list,
/// whose JSON stays within the list's bound.
func checkAnswer(tcString: String, addtlConsent: String?) {
    guard let decoded = try? TCString(decoding: tcString) else { return }
    let data = TCData(tcString: tcString, decoded: decoded, addtlConsent: addtlConsent, cmp: cmp, bounds: bounds)
    let json: String
    do {
        json = try data.json()
    } catch {
        fatalError("TCData past its ceiling for a string of \(tcString.utf8.count) bytes: \(error)\n  \(tcString)")
    }
    let allowed = answerBound + tcString.utf8.count * 6 + (addtlConsent?.utf8.count ?? 0) * 6
    if json.utf8.count > allowed {
        fatalError("TCData of \(json.utf8.count) bytes for a string of \(tcString.utf8.count) bytes (bound \(allowed))\n  \(tcString)")
    }
    for id in (data.vendor?.consents ?? IDSet()).union(data.vendor?.legitimateInterests ?? IDSet()) where vendorList.vendors[id] == nil {
        fatalError("TCData names vendor \(id), which the list does not hold\n  \(tcString)")
    }
}

// See FuzzTCF: libFuzzer's own `main` is shadowed by the module's, so start its driver here,
// last: top-level code runs in order, so the list and its bound above are set by now.
var argumentCount = CommandLine.argc
var arguments = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, fuzzWeb))
