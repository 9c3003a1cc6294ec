func f(_ r: borrowing Req, next: (borrowing Req) async throws -> Res) async throws -> Res {
    var r2 = r
    r2.fields.append("x")
    return try await next(r2)
}
