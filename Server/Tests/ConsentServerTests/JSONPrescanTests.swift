@testable import ConsentRequests
import Foundation
import Testing

/// What the prescan of a consent event body finds before Foundation's decoder reads it.
@Suite("JSON prescan")
struct JSONPrescanTests {
    @Test("a repeated key is found, with its path, also when escaped differently", arguments: [
        (#"{"a": 1, "a": 2}"#, "a"),
        (#"{"a": 1, "\u0061": 2}"#, "a"),
        (#"{"proof": {"method": "x", "noticeId": "n", "method": "y"}}"#, "proof.method"),
        (#"{"list": [{"k": 1}, {"k": 2, "k": 3}]}"#, "list[1].k"),
        (#"{"": 1, "": 2}"#, ""),
    ])
    func duplicates(body: String, path: String) {
        #expect(JSONPrescan.firstProblem(in: Data(body.utf8)) == .duplicateKey(path: path))
    }

    @Test("a number that is not a plain integer is found with its path", arguments: [
        (#"{"ids": [1, 2.5]}"#, "ids[1]", "2.5"),
        (#"{"a": {"b": 1e3}}"#, "a.b", "1e3"),
        (#"{"n": 1234567890123456789}"#, "n", "1234567890123456789"),
    ])
    func numbers(body: String, path: String, text: String) {
        #expect(JSONPrescan.firstProblem(in: Data(body.utf8)) == .notAnInteger(path: path, text: text))
    }

    @Test("sound bodies, keys only in strings, and malformed JSON are left alone", arguments: [
        #"{"a": 1, "b": [1, -2, 3], "c": {"a": "a, \"a\": 1.5"}}"#,
        #"{"a": [{"k": 1}, {"k": 2}]}"#,
        // A number that belongs to no key (FuzzConsentd found the empty path it used to give).
        #"{1.5}"#,
        "",
    ])
    func leftAlone(body: String) {
        #expect(JSONPrescan.firstProblem(in: Data(body.utf8)) == nil)
    }

    @Test("a refusal always names a field with a non-empty path, or none")
    func refusalsNameAFieldOrNone() throws {
        // The key "" found by FuzzConsentd, as a repeat and as an unknown field.
        for body in [#"{"": 1, "": 2}"#, #"{"eventId": "b4f93d47-92b0-47f5-9d83-50aa33f72f3b", "": "2~89~dv.9"}"#, #"{"eventId": "x"ugDl 1.5 "proof": 2}"#, #"{"a": 1.5"#] {
            #expect(throws: InvalidField.self) { try CheckedConsentEvent.decode(Data(body.utf8)) }
            do {
                _ = try CheckedConsentEvent.decode(Data(body.utf8))
            } catch {
                #expect(error.field.map { !$0.isEmpty } ?? true, "\(body): \(error)")
            }
        }
    }
}
