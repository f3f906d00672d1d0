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
            if principal.subjectHash != nil {
                guard let subjectId = event.subjectId else {
                    throw APIError(.badRequest, "missing_field", "with a subject token, subjectId is required", field: "subjectId")
                }
                try self.requireSubject(principal, subjectId: subjectId)
            }
            do {
                let answer = try await self.store.append(appId: principal.appId, request: event, credential: principal.credential)
                return jsonResponse(text: answer.json, status: answer.created ? .created : .ok)
            } catch let error as StoreError {
                throw APIError(.conflict, "event_id_conflict", error.description, field: "eventId")
            }
        }
    }
}
