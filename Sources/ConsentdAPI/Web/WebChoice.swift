/// The answer to `POST /v1/web/choices`: the notice's action and, when a choice was recorded
/// (`201`), what the page keeps and shows. consentd writes it directly as JSON text (it embeds
/// the `TCData` and the stored event as they were written); this type is the contract the
/// server's answers are held to (`openapi.yaml`'s `WebChoice`).
public struct WebChoice: Sendable, Equatable, Codable {
    /// The notice's action (`acceptAll`, `rejectAll`, `save`, `dismissed`, ...; `sync` for an
    /// app's consent).
    public var action: String
    /// The recorded choice; nil when the notice was closed without one.
    public var recorded: Recorded?

    /// What a recorded choice gives the page.
    public struct Recorded: Sendable, Equatable {
        /// The TC string the page keeps (`euconsent-v2`); nil for a US choice (no TCF).
        public var tcString: String?
        /// The Additional Consent string kept with it; nil when no ad-tech provider was disclosed.
        public var addtlConsent: String?
        /// The CMP API's `TCData` for the string; nil without one.
        public var tcData: JSONValue?
        /// The subject the choice was recorded for.
        public var subjectId: String
        /// The visitor's token, when the page's key created the subject.
        public var subjectToken: String?
        /// consentd's answer to the stored event.
        public var event: AppendResult
        /// What the page's `__gpp` answers now (the page keeps its `gppString` as `consentkit-gpp`).
        public var gpp: WebGPP?
        /// A US choice as the visitor made it, before Global Privacy Control is applied (what
        /// ``gpp`` encodes with it): the page keeps it as `consentkit-us-choice` and sends it with
        /// the next page view (``WebSessionRequest/usChoice``), so the signal's end gives the
        /// visitor's own answer back. Nil for a TCF choice.
        public var usChoice: USChoiceRecord?

        /// A recorded choice.
        public init(tcString: String?, addtlConsent: String?, tcData: JSONValue?, subjectId: String, subjectToken: String? = nil,
                    event: AppendResult, gpp: WebGPP? = nil, usChoice: USChoiceRecord? = nil) {
            self.usChoice = usChoice
            self.tcString = tcString
            self.addtlConsent = addtlConsent
            self.tcData = tcData
            self.subjectId = subjectId
            self.subjectToken = subjectToken
            self.event = event
            self.gpp = gpp
        }
    }

    /// An answer.
    public init(action: String, recorded: Recorded? = nil) {
        self.action = action
        self.recorded = recorded
    }

    /// The answer's field names.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        /// `action`.
        case action
        /// `tcString`.
        case tcString
        /// `addtlConsent`.
        case addtlConsent
        /// `tcData`.
        case tcData
        /// `subjectId`.
        case subjectId
        /// `subjectToken`.
        case subjectToken
        /// `event`.
        case event
        /// `gpp`.
        case gpp
        /// `usChoice`.
        case usChoice
    }

    /// Reads an answer: a recorded choice when it carries the stored event.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        action = try container.decode(String.self, forKey: .action)
        guard let event = try container.decodeIfPresent(AppendResult.self, forKey: .event) else { return }
        recorded = Recorded(
            tcString: try container.decodeIfPresent(String.self, forKey: .tcString),
            addtlConsent: try container.decodeIfPresent(String.self, forKey: .addtlConsent),
            tcData: try container.decodeIfPresent(JSONValue.self, forKey: .tcData), subjectId: try container.decode(String.self, forKey: .subjectId),
            subjectToken: try container.decodeIfPresent(String.self, forKey: .subjectToken), event: event,
            gpp: try container.decodeIfPresent(WebGPP.self, forKey: .gpp),
            usChoice: try container.decodeIfPresent(USChoiceRecord.self, forKey: .usChoice))
    }

    /// Writes the answer as consentd does: the action, and for a recorded choice every field it
    /// has (with a TC string, `addtlConsent` null when there is none).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(action, forKey: .action)
        guard let recorded else { return }
        if let tcString = recorded.tcString {
            try container.encode(tcString, forKey: .tcString)
            try container.encode(recorded.addtlConsent, forKey: .addtlConsent)
        }
        try container.encodeIfPresent(recorded.tcData, forKey: .tcData)
        try container.encode(recorded.subjectId, forKey: .subjectId)
        try container.encodeIfPresent(recorded.subjectToken, forKey: .subjectToken)
        try container.encode(recorded.event, forKey: .event)
        try container.encodeIfPresent(recorded.gpp, forKey: .gpp)
        try container.encodeIfPresent(recorded.usChoice, forKey: .usChoice)
    }
}
