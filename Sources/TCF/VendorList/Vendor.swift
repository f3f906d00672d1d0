import Foundation

/// One vendor of the Global Vendor List: what it does, on which legal basis, and how it uses
/// device storage.
///
/// Fields a format does not have are empty or nil: v1 lists have no special purposes, retention
/// or device-storage fields; v3 replaced `policyUrl` with per-language ``urls``.
public struct Vendor: Sendable, Equatable, Identifiable {
    /// The vendor's id, as used in consent strings.
    public let id: Int
    /// The vendor's name.
    public let name: String
    /// Purposes the vendor performs on the legal basis of consent (v1 `purposeIds`).
    public let purposes: IDSet
    /// Purposes the vendor performs on the legal basis of legitimate interest (v1 `legIntPurposeIds`).
    public let legIntPurposes: IDSet
    /// Purposes for which the vendor accepts either legal basis; the default is the one listed
    /// in ``purposes`` or ``legIntPurposes``.
    public let flexiblePurposes: IDSet
    /// Special purposes, performed on the legal basis of legitimate interest.
    public let specialPurposes: IDSet
    /// Features the vendor may use (v1 `featureIds`).
    public let features: IDSet
    /// Special features the vendor may use, each needing the user's opt-in.
    public let specialFeatures: IDSet
    /// The data categories the vendor declares (GVL v3 `dataDeclaration`).
    public let dataDeclaration: IDSet
    /// How long the vendor keeps data, in days (GVL v3).
    public let dataRetention: DataRetention?
    /// Privacy-policy and legitimate-interest URLs per language (GVL v3).
    public let urls: [URLs]
    /// The privacy-policy URL (GVL v1 and v2).
    public let policyUrl: String?
    /// When present, the vendor is deleted after this instant and must not be shown to users.
    public let deletedDate: Date?
    /// The longest HTTP GET request the vendor accepts, in kilobytes (`overflow.httpGetLimit`:
    /// 32 or 128), when declared.
    public let httpGetLimit: Int?
    /// Whether the vendor stores cookies.
    public let usesCookies: Bool?
    /// The longest cookie lifetime in seconds; 0 or negative means a session cookie. Nil when the
    /// vendor uses no cookies or the format has no such field.
    public let cookieMaxAgeSeconds: Int?
    /// Whether cookie lifetimes are refreshed on access.
    public let cookieRefresh: Bool?
    /// Whether the vendor uses storage or access other than cookies.
    public let usesNonCookieAccess: Bool?
    /// The URL of the vendor's device-storage disclosure JSON.
    public let deviceStorageDisclosureUrl: String?

    /// Whether the vendor is deleted at `date` (its ``deletedDate`` has passed).
    public func isDeleted(at date: Date = Date()) -> Bool {
        deletedDate.map { $0 <= date } ?? false
    }

    /// Retention periods in days.
    public struct DataRetention: Sendable, Equatable {
        /// The retention for every purpose and special purpose not listed separately.
        public let stdRetention: Int?
        /// Retention per purpose id, where it differs from ``stdRetention``.
        public let purposes: [Int: Int]
        /// Retention per special purpose id, where it differs from ``stdRetention``.
        public let specialPurposes: [Int: Int]

        /// Retention periods with the given values.
        public init(stdRetention: Int?, purposes: [Int: Int] = [:], specialPurposes: [Int: Int] = [:]) {
            self.stdRetention = stdRetention
            self.purposes = purposes
            self.specialPurposes = specialPurposes
        }

        /// The retention in days for purpose `id`.
        public func forPurpose(_ id: Int) -> Int? { purposes[id] ?? stdRetention }

        /// The retention in days for special purpose `id`.
        public func forSpecialPurpose(_ id: Int) -> Int? { specialPurposes[id] ?? stdRetention }
    }

    /// A vendor's URLs for one language.
    public struct URLs: Sendable, Equatable {
        /// The language code, like `en`.
        public let langId: String
        /// The privacy-policy URL.
        public let privacy: String
        /// The URL of the vendor's legitimate-interest claim, when it has one.
        public let legIntClaim: String?

        /// URLs for `langId`.
        public init(langId: String, privacy: String, legIntClaim: String? = nil) {
            self.langId = langId
            self.privacy = privacy
            self.legIntClaim = legIntClaim
        }
    }

    /// A vendor with the given fields; every field but `id` and `name` defaults to empty.
    public init(
        id: Int, name: String,
        purposes: IDSet = IDSet(), legIntPurposes: IDSet = IDSet(), flexiblePurposes: IDSet = IDSet(),
        specialPurposes: IDSet = IDSet(), features: IDSet = IDSet(), specialFeatures: IDSet = IDSet(),
        dataDeclaration: IDSet = IDSet(), dataRetention: DataRetention? = nil, urls: [URLs] = [],
        policyUrl: String? = nil, deletedDate: Date? = nil, httpGetLimit: Int? = nil,
        usesCookies: Bool? = nil, cookieMaxAgeSeconds: Int? = nil, cookieRefresh: Bool? = nil,
        usesNonCookieAccess: Bool? = nil, deviceStorageDisclosureUrl: String? = nil
    ) {
        self.id = id
        self.name = name
        self.purposes = purposes
        self.legIntPurposes = legIntPurposes
        self.flexiblePurposes = flexiblePurposes
        self.specialPurposes = specialPurposes
        self.features = features
        self.specialFeatures = specialFeatures
        self.dataDeclaration = dataDeclaration
        self.dataRetention = dataRetention
        self.urls = urls
        self.policyUrl = policyUrl
        self.deletedDate = deletedDate
        self.httpGetLimit = httpGetLimit
        self.usesCookies = usesCookies
        self.cookieMaxAgeSeconds = cookieMaxAgeSeconds
        self.cookieRefresh = cookieRefresh
        self.usesNonCookieAccess = usesNonCookieAccess
        self.deviceStorageDisclosureUrl = deviceStorageDisclosureUrl
    }
}
