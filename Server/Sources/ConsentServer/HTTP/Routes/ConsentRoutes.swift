import Hummingbird

extension Consentd {
    /// `POST /v1/consents`.
    func addConsentRoutes(to router: Router<ConsentdContext>) {
        router.post("/v1/consents") { request, _ -> Response in
            let principal = try await self.authenticate(request, allowing: [.publishable, .secret, .subjectToken], action: "append consent events")
            var request = request
            let body = try await request.jsonBody(limit: self.settings.bodyLimit)
            let event: CheckedConsentEvent
            do {
                event = try CheckedConsentEvent.decode(body)
            } catch let error as InvalidField {
                let status: HTTPResponse.Status = error.code == .invalidConsentString ? .unprocessableContent : .badRequest
                throw APIError(status, error.code.rawValue, error.message, field: error.field)
            }
            switch principal.credential {
            case .publishable:
                // The key ships inside every app, so it is public: alone it may only create a subject.
                if event.subjectId != nil {
                    throw APIError(.forbidden, "subject_credential_required",
                                   "a publishable key alone cannot write for a subjectId: send the subject's token "
                                   + "(returned when consentd created the subject, or minted by the publisher's backend)",
                                   field: "subjectId")
                }
            case .subjectToken:
                guard let subjectId = event.subjectId else {
                    throw APIError(.badRequest, "missing_field", "with a subject token, subjectId is required", field: "subjectId")
                }
                try self.requireSubject(principal, subjectId: subjectId)
            case .secret:
                break
            }
            if let subjectId = event.subjectId, let erased = try await self.store.erasure(appId: principal.appId, subjectId: subjectId),
               !erased.admits(principal.credential, token: principal.token) {
                throw APIError(.gone, "subject_erased", erased.restartedAt == nil
                    ? "subject \(subjectId) was erased; the publisher's backend may start it anew with POST /v1/subjects/{subjectId}/restart"
                    : "subject \(subjectId) was erased and started anew; credentials from before the erasure no longer write it",
                    field: "subjectId")
            }
            do {
                let answer = try await self.store.append(appId: principal.appId, request: event, credential: principal.credential)
                guard principal.credential == .publishable else {
                    return jsonResponse(text: answer.json, status: answer.created ? .created : .ok)
                }
                // The subject consentd created, and the installation token that alone may write it again.
                let result = try answer.result()
                let token = SubjectToken(appId: principal.appId, subjectHash: self.secret.subjectHash(appId: principal.appId, subjectId: result.subjectId),
                                         keyId: principal.keyId).encoded(with: self.secret)
                return jsonResponse(text: String(answer.json.dropLast()) + #","subjectToken":""# + token + #""}"#,
                                    status: answer.created ? .created : .ok)
            } catch let error as StoreError {
                throw APIError(.conflict, "event_id_conflict", error.description, field: "eventId")
            }
        }
    }
}
