import HTTPPipeline
import Testing

/// The response context: typed values a layer below tells the layers above about a response.
@Suite struct HTTPResponseContextTests {
    enum Mirror: HTTPContextKey {
        typealias Value = String
    }

    enum Hops: HTTPContextKey {
        typealias Value = Int
    }

    @Test func aResponseStartsWithAnEmptyContextAndKeepsEachValueUnderItsOwnKey() {
        var response = HTTPResponse(status: 200)
        #expect(response.context.count == 0)

        response.context[Mirror.self] = "eu-1"
        response.context[Hops.self] = 2
        response.context[Hops.self] = 3

        #expect(response.context[Mirror.self] == "eu-1")
        #expect(response.context[Hops.self] == 3)
        #expect(response.context.count == 2)
        response.context[Mirror.self] = nil
        #expect(response.context[Mirror.self] == nil)
        #expect(response.context.count == 1)
    }
}
