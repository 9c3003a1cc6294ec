final class Holder: @unchecked Sendable { var f: (@Sendable (Req) async throws -> Res)? }
func store(_ h: Holder, next: @Sendable (Req) async throws -> Res) { h.f = next }
