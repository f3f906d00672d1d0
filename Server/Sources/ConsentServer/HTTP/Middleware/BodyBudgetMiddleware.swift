import Hummingbird

/// Gives each request a ``BodyReservation`` of the ``BodyBudget`` and releases it when the
/// request is answered (or fails).
struct BodyBudgetMiddleware: RouterMiddleware {
    typealias Context = ConsentdContext
    let budget: BodyBudget

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let reservation = BodyReservation(budget: budget)
        defer { reservation.releaseAll() }
        return try await BodyReservation.$current.withValue(reservation) { try await next(request, context) }
    }
}
