import ConsentdAPI
import Foundation

/// The merge: the credential of each subject, and a pass's read of the current subject's state,
/// handed to the ledger (a newer remote decision applied; the held one copied to a subject that
/// never received it).
extension ConsentSync {
    // MARK: Credentials

    enum Credential {
        case publishable
        case token(subjectId: String, token: String)
    }

    /// The credential for `subject`'s events; nil when there is none (a user with no token).
    func credential(for subject: String, files: Files, refresh: Bool = false) async -> Credential? {
        let identity = self.files.withLock { _ in files.identity }
        guard let userId = OutboxEntry.userId(of: subject) else {
            guard let subjectId = identity.anonymousSubjectId, let token = identity.installationToken else { return .publishable }
            return .token(subjectId: subjectId, token: token)
        }
        if let token = identity.userTokens[userId], !refresh { return .token(subjectId: userId, token: token) }
        let (cached, provider) = state.withLock { state in
            if refresh { state.minted[userId] = nil }
            return (state.minted[userId], state.providers[userId])
        }
        if let cached { return .token(subjectId: userId, token: cached) }
        guard let provider else {
            if let token = identity.userTokens[userId] { return .token(subjectId: userId, token: token) }
            return nil
        }
        do {
            let token = try await provider()
            state.withLock { $0.minted[userId] = token }
            return .token(subjectId: userId, token: token)
        } catch {
            fail(.credentialRejected(subject: userId, status: 0, message: "the token provider failed: \(error)"), schedule: true)
            return nil
        }
    }

    // MARK: Pull

    /// Reads the current subject's state and hands it to the manager; true when consentd answered.
    func pull(_ files: Files) async -> Result<Bool, Stop> {
        let (subject, identity) = self.files.withLock { _ in (files.identity.userId.map(OutboxEntry.user) ?? OutboxEntry.installation, files.identity) }
        if subject == OutboxEntry.installation && identity.anonymousSubjectId == nil {
            // No subject yet: consentd holds nothing for this installation. A decision held
            // from before sync (or taken over) is queued so that it has its proof there too.
            queueHeldIfUnsent(subject: subject, remote: nil, files: files)
            return .success(false)
        }
        for attempt in 0..<2 {
            guard case .token(let subjectId, let token)? = await credential(for: subject, files: files, refresh: attempt > 0) else {
                if let user = identity.userId { fail(.waitingForCredential(userId: user), schedule: false) }
                return .failure(Stop(waitingForCredential: true))
            }
            let answer: ConsentdAnswer
            do {
                answer = try await client.subject(subjectId, credential: token, timeout: settings.requestTimeout)
            } catch {
                fail(.unavailable(error), schedule: true)
                return .failure(Stop())
            }
            switch answer.status {
            case 200:
                guard let remote = try? answer.decode(SubjectState.self) else {
                    fail(.unavailable(.malformed(url: answer.url, message: "not a subject state")), schedule: true)
                    return .failure(Stop())
                }
                succeeded()
                queueHeldIfUnsent(subject: subject, remote: remote, applied: heldLedger?.apply(remote) ?? [], files: files)
                merged(identity.userId)
                return .success(true)
            case 404:
                succeeded()
                queueHeldIfUnsent(subject: subject, remote: nil, files: files)
                merged(identity.userId)
                return .success(true)
            case let status where (status == 401 || status == 403) && attempt == 0 && subject != OutboxEntry.installation:
                continue
            default:
                handleRequestFailure(answer, subject: subjectId)
                return .failure(Stop())
            }
        }
        return .failure(Stop())
    }

    /// Notes that the signed-in user's subject (when one is signed in) was merged.
    private func merged(_ userId: String?) {
        guard let userId else { return }
        state.withLock { $0.mergedUser = userId }
    }

    /// Seed 002's "local is newer", for each kind `remote` (the subject's state; nil for none)
    /// did not just bring: queues what is held of it for `subject` unless consentd has it.
    private func queueHeldIfUnsent(subject: String, remote: SubjectState?, applied: Set<ConsentRecord.Kind> = [], files: Files) {
        for kind in ConsentRecord.Kind.allCases where !applied.contains(kind) {
            queueHeldIfUnsent(kind, subject: subject, remote: remote?.state(of: kind), files: files)
        }
    }

    /// Queues the record of `kind` held for `subject` unless consentd has it (its event is
    /// `remote`'s, the subject's current state of that kind) or an entry for it is pending.
    private func queueHeldIfUnsent(_ kind: ConsentRecord.Kind, subject: String, remote: SubjectState?, files: Files) {
        guard let ledger = heldLedger, let mark = ledger.heldMark(of: kind) else { return }
        if let remote, remote.eventId == mark.eventId || SyncMark(remote) ?? mark > mark { return }
        // The installation's own decisions were queued for it when made; only one from before
        // sync (no event id) is sent afterwards.
        if subject == OutboxEntry.installation && !mark.eventId.isEmpty { return }
        let concerns: (OutboxEntry) -> Bool = {
            $0.subject == subject && $0.event.consent.recordKind == kind && ($0.eventId == mark.eventId || $0.copyOf == mark.eventId)
        }
        let known = self.files.withLock { _ in
            files.outbox.pending.contains(where: concerns) || files.outbox.deadLetters().contains { concerns($0.entry) }
        }
        if known { return }
        do throws(SyncError) {
            try ledger.copyHeld(kind, to: subject) { entry throws(SyncError) -> Bool in
                // Under the ledger's write lock, which `identify` also takes: when a user signed
                // in since this pass read the subject, the copy is not the installation's to
                // have (it would reach consentd beside the user's); the merge for the user,
                // which `identify` triggered, queues it for them.
                guard currentSubject == subject else { return false }
                try enqueue(entry)
                // Sent by this pass's drain, after the ledger moved its mark to it.
                committed(entry.eventId, triggering: false)
                return true
            }
        } catch {
            fail(error, schedule: false)
        }
    }
}
