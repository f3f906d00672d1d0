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

/// The bytes AddressSanitizer's allocator holds for live allocations, from libclang_rt.asan
/// (`sanitizer/allocator_interface.h`): the harness measures what a decoded value keeps with it.
@_extern(c, "__sanitizer_get_current_allocated_bytes")
func sanitizerCurrentAllocatedBytes() -> Int

/// The most memory a value decoded from `length` bytes of input may hold: 32 bytes per input
/// byte and 64 KB for fixed parts (the bound `TCF`'s `IDSet` keeps; see Fuzz/README.md).
func memoryBound(inputLength length: Int) -> Int { 32 * length + 65_536 }

/// Decodes with `decode` and fails when the value it returns holds more heap memory than
/// ``memoryBound(inputLength:)`` allows for `length` input bytes; returns the value.
func checkingMemory<Value>(inputLength length: Int, _ input: @autoclosure () -> String, _ decode: () -> Value) -> Value {
    let before = sanitizerCurrentAllocatedBytes()
    let value = decode()
    let held = sanitizerCurrentAllocatedBytes() - before
    if held > memoryBound(inputLength: length) {
        fatalError("""
            \(Value.self): decoding \(length) bytes of input left \(held) bytes allocated, over the bound of \
            \(memoryBound(inputLength: length))
              input: \(input().debugDescription)
            """)
    }
    return value
}

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

/// Unpadded base64url (RFC 4648 §5) of `bytes`: the shape of a consent string, whatever the bytes.
///
/// Kept here rather than borrowed from TCF so that a bug in TCF's own base64 code cannot hide
/// itself by being on both sides of the check.
private func base64URL(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count * 8 + 5) / 6)
    var accumulator: UInt32 = 0
    var pending = 0
    for byte in bytes {
        accumulator = accumulator << 8 | UInt32(byte)
        pending += 8
        while pending >= 6 {
            pending -= 6
            output.append(alphabet[Int(accumulator >> UInt32(pending) & 0x3F)])
        }
    }
    if pending > 0 { output.append(alphabet[Int(accumulator << UInt32(6 - pending) & 0x3F)]) }
    return String(decoding: output, as: UTF8.self)
}
