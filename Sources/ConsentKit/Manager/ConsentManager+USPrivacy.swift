import ConsentdAPI
import Foundation
import TCF

/// US state privacy (decision record 0032): an opt-out regime. Nobody waits for a choice; the
/// notice at collection is shown once (and again after a material change), the user's
/// ``USPrivacyChoice`` and the signals (GPC, a known child) become the US GPP sections in the
/// `IABGPP_*` keys, `gad_rdp` and Consent Mode's ad signals.
extension ConsentManager {
    /// The user's answer to the US notice at collection; nil when they have not answered.
    public var usPrivacyChoice: USPrivacyChoice? { state.withLock { $0.usChoice } }

    /// The GPP sections in force for US privacy: consentd's answer (``AppConfig/gpp``) in a US
    /// region decision, with the state approach (``USPrivacySettings/standard``) where consentd
    /// is older than GPP; without consentd, a US debug geography on a debug device
    /// (``ConsentConfiguration/debug``) with the state approach; ``GPPApplicability/notApplicable``
    /// outside the US, before consentd's first answer, and while the app forces GDPR to apply
    /// (``ConsentConfiguration/gdprOverride``).
    public var usApplicability: GPPApplicability {
        guard configuration.gdprOverride != .applies else { return .notApplicable }
        if let config = appConfig {
            guard config.region == .us else { return .notApplicable }
            return config.gpp ?? USPrivacySettings.standard.applicability(region: .us, subdivision: config.subdivision)
        }
        if configuration.consentd == nil, let debug = configuration.debug.geography(on: configuration.device), debug.region == .us {
            return USPrivacySettings.standard.applicability(region: .us, subdivision: debug.subdivision)
        }
        return .notApplicable
    }

    /// Whether the US rules decide now (``AskRules`` rule 0): a US section is in force and GDPR does
    /// not apply. The notice to show is then the US notice at collection.
    public var followsUSPrivacyRules: Bool {
        usPrivacyKeys().applies && gdprApplies != .applies
    }

    /// What the CMP knows besides the choice: Global Privacy Control as the app sets it
    /// (``ConsentConfiguration/globalPrivacyControl`` at start, ``setGlobalPrivacyControl(_:)``
    /// while it runs) and a known child (the under-age tag, ``setTagForUnderAgeOfConsent(_:)``).
    public var usPrivacySignals: USPrivacySignals {
        USPrivacySignals(gpc: globalPrivacyControl, knownChild: isTaggedForUnderAgeOfConsent)
    }

    /// Global Privacy Control as the app set it: ``ConsentConfiguration/globalPrivacyControl`` at
    /// start, then the last ``setGlobalPrivacyControl(_:)``.
    public var globalPrivacyControl: Bool { state.withLock { $0.globalPrivacyControl } }

    /// Turns Global Privacy Control on or off while the app runs, as the user changes the app's own
    /// GPC (or "Do Not Sell or Share") setting: the US GPP sections, their GPC sub-section and
    /// `gad_rdp` are written again at once, in one store write, then
    /// ``ConsentEvent/consentChanged(_:)`` tells the app's SDKs to read them. The user's own
    /// ``usPrivacyChoice`` is kept as they gave it: turning GPC off again restores what they chose.
    ///
    /// Not stored: the app keeps its setting and passes it in
    /// ``ConsentConfiguration/globalPrivacyControl`` at the next start. No effect on the keys
    /// outside the US.
    public func setGlobalPrivacyControl(_ on: Bool) {
        exclusive {
            let unchanged = state.withLock { held -> Bool in
                defer { held.globalPrivacyControl = on }
                return held.globalPrivacyControl == on
            }
            guard !unchanged else { return }
            let (consent, gdpr) = state.withLock { ($0.consent, $0.gdprApplies) }
            do throws(TCFEncodingError) {
                try storage.write(consent, gdprApplies: gdpr, us: usPrivacyKeys())
            } catch {
                // Unreachable for a decision written before; the keys held stay, the error is told.
                hub.enqueue(.error(.encoding(error)))
                return
            }
            hub.enqueue(.consentChanged(consent))
        }
    }

    /// Whether Google's restricted data processing applies: a US section is in force and the user
    /// is opted out of sale, sharing or targeted advertising (by their choice, GPC or as a known
    /// child). The `gad_rdp` key says the same.
    public var restrictsDataProcessing: Bool { usPrivacyKeys().optsOut }

    /// Records the user's answer to the US notice: the choice, the US GPP sections, `gad_rdp` and
    /// the TCF keys in one store write, then ``ConsentEvent/consentChanged(_:)``. Recorded in any
    /// region (a user who moves keeps their answer); its sections are written only where a US
    /// section is in force.
    ///
    /// With sync on, the choice is a consent event of kind `us` (decision record 0035: its values,
    /// the GPP string of the sections in force, the proof with `method` and `documentHash`, the
    /// hash of the notice document shown), queued before the keys are written, like a TCF
    /// decision; the user's other devices apply it at their next merge.
    ///
    /// - Throws: ``ConsentKitError/encoding(_:)`` when the keys cannot be written; nothing is
    ///   kept then.
    public func recordUSChoice(_ choice: USPrivacyChoice, method: ConsentProof.Method = .programmatic, documentHash: String? = nil)
        throws(ConsentKitError) {
        let failure = exclusive { () -> ConsentKitError? in
            let (consent, gdpr) = state.withLock { ($0.consent, $0.gdprApplies) }
            var keys = usPrivacyKeys()
            keys.choice = choice
            let (mark, queued) = queueUSChoice(choice, keys: keys, method: method, documentHash: documentHash)
            do throws(TCFEncodingError) {
                try storage.write(consent, gdprApplies: gdpr, us: keys, also: mark)
            } catch {
                // The choice did not happen: its event goes too.
                if let queued { sync?.discard(queued) }
                return .encoding(error)
            }
            state.withLock { $0.usChoice = choice }
            hub.enqueue(.consentChanged(consent))
            if let queued { sync?.committed(queued) }
            return nil
        }
        if let failure { throw failure }
    }

    /// The US keys for what is held now; `knownChild` in place of the stored under-age tag while
    /// the tag is being changed.
    func usPrivacyKeys(knownChild: Bool? = nil) -> USPrivacyKeys {
        var signals = usPrivacySignals
        if let knownChild { signals.knownChild = knownChild }
        return USPrivacyKeys(choice: state.withLock { $0.usChoice }, applicability: usApplicability, signals: signals)
    }

}
