// libFuzzer entry point for consentd's request checks: a `POST /v1/consents` body as the
// server reads it (JSON, ids, timestamps, consent strings), through `CheckedConsentEvent`, and
// the same input as a `POST /v1/consents/batch` body, through `ConsentBatchEnvelope`.
//
// For every input: checking must not crash and must answer either an event or an
// `InvalidField` that names a known code and says what is wrong; what it accepts must be
// accepted again, unchanged, once written back as a request. A broken promise is a
// `fatalError`, which libFuzzer reports as a crash and saves as an artifact. Built with
// `-sanitize=fuzzer,address` by scripts/fuzz.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ConsentdAPI
import ConsentKitFormats
import ConsentRequests
import Foundation

// See FuzzTCF: libFuzzer's own `main` is shadowed by the module's, so start its driver here.
var argumentCount = CommandLine.argc
var arguments = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, fuzzConsentd))

/// libFuzzer's driver (its `main` without the name), from libclang_rt.fuzzer.
@_extern(c)
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// Checks one fuzz input (the whole input is the request body); libFuzzer calls it once per input.
public func fuzzConsentd(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(bytes: data, count: size)
    // The server's clock, the same for every input, so that `collectedAt`'s bounds do not move.
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    checkBatchEnvelope(body)
    let event: CheckedConsentEvent
    do {
        event = try CheckedConsentEvent.decode(body, now: now)
    } catch {
        // A refusal says what is wrong and, when it names a field, a non-empty path.
        if error.message.isEmpty || error.field?.isEmpty == true {
            fatalError("a refusal without its words: \(error.code) \(String(describing: error.field)) for \(String(decoding: body, as: UTF8.self).debugDescription)")
        }
        return 0
    }
    // Written back as the client would send it, the accepted event is accepted again, unchanged.
    let again = ConsentEventRequest(
        eventId: event.eventId, subjectId: event.subjectId,
        collectedAt: ISO8601.format(milliseconds: event.collectedAtMilliseconds), consent: event.consent)
    let reencoded: Data
    do {
        reencoded = try JSONEncoder().encode(again)
    } catch {
        fatalError("an accepted event does not encode: \(error)")
    }
    do {
        let second = try CheckedConsentEvent.decode(reencoded, now: now)
        if second != event {
            fatalError("""
                an accepted event changed when written back
                  body:   \(String(decoding: body, as: UTF8.self).debugDescription)
                  first:  \(event)
                  second: \(second)
                """)
        }
    } catch {
        fatalError("""
            an accepted event is refused when written back: \(error.code.rawValue) \(error.field ?? "-"): \(error.message)
              body:    \(String(decoding: body, as: UTF8.self).debugDescription)
              written: \(String(decoding: reencoded, as: UTF8.self))
            """)
    }
    return 0
}

/// The same input as a `POST /v1/consents/batch` body: the envelope's check must not crash,
/// must say what is wrong when it refuses, and must cut out events that are pieces of the body
/// (1 to 100 of them), each a whole value of the body: an object, or any other value (`1`, or the
/// lone `-` Foundation's JSON reader lets through), which the event's own check then refuses with
/// its words, so the batch answers for it as one refused event.
func checkBatchEnvelope(_ body: Data) {
    let envelope: ConsentBatchEnvelope
    do {
        envelope = try ConsentBatchEnvelope.decode(body)
    } catch {
        if error.message.isEmpty || error.field?.isEmpty == true {
            fatalError("a batch refusal without its words: \(error.code) for \(String(decoding: body, as: UTF8.self).debugDescription)")
        }
        return
    }
    guard (1...ConsentBatchRequest.maximumCount).contains(envelope.events.count) else {
        fatalError("a batch of \(envelope.events.count) events was accepted")
    }
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    for event in envelope.events {
        guard !event.isEmpty, body.range(of: event) != nil else {
            fatalError("an event cut out of the batch is not a piece of its body: \(String(decoding: event, as: UTF8.self).debugDescription)")
        }
        if event.first == UInt8(ascii: "{"), event.last == UInt8(ascii: "}") { continue }
        do {
            _ = try CheckedConsentEvent.decode(event, now: now)
            fatalError("a batch's event that is not an object was accepted: \(String(decoding: event, as: UTF8.self).debugDescription)")
        } catch {
            if error.message.isEmpty {
                fatalError("a refusal without its words for the batch's event \(String(decoding: event, as: UTF8.self).debugDescription)")
            }
        }
    }
}
