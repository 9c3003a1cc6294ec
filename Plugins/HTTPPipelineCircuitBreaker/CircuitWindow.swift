/// The outcomes judged over the last sampling duration, in ten buckets that age out one by one.
struct CircuitWindow: Sendable {
    private struct Bucket: Sendable {
        let index: Int64
        var calls = 0
        var failures = 0
    }

    static let bucketCount: Int64 = 10
    private var buckets: [Bucket] = []

    /// Adds one outcome judged at `now` (time on the breaker's clock).
    mutating func record(failure: Bool, at now: Duration, window: Duration) {
        let index = Self.index(of: now, window: window)
        buckets.removeAll { $0.index <= index - Self.bucketCount }
        if buckets.last?.index != index { buckets.append(Bucket(index: index)) }
        buckets[buckets.count - 1].calls += 1
        if failure { buckets[buckets.count - 1].failures += 1 }
    }

    /// The calls and failures still in the window at `now`.
    func totals(at now: Duration, window: Duration) -> (calls: Int, failures: Int) {
        let oldest = Self.index(of: now, window: window) - Self.bucketCount
        return buckets.reduce(into: (0, 0)) { totals, bucket in
            guard bucket.index > oldest else { return }
            totals.calls += bucket.calls
            totals.failures += bucket.failures
        }
    }

    private static func index(of now: Duration, window: Duration) -> Int64 {
        Int64((now / (window / Int(bucketCount))).rounded(.down))
    }
}
