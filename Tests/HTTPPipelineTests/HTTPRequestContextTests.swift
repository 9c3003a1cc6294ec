import HTTPPipeline
import Testing

@Suite struct HTTPRequestContextTests {
    enum SkipRetry: HTTPContextKey { typealias Value = Bool }
    enum Timeout: HTTPContextKey { typealias Value = Duration }
    enum Tag: HTTPContextKey { typealias Value = String }
    enum Priority: HTTPContextKey { typealias Value = Int }

    @Test("Each key reads back what was stored under it, whatever else is stored")
    func keysReadBackTheirValues() {
        var context = HTTPRequestContext()
        #expect(context[SkipRetry.self] == nil)
        context[SkipRetry.self] = true
        context[Timeout.self] = .seconds(5)
        context[Tag.self] = "checkout"
        context[Priority.self] = 3
        #expect(context[SkipRetry.self] == true)
        #expect(context[Timeout.self] == .seconds(5))
        #expect(context[Tag.self] == "checkout")
        #expect(context[Priority.self] == 3)
        #expect(context.count == 4)
    }

    @Test("Setting a key again replaces its value, and nil removes it wherever it is stored")
    func replacingAndRemoving() {
        var context = HTTPRequestContext()
        context[SkipRetry.self] = true
        context[Timeout.self] = .seconds(5)
        context[Tag.self] = "a"
        context[SkipRetry.self] = nil  // a hole inline
        #expect(context[Tag.self] == "a", "a value stored past a hole is still found")
        context[Priority.self] = 1  // fills the hole
        context[Tag.self] = "b"
        context[Timeout.self] = nil
        #expect(context[SkipRetry.self] == nil)
        #expect(context[Timeout.self] == nil)
        #expect(context[Tag.self] == "b")
        #expect(context[Priority.self] == 1)
        #expect(context.count == 2)
    }

    @Test("A context is a value: a copy changed in one layer leaves the original as it was")
    func contextIsAValue() {
        var original = HTTPRequestContext()
        original[Tag.self] = "outer"
        var copy = original
        copy[Tag.self] = "inner"
        #expect(original[Tag.self] == "outer")
        #expect(copy[Tag.self] == "inner")
    }
}
