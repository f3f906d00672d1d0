import ConsentKit

extension ConsentProof.Method {
    /// The proof's method of a notice's action: the two one-click answers as such (in US mode
    /// "Continue" as accepting, "Do Not Sell or Share" as refusing), any other choice (a saved
    /// selection, Google's non-personalized ads, the ad-free version) as custom.
    public init(_ action: NoticeResult.Action) {
        switch action {
        case .acceptAll, .acknowledged: self = .acceptAll
        case .rejectAll, .optOut: self = .rejectAll
        case .save, .nonPersonalized, .adFree, .dismissed: self = .custom
        }
    }
}
