/// A purpose, special purpose, feature, special feature or data category as the vendor list
/// declares it: the id that consent strings and vendors refer to, and the text a CMP shows.
public struct Declaration: Sendable, Equatable, Identifiable {
    /// The id, as used in consent strings (`PurposesConsent` bit `id`) and vendor declarations.
    public let id: Int
    /// The short name shown to the user.
    public internal(set) var name: String
    /// The user-friendly description.
    public internal(set) var description: String
    /// The legal text (GVL v2 only; v3 replaced it with ``illustrations``).
    public internal(set) var descriptionLegal: String?
    /// Examples of the processing (GVL v3); empty in earlier formats.
    public internal(set) var illustrations: [String]
    /// Whether a CMP may offer an opt-in consent choice for it (GVL v3 `consentable`; defaults
    /// to true when absent).
    public let consentable: Bool
    /// Whether a CMP may offer the right to object to it (GVL v3 `rightToObject`; defaults to
    /// true when absent).
    public let rightToObject: Bool

    /// A declaration with the given fields.
    public init(
        id: Int, name: String, description: String, descriptionLegal: String? = nil,
        illustrations: [String] = [], consentable: Bool = true, rightToObject: Bool = true
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.descriptionLegal = descriptionLegal
        self.illustrations = illustrations
        self.consentable = consentable
        self.rightToObject = rightToObject
    }
}

/// A stack: a named group of purposes and special features a CMP may present as one choice.
public struct Stack: Sendable, Equatable, Identifiable {
    /// The stack's id.
    public let id: Int
    /// The purposes the stack groups.
    public let purposes: IDSet
    /// The special features the stack groups.
    public let specialFeatures: IDSet
    /// The short name shown to the user.
    public internal(set) var name: String
    /// The user-friendly description.
    public internal(set) var description: String

    /// A stack with the given fields.
    public init(id: Int, purposes: IDSet, specialFeatures: IDSet, name: String, description: String) {
        self.id = id
        self.purposes = purposes
        self.specialFeatures = specialFeatures
        self.name = name
        self.description = description
    }
}
