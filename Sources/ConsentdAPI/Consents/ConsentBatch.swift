/// The body of `POST /v1/consents/batch`: up to ``maximumCount`` consent events for subjects
/// that exist already, appended in the order given, each answered on its own.
///
/// What a client with a queue of events sends (the SDK's sync client drains its outbox this
/// way): one request and one durable commit for many events, instead of one round trip each.
/// Every event names its `subjectId`; a subject is created only by `POST /v1/consents`.
public struct ConsentBatchRequest: Sendable, Equatable, Codable {
    /// The events, oldest first (1 to ``maximumCount``).
    public var events: [ConsentEventRequest]

    /// The most events one batch may carry.
    public static let maximumCount = 100

    /// Creates a batch.
    public init(events: [ConsentEventRequest]) {
        self.events = events
    }
}

/// The answer to `POST /v1/consents/batch` (`200` whenever the batch itself was readable): one
/// result per event, in the order sent.
public struct ConsentBatchResponse: Sendable, Equatable, Codable {
    /// The events' results, in the order of the request.
    public var results: [ConsentBatchItem]

    /// Creates an answer.
    public init(results: [ConsentBatchItem]) {
        self.results = results
    }
}

/// What became of one event of a batch: the status `POST /v1/consents` would have answered for
/// it alone, and that answer's body.
public struct ConsentBatchItem: Sendable, Equatable, Codable {
    /// The event's `eventId` as sent (not lower-cased), nil when the event had none that is a
    /// string.
    public var eventId: String?
    /// `201` appended, `200` a retry of an event stored before; otherwise the refusal's status
    /// (`400`, `403`, `409`, `410`, `413`, `422`). A retry of the same event gets the same
    /// refusal, except `410`, which ends when the publisher's backend starts the subject anew.
    public var status: Int
    /// The append's answer, for `200` and `201`.
    public var result: AppendResult?
    /// The refusal, for any other status.
    public var error: ConsentdErrorBody.Detail?

    /// Creates a result.
    public init(eventId: String?, status: Int, result: AppendResult? = nil, error: ConsentdErrorBody.Detail? = nil) {
        self.eventId = eventId
        self.status = status
        self.result = result
        self.error = error
    }
}
