func race(_ r: Req, next: @Sendable (Req) async throws -> Res) async throws -> Res {
    try await withThrowingTaskGroup(of: Res.self) { group in
        group.addTask { try await next(r) }
        return try await group.next()!
    }
}
