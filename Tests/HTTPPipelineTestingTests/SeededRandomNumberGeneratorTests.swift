import HTTPPipelineTesting
import Testing

@Suite struct SeededRandomNumberGeneratorTests {
    @Test func sameSeedGivesTheSameSequenceAndOtherSeedsDiffer() {
        var first = SeededRandomNumberGenerator(seed: 7)
        var second = SeededRandomNumberGenerator(seed: 7)
        var other = SeededRandomNumberGenerator(seed: 8)
        let a = (0..<100).map { _ in first.next() }
        let b = (0..<100).map { _ in second.next() }
        let c = (0..<100).map { _ in other.next() }
        #expect(a == b)
        #expect(a != c)
        #expect(Set(a).count == 100, "no short cycle")
    }

    @Test func valuesSpreadAcrossTheRange() {
        var random = SeededRandomNumberGenerator(seed: 42)
        let samples = (0..<10_000).map { _ in Double.random(in: 0..<1, using: &random) }
        let mean = samples.reduce(0, +) / Double(samples.count)
        #expect(abs(mean - 0.5) < 0.02)
        #expect(samples.filter { $0 < 0.1 }.count > 800)
    }
}
