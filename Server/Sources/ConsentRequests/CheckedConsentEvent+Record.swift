import ConsentKitFormats
import ConsentdAPI

// The checks of the fields iubenda's consent record adds to an event (issue 26 §6): the subject
// information, free-form preferences, legal notices and the proof's document hash. Each refusal
// is an `InvalidField` that names the field.

extension CheckedConsentEvent {
    /// Checks `subject` (at least one field; an e-mail address with an `@`; names of 1-200 bytes).
    static func check(_ subject: SubjectInformation) throws(InvalidField) {
        guard subject.email != nil || subject.firstName != nil || subject.lastName != nil || subject.fullName != nil
            || subject.verified != nil else {
            throw InvalidField(code: .invalidField, field: "subject",
                               message: "subject must hold at least one of email, firstName, lastName, fullName or verified; leave it out otherwise")
        }
        if let email = subject.email {
            try checkLength(email, field: "subject.email", min: 3, max: 254)
            try checkPrintable(email, field: "subject.email")
            let parts = email.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !email.contains(" ") else {
                throw InvalidField(code: .invalidField, field: "subject.email", message: "subject.email must be an e-mail address such as name@example.com")
            }
        }
        for (value, field) in [(subject.firstName, "subject.firstName"), (subject.lastName, "subject.lastName"),
                               (subject.fullName, "subject.fullName")] {
            guard let value else { continue }
            try checkLength(value, field: field, min: 1, max: 200)
            try checkPrintable(value, field: field)
        }
    }

    /// Checks the record's `preferences`, `legalNotices` and `proof.documentHash`.
    static func checkRecordFields(of consent: ConsentRecord) throws(InvalidField) {
        if let preferences = consent.preferences {
            try check(preferences)
        }
        if let legalNotices = consent.legalNotices {
            guard (1...ConsentRecord.maximumLegalNoticeCount).contains(legalNotices.count) else {
                throw InvalidField(code: .invalidField, field: "legalNotices",
                                   message: "legalNotices must hold 1 to \(ConsentRecord.maximumLegalNoticeCount) documents, not \(legalNotices.count)")
            }
            var seen: Set<String> = []
            for (index, notice) in legalNotices.enumerated() {
                try checkLength(notice.identifier, field: "legalNotices[\(index)].identifier", min: 1, max: 200)
                try checkPrintable(notice.identifier, field: "legalNotices[\(index)].identifier")
                try checkLength(notice.version, field: "legalNotices[\(index)].version", min: 1, max: 100)
                try checkPrintable(notice.version, field: "legalNotices[\(index)].version")
                guard seen.insert(notice.identifier).inserted else {
                    throw InvalidField(code: .invalidField, field: "legalNotices[\(index)].identifier",
                                       message: "legalNotices[\(index)].identifier \(notice.identifier) is listed twice; list each document once")
                }
            }
        }
        if let documentHash = consent.proof.documentHash {
            guard documentHash.utf8.count == 64, documentHash.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
                throw InvalidField(code: .invalidField, field: "proof.documentHash",
                                   message: "proof.documentHash must be the SHA-256 of the notice document as 64 lower-case hexadecimal digits")
            }
        }
    }

    /// Checks free-form preferences: 1 to ``ConsentRecord/maximumPreferenceCount`` entries, keys of
    /// 1-100 bytes, strings of at most ``ConsentRecord/maximumPreferenceStringLength`` bytes, all
    /// printable, and at most ``ConsentRecord/maximumPreferencesSize`` bytes of JSON in all.
    private static func check(_ preferences: [String: PreferenceValue]) throws(InvalidField) {
        guard (1...ConsentRecord.maximumPreferenceCount).contains(preferences.count) else {
            throw InvalidField(code: .invalidField, field: "preferences",
                               message: "preferences must hold 1 to \(ConsentRecord.maximumPreferenceCount) entries, not \(preferences.count)")
        }
        var json = JSONWriter(capacity: 512, escaping: .standard)
        json.beginObject()
        for (key, value) in preferences.sorted(by: { $0.key < $1.key }) {
            let field = "preferences.\(key)"
            try checkLength(key, field: field, min: 1, max: 100, what: "the key")
            try checkPrintable(key, field: field)
            switch value {
            case .bool(let flag): json.field(key, flag)
            case .integer(let integer): json.field(key, integer)
            case .string(let text):
                try checkLength(text, field: field, min: 0, max: ConsentRecord.maximumPreferenceStringLength)
                try checkPrintable(text, field: field)
                json.field(key, text)
            }
        }
        json.endObject()
        let size = json.text.utf8.count
        guard size <= ConsentRecord.maximumPreferencesSize else {
            throw InvalidField(code: .invalidField, field: "preferences",
                               message: "preferences take \(size) bytes of JSON; at most \(ConsentRecord.maximumPreferencesSize) are kept with an event")
        }
    }
}

/// Refuses a value shorter than `min` or longer than `max` UTF-8 bytes, naming `field`.
private func checkLength(_ value: String, field: String, min: Int, max: Int, what: String? = nil) throws(InvalidField) {
    let count = value.utf8.count
    guard count >= min, count <= max else {
        throw InvalidField(code: .invalidField, field: field, message: "\(what.map { "\($0) of \(field)" } ?? field) must be \(min) to \(max) bytes long, not \(count)")
    }
}
