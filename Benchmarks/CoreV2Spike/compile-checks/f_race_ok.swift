func race(_ r: Req, timeout: Duration, next: @Sendable (Req) async throws -> Res) async throws -> Res {
    try await withoutActuallyEscaping(next) { next in
        try await withThrowingTaskGroup(of: Res.self) { group in
            group.addTask { try await next(r) }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw TimedOut()
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
}
