func retry(_ r: consuming Req, next: (consuming Req) async throws -> Res) async throws -> Res {
    for _ in 0..<2 { if let res = try? await next(copy r) { return res } }
    return try await next(r)
}
func setHeader(_ r: consuming Req, next: (consuming Req) async throws -> Res) async throws -> Res {
    r.fields.append("x")  // consuming parameters are mutable
    return try await next(r)
}
