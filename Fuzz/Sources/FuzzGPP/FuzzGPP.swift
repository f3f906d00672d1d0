// libFuzzer entry point for the GPP string codec.
//
// For every input: decoding must not crash, what it returns must hold no more memory than the
// bound linear in the input's length (FuzzSupport), and whatever decodes must encode, and the
// encoded string decode to an equal value. A broken promise is a `fatalError`, which libFuzzer
// reports as a crash and saves as an artifact. Built with `-sanitize=fuzzer,address` by
// scripts/fuzz.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FuzzSupport
import GPP

// As in FuzzTCF: SwiftPM's `main` is this module's top-level code; start libFuzzer from here.
var argumentCount = CommandLine.argc
var arguments = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, fuzzGPP))

/// libFuzzer's driver (its `main` without the name), from libclang_rt.fuzzer.
@_extern(c)
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// Checks one fuzz input; libFuzzer calls it once per input.
///
/// The first byte chooses the mode (byte % 2):
/// 0. ``GPPString`` from the rest as UTF-8 text;
/// 1. one section: the second byte chooses its id among the ids the codec decodes (a global would
///    not be initialised: the top-level code stops at `exit` above), the rest are raw bytes
///    written as base64url behind a valid header for that id (and, when the second byte is odd,
///    split into two `.`-separated parts), so that mutations land in the section's bits.
///
/// - Returns: 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let rest = UnsafeBufferPointer(start: data + 1, count: size - 1)
    if data[0] % 2 == 0 || rest.count < 2 {
        checkRoundTrip(String(decoding: rest, as: UTF8.self))
        return 0
    }
    let ids = GPPSectionID.allCases
    let id = ids[Int(rest[0]) % ids.count].rawValue
    let bits = UnsafeBufferPointer(rebasing: rest[1...])
    var text = base64URL(bits)
    if rest[0] % 2 == 1, text.count > 1 {
        let middle = text.index(text.startIndex, offsetBy: text.count / 2)
        text = text[..<middle] + "." + text[middle...]
    }
    guard !text.isEmpty, let header = try? GPPString(sections: [.unknown(id: id, text: "x")]).encoded().dropLast(2) else {
        return 0
    }
    checkRoundTrip(header + "~" + text)
    return 0
}

/// Decodes `input` within the memory bound; when that succeeds, requires encode then decode to
/// give an equal value. Decoding errors are the expected outcome for most inputs.
private func checkRoundTrip(_ input: String) {
    guard let first = checkingMemory(inputLength: input.utf8.count, input, { try? GPPString(decoding: input) }) else { return }
    let encoded: String
    do {
        encoded = try first.encoded()
    } catch {
        // Refused on encode by design though they decode: a 2-bit value of 3 (reserved), a
        // covered transaction of 0, a header-less usmd/usin/usky/usri whose MspaVersion equals
        // the section id (it would read back as a section header). Anything else is a bug.
        if case .outOfRange(let value, let allowed) = error.reason,
           (value == 3 && allowed == "0...2") || ["MspaCoveredTransaction", "MspaVersion"].contains(error.field) {
            return
        }
        fail(input, "encoding a decoded value failed: \(error)", first: first)
    }
    let second: GPPString
    do {
        second = try GPPString(decoding: encoded)
    } catch {
        fail(input, "decoding the re-encoded string \(encoded.debugDescription) failed: \(error)", first: first)
    }
    if second != first {
        fail(input, "round trip changed the value; re-encoded as \(encoded.debugDescription)", first: first, second: second)
    }
}

/// Stops with everything needed to reproduce the failure without the artifact at hand.
private func fail(_ input: String, _ problem: String, first: GPPString, second: GPPString? = nil) -> Never {
    var message = "GPPString: \(problem)\n  input: \(input.debugDescription)\n  first:  \(String(reflecting: first))"
    if let second { message += "\n  second: \(String(reflecting: second))" }
    fatalError(message)
}
