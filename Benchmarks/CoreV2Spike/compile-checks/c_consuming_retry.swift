func retry(_ r: consuming Req, next: (consuming Req) async throws -> Res) async throws -> Res {
    for _ in 0..<2 { if let res = try? await next(r) { return res } }
    return try await next(r)
}
