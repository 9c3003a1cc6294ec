extension Duration {
    /// The duration in seconds, as a floating-point number.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in milliseconds, as a floating-point number.
    package var milliseconds: Double {
        seconds * 1_000
    }

    /// Whole nanoseconds, rounded toward zero, by integer arithmetic only (no `Double`, no 128-bit
    /// division): for counters and windows on hot paths. Saturates past ±292 years.
    package var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, overflowed) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !overflowed else { return seconds < 0 ? .min : .max }
        return sum
    }
}
