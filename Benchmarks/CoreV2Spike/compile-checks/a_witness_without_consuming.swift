protocol M { func intercept(_ r: consuming Req, next: (consuming Req) async throws -> Res) async throws -> Res }
struct Plain: M {
    func intercept(_ r: Req, next: (consuming Req) async throws -> Res) async throws -> Res { try await next(r) }
}
