/// How a soak run is shaped: how many requests, how many at once, and how often each fault is
/// injected into an attempt.
package struct SoakConfiguration: Sendable {
    /// Requests sent in the measured run.
    package var requests: Int
    /// Requests in flight at once.
    package var concurrency: Int
    /// Requests sent (and not counted) before the first memory reading, so allocator arenas and
    /// caches exist before "before" is read.
    package var warmUpRequests: Int
    /// Seeds the fault schedule: the faults an attempt meets depend on the seed, the request, the
    /// attempt and the token it carries (which token is current depends on timing).
    package var seed: UInt64
    /// The chance that an attempt revokes the valid credential and answers 401.
    package var revocationRate: Double
    /// The chance that an attempt answers 503.
    package var unavailableRate: Double
    /// The chance that an attempt answers 429 with `Retry-After: 0`.
    package var throttledRate: Double
    /// The chance that an attempt throws a `URLError`.
    package var transportErrorRate: Double
    /// The chance that an attempt answers 200 with a corrupt gzip body.
    package var corruptGzipRate: Double
    /// The chance that an attempt is delayed before answering.
    package var delayRate: Double
    /// The longest injected delay.
    package var maximumDelay: Duration
    /// The chance that a request's caller cancels it while its transport waits.
    package var cancellationRate: Double
    /// How many times the run signs in to another account (evenly spread over the requests).
    package var accountSwitches: Int
    /// Every this many refreshes, the token endpoint answers slower than auth's timeout, and the
    /// call ignores cancellation; 0 for never.
    package var slowRefreshEvery: Int
    /// How long a slow refresh takes.
    package var slowRefresh: Duration
    /// Auth's refresh timeout in the run.
    package var refreshTimeout: Duration
    /// Every this many token calls, the endpoint rotates the refresh token and its answer is lost
    /// (the connection closes before a response byte); 0 for never.
    package var lostTokenAnswerEvery: Int
    /// The token endpoint's reuse grace for a rotated refresh token, and what the client's
    /// `OAuth2TokenSource` is told; `nil` for none (then a lost answer signs the user out).
    package var tokenReuseGrace: Duration?

    /// The shape of the benchmark's run: 100,000 requests, 64 at once.
    package static let full = SoakConfiguration(requests: 100_000)

    /// Creates a configuration with the default fault rates.
    package init(
        requests: Int,
        concurrency: Int = 64,
        warmUpRequests: Int = 5_000,
        seed: UInt64 = 0x50AC,
        revocationRate: Double = 0.002,
        unavailableRate: Double = 0.03,
        throttledRate: Double = 0.03,
        transportErrorRate: Double = 0.03,
        corruptGzipRate: Double = 0.01,
        delayRate: Double = 0.1,
        maximumDelay: Duration = .microseconds(500),
        cancellationRate: Double = 0.01,
        accountSwitches: Int = 3,
        slowRefreshEvery: Int = 4,
        slowRefresh: Duration = .milliseconds(25),
        refreshTimeout: Duration = .milliseconds(10),
        lostTokenAnswerEvery: Int = 10,
        tokenReuseGrace: Duration? = .seconds(30)
    ) {
        self.requests = requests
        self.concurrency = concurrency
        self.warmUpRequests = warmUpRequests
        self.seed = seed
        self.revocationRate = revocationRate
        self.unavailableRate = unavailableRate
        self.throttledRate = throttledRate
        self.transportErrorRate = transportErrorRate
        self.corruptGzipRate = corruptGzipRate
        self.delayRate = delayRate
        self.maximumDelay = maximumDelay
        self.cancellationRate = cancellationRate
        self.accountSwitches = accountSwitches
        self.slowRefreshEvery = slowRefreshEvery
        self.slowRefresh = slowRefresh
        self.refreshTimeout = refreshTimeout
        self.lostTokenAnswerEvery = lostTokenAnswerEvery
        self.tokenReuseGrace = tokenReuseGrace
    }
}
