/// A small, fast, seeded random number generator (SplitMix64), for property and fuzz tests whose
/// failures must replay: the same seed gives the same sequence on every machine.
///
/// ```swift
/// var random = SeededRandomNumberGenerator(seed: 42)
/// let jitter = Double.random(in: 0..<1, using: &random)
/// ```
package struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates the generator.
    ///
    /// - Parameter seed: Any value; equal seeds give equal sequences.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    ///
    /// - Returns: A value uniformly distributed over all of `UInt64`.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
