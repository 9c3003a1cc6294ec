import Foundation
import HTTPPipeline

/// How long to wait before a retry: exponential growth from a base, capped, with jitter.
///
/// The *n*-th retry's ceiling is `min(cap, base × multiplierⁿ⁻¹)`; jitter then picks the actual
/// wait so that many clients failing together do not retry in lockstep.
///
/// ``standard``, ``immediate``, ``constant(_:)`` and ``exponential(base:multiplier:cap:jitter:)``
/// never fail; the initialiser throws, for numbers read at run time that may be out of range.
public struct Backoff: Sendable, Equatable {
    /// How the wait is spread below (or around) the exponential ceiling.
    public enum Jitter: Sendable, Equatable {
        /// Exactly the exponential ceiling: predictable, but clients retry in lockstep.
        case none
        /// Uniformly random between zero and the ceiling (AWS's "full jitter"). The default.
        case full
        /// Uniformly random between `base` and three times the previous wait, capped
        /// (AWS's "decorrelated jitter").
        case decorrelated
    }

    /// The ceiling of the first retry's wait.
    public let base: Duration
    /// How much the ceiling grows with each retry (at least 1).
    public let multiplier: Double
    /// The largest wait, whatever the retry number.
    public let cap: Duration
    /// How the wait is spread.
    public let jitter: Jitter

    /// Creates a backoff.
    ///
    /// - Parameters:
    ///   - base: The first retry's ceiling; zero or more.
    ///   - multiplier: Growth per retry, from 1 to 100.
    ///   - cap: The largest wait; at least `base`, at most one day.
    ///   - jitter: How the wait is spread; ``Jitter/full`` by default.
    /// - Throws: ``RetryPolicyError/invalidBackoff(_:)`` for values outside those ranges.
    public init(base: Duration, multiplier: Double = 2, cap: Duration, jitter: Jitter = .full) throws(RetryPolicyError)
    {
        guard base >= .zero else { throw .invalidBackoff("the base delay is negative") }
        guard multiplier.isFinite, (1...100).contains(multiplier) else {
            throw .invalidBackoff("the multiplier must be between 1 and 100")
        }
        guard cap >= base else { throw .invalidBackoff("the cap is below the base delay") }
        guard cap <= Self.longest else { throw .invalidBackoff("the cap is over a day") }
        self.init(uncheckedBase: base, multiplier: multiplier, cap: cap, jitter: jitter)
    }

    private init(uncheckedBase base: Duration, multiplier: Double, cap: Duration, jitter: Jitter) {
        self.base = base
        self.multiplier = multiplier
        self.cap = cap
        self.jitter = jitter
    }

    /// 0.5 s doubling to a 10 s cap, with full jitter: the default policy's backoff.
    public static let standard = Backoff(
        uncheckedBase: .milliseconds(500), multiplier: 2, cap: .seconds(10), jitter: .full)

    /// No wait at all: every retry is sent at once. For tests about what is retried rather than
    /// when, and for retries a server's `Retry-After` alone should pace.
    public static let immediate = Backoff(uncheckedBase: .zero, multiplier: 2, cap: .zero, jitter: .none)

    /// The same wait before every retry, without jitter.
    ///
    /// Never fails: a negative `delay` waits zero, one over a day waits a day.
    ///
    /// - Parameter delay: The wait before each retry.
    /// - Returns: The backoff.
    public static func constant(_ delay: Duration) -> Backoff {
        let delay = min(max(delay, .zero), longest)
        return Backoff(uncheckedBase: delay, multiplier: 2, cap: delay, jitter: .none)
    }

    /// Exponential growth from `base`, capped, with jitter, for numbers known when the code is
    /// written.
    ///
    /// Never fails: a value out of range is brought to the nearest one in range (a negative
    /// `base` waits zero, a `multiplier` below 1 or not a number is 1, one over 100 is 100, a
    /// `cap` below `base` is `base`, one over a day is a day). For numbers read at run time,
    /// ``init(base:multiplier:cap:jitter:)`` refuses them instead.
    ///
    /// - Parameters:
    ///   - base: The first retry's ceiling; 0.5 s by default.
    ///   - multiplier: Growth per retry, from 1 to 100; 2 by default.
    ///   - cap: The largest wait; 10 s by default.
    ///   - jitter: How the wait is spread; ``Jitter/full`` by default.
    /// - Returns: The backoff.
    public static func exponential(
        base: Duration = .milliseconds(500),
        multiplier: Double = 2,
        cap: Duration = .seconds(10),
        jitter: Jitter = .full
    ) -> Backoff {
        let base = min(max(base, .zero), longest)
        let multiplier = multiplier.isNaN ? 1 : min(max(multiplier, 1), 100)
        let cap = min(max(cap, base), longest)
        return Backoff(uncheckedBase: base, multiplier: multiplier, cap: cap, jitter: jitter)
    }

    /// The longest wait a backoff accepts: a day.
    static let longest = Duration.seconds(86_400)

    /// The wait before retry number `retry` (1 for the first retry).
    ///
    /// - Parameters:
    ///   - retry: Which retry, from 1.
    ///   - previous: The previous wait (for decorrelated jitter); `nil` before the first retry.
    ///   - random: A source of uniform values in `0..<1`.
    /// - Returns: A wait between zero and ``cap``.
    public func delay(beforeRetry retry: Int, previous: Duration?, random: RandomSource) -> Duration {
        let baseSeconds = base.seconds
        let capSeconds = cap.seconds
        let seconds: Double
        switch jitter {
        case .none:
            seconds = ceiling(retry, baseSeconds, capSeconds)
        case .full:
            seconds = ceiling(retry, baseSeconds, capSeconds) * random.next()
        case .decorrelated:
            let upper = min(capSeconds, max(baseSeconds, (previous?.seconds ?? baseSeconds) * 3))
            seconds = baseSeconds + (upper - baseSeconds) * random.next()
        }
        return .seconds(min(max(seconds, 0), capSeconds))
    }

    private func ceiling(_ retry: Int, _ base: Double, _ cap: Double) -> Double {
        // Growth is computed in floating point and capped before it can overflow.
        let exponent = Double(max(retry - 1, 0))
        let grown = base * pow(multiplier, min(exponent, 1_000))
        return grown.isFinite ? min(grown, cap) : cap
    }
}

/// Uniform random values in `0..<1` for jitter; inject a fixed sequence to make tests exact.
public struct RandomSource: Sendable {
    private let generate: @Sendable () -> Double

    /// Random values from the system generator.
    public static let system = RandomSource { Double.random(in: 0..<1) }

    /// A source that calls `generate` for each value.
    ///
    /// - Parameter generate: Returns a value in `0..<1`; values outside are clamped.
    public init(_ generate: @escaping @Sendable () -> Double) {
        self.generate = generate
    }

    /// The next value, clamped to `0...1`.
    ///
    /// - Returns: A value in `0...1`.
    public func next() -> Double {
        let value = generate()
        return value.isFinite ? min(max(value, 0), 1) : 0
    }
}
