import ConsentKit

extension ConsentProof.Method {
    /// The proof's method of a notice's action: the two one-click answers as such, any other
    /// choice (a saved selection, Google's non-personalized ads, the ad-free version) as custom.
    public init(_ action: NoticeResult.Action) {
        switch action {
        case .acceptAll: self = .acceptAll
        case .rejectAll: self = .rejectAll
        case .save, .nonPersonalized, .adFree, .dismissed: self = .custom
        }
    }
}
