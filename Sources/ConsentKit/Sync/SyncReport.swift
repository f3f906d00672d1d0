/// What the sync tells whoever listens (the manager: on its event stream and log).
enum SyncReport: Sendable {
    /// A failure the app should hear of (not the passing ones: consentd unavailable or
    /// throttling, a user's events waiting for a credential, which ``SyncStatus`` shows).
    case failed(SyncError)
    /// A pass reached consentd; the status afterwards.
    case synced(SyncStatus)
}
