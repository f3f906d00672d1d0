// libFuzzer entry point for the TCF consent-string codecs.
//
// For every input: decoding must not crash, what it returns must hold no more memory than a
// bound linear in the input's length, and whatever decodes must encode and decode back to an
// equal value. A broken promise is a `fatalError`, which libFuzzer reports as a crash and
// saves as an artifact. Built with `-sanitize=fuzzer,address` by scripts/fuzz.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import FuzzSupport
import TCF

// SwiftPM links an executable's `main` to its module's top-level code (so tests can link
// executables), which shadows the `main` in libFuzzer's runtime; start libFuzzer from here.
// Two variables, not one tuple: two inout accesses to one variable would violate exclusivity.
var argumentCount = CommandLine.argc
var arguments = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, fuzzTCF))

/// libFuzzer's driver (its `main` without the name), from libclang_rt.fuzzer.
@_extern(c)
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// Checks one fuzz input; libFuzzer calls it once per input.
///
/// The first byte chooses what the rest of the input is fed to (byte % 4):
/// 0. ``ConsentString`` from the rest as UTF-8 text;
/// 1. ``PublisherPurposesString`` from the rest as UTF-8 text;
/// 2. ``VendorList`` and ``VendorListTranslation`` from the rest as JSON: they must throw a
///    ``VendorListError`` or return, never crash, hang or read out of bounds;
/// 3. ``ConsentString`` from the rest as raw bytes, base64url-encoded first, so that mutations
///    land in the bit fields instead of mostly producing characters outside the alphabet.
///
/// - Returns: 0, as libFuzzer requires (other values are reserved).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTCF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let rest = UnsafeBufferPointer(start: data + 1, count: size - 1)
    switch data[0] % 4 {
    case 0:
        checkRoundTrip(ConsentString.self, String(decoding: rest, as: UTF8.self))
    case 1:
        checkRoundTrip(PublisherPurposesString.self, String(decoding: rest, as: UTF8.self))
    case 2:
        let json = Data(rest)
        let text = { String(decoding: json, as: UTF8.self) }
        _ = checkingMemory(inputLength: json.count, text()) { try? VendorList(jsonData: json) }
        _ = checkingMemory(inputLength: json.count, text()) { try? VendorListTranslation(jsonData: json) }
    default:
        checkRoundTrip(ConsentString.self, base64URL(rest))
    }
    return 0
}

/// A consent-string type with a decoder and an encoder that must invert each other.
protocol RoundTripping: Equatable {
    init(decoding string: String) throws(TCFDecodingError)
    func encoded() throws(TCFEncodingError) -> String
}

extension ConsentString: RoundTripping {}
extension PublisherPurposesString: RoundTripping {}

/// Decodes `input` as `Value` within the memory bound; when that succeeds, requires encode then
/// decode to give an equal value. Decoding errors are the expected outcome for most inputs and
/// are ignored.
private func checkRoundTrip<Value: RoundTripping>(_: Value.Type, _ input: String) {
    guard let first = checkingMemory(inputLength: input.utf8.count, input, { try? Value(decoding: input) }) else { return }
    let encoded: String
    do {
        encoded = try first.encoded()
    } catch {
        fail(input, "encoding a decoded value failed: \(error)", first: first)
    }
    let second: Value
    do {
        second = try Value(decoding: encoded)
    } catch {
        fail(input, "decoding the re-encoded string \(encoded.debugDescription) failed: \(error)", first: first)
    }
    if second != first {
        fail(input, "round trip changed the value; re-encoded as \(encoded.debugDescription)", first: first, second: second)
    }
}

/// Stops with everything needed to reproduce the failure without the artifact at hand.
private func fail<Value>(_ input: String, _ problem: String, first: Value, second: Value? = nil) -> Never {
    var message = "\(Value.self): \(problem)\n  input: \(input.debugDescription)\n  first:  \(String(reflecting: first))"
    if let second { message += "\n  second: \(String(reflecting: second))" }
    fatalError(message)
}
