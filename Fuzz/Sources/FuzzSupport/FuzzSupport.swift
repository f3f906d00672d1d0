// What the libFuzzer harnesses share: the memory bound of decoded values, measured with
// AddressSanitizer's allocator, and a base64url encoder of raw bytes.

/// The bytes AddressSanitizer's allocator holds for live allocations, from libclang_rt.asan
/// (`sanitizer/allocator_interface.h`): the harness measures what a decoded value keeps with it.
@_extern(c, "__sanitizer_get_current_allocated_bytes")
public func sanitizerCurrentAllocatedBytes() -> Int

/// The most memory a value decoded from `length` bytes of input may hold: 32 bytes per input
/// byte and 64 KB for fixed parts (the bound `TCF`'s `IDSet` keeps, and so the `GPP` codec; see Fuzz/README.md).
public func memoryBound(inputLength length: Int) -> Int { 32 * length + 65_536 }

/// Decodes with `decode` and fails when the value it returns holds more heap memory than
/// ``memoryBound(inputLength:)`` allows for `length` input bytes; returns the value.
public func checkingMemory<Value>(inputLength length: Int, _ input: @autoclosure () -> String, _ decode: () -> Value) -> Value {
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

/// Unpadded base64url (RFC 4648 §5) of `bytes`: the shape of a consent string, whatever the bytes.
///
/// Kept here rather than borrowed from TCF so that a bug in TCF's own base64 code cannot hide
/// itself by being on both sides of the check.
public func base64URL(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
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
