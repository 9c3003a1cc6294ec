struct Req: Sendable { var fields: [String] = [] }
struct Res: Sendable { var status = 200 }
struct TimedOut: Error {}
