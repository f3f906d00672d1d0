import TCF

/// Google's Additional Consent string (version 2): `2~` + the consented ad-tech provider ids
/// joined by `.` + `~dv.` + the ids disclosed but not consented, ascending, e.g.
/// `2~1.35.41.101~dv.9.21.81`. Google reads it from `IABTCF_AddtlConsent`.
public enum AdditionalConsent {
    /// The string for `consented` providers out of `disclosed` ones.
    public static func string(consented: IDSet, disclosed: IDSet) -> String {
        let refused = disclosed.subtracting(consented)
        return "2~" + consented.map(String.init).joined(separator: ".") + "~dv." + refused.map(String.init).joined(separator: ".")
    }

    /// The providers a version 2 string consents to and discloses; nil when `text` is not one.
    public static func parse(_ text: String) -> (consented: IDSet, disclosed: IDSet)? {
        let parts = text.split(separator: "~", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "2", parts[2].hasPrefix("dv.") else { return nil }
        func ids(_ field: Substring) -> [Int]? {
            if field.isEmpty { return [] }
            let numbers = field.split(separator: ".", omittingEmptySubsequences: false).map { part -> Int? in
                part.utf8.count <= 5 && part.utf8.allSatisfy({ (0x30...0x39).contains($0) }) ? Int(part) : nil
            }
            guard numbers.allSatisfy({ $0.map { (1...IDSet.maxID).contains($0) } ?? false }) else { return nil }
            return numbers.compactMap { $0 }
        }
        guard let consented = ids(parts[1]), let refused = ids(parts[2].dropFirst(3)) else { return nil }
        let consentedSet = IDSet(consented)
        return (consentedSet, consentedSet.union(IDSet(refused)))
    }
}
