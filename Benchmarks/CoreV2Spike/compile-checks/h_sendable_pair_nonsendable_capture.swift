// The pair's inner closure must itself be @Sendable: it captures `inner` and `next` only.
protocol SM: Sendable { func intercept(_ r: Req, next: @Sendable (Req) async throws -> Res) async throws -> Res }
struct Pair<O: SM, I: SM>: SM {
    let outer: O, inner: I
    func intercept(_ r: Req, next: @Sendable (Req) async throws -> Res) async throws -> Res {
        try await outer.intercept(r) { r in try await inner.intercept(r, next: next) }
    }
}
