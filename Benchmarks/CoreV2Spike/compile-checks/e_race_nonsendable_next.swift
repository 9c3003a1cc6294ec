func race(_ r: Req, next: (Req) async throws -> Res) async throws -> Res {
    try await withoutActuallyEscaping(next) { next in
        try await withThrowingTaskGroup(of: Res.self) { group in
            group.addTask { try await next(r) }
            return try await group.next()!
        }
    }
}
