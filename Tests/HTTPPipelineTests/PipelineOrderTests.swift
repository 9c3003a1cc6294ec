import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

@Suite struct PipelineOrderTests {
    let transport = ScriptedTransport(respond: { _ in .ok("body") })

    @Test func firstListedMiddlewareSeesTheRequestFirstAndTheResponseLast() async throws {
        let pipeline = Pipeline(transport: transport) {
            Trail(tag: "A")
            Trail(tag: "B")
            Trail(tag: "C")
        }
        let data = try await pipeline.send(request()).bytes()
        #expect(transport.requests.first?.fields["X-Trail"] == "A,B,C")
        #expect(data.text == "body<C<B<A")
    }

    @Test func arrayFormKeepsTheSameOrderAsTheBuilder() async throws {
        let layers: [any HTTPMiddleware] = [Trail(tag: "A"), Trail(tag: "B"), Trail(tag: "C")]
        let pipeline = Pipeline(transport: transport, middleware: layers)
        let data = try await pipeline.send(request()).bytes()
        #expect(transport.requests.first?.fields["X-Trail"] == "A,B,C")
        #expect(data.text == "body<C<B<A")
    }

    @Test func emptyArraySendsStraightToTheTransport() async throws {
        let pipeline = Pipeline(transport: transport, middleware: [])
        let data = try await pipeline.send(request()).bytes()
        #expect(data.text == "body")
        #expect(transport.requests.first?.fields["X-Trail"] == nil)
    }

    @Test func emptyBlockSendsStraightToTheTransport() async throws {
        let pipeline = Pipeline(transport: transport) {}
        let data = try await pipeline.send(request()).bytes()
        #expect(data.text == "body")
        #expect(pipeline.description == "Pipeline(ScriptedTransport)")
    }

    @Test(arguments: [true, false])
    func ifWithoutElseAddsTheLayerOnlyWhenTrue(enabled: Bool) async throws {
        let pipeline = Pipeline(transport: transport) {
            Trail(tag: "A")
            if enabled { Trail(tag: "B") }
            Trail(tag: "C")
        }
        let data = try await pipeline.send(request()).bytes()
        #expect(data.text == (enabled ? "body<C<B<A" : "body<C<A"))
        #expect(pipeline.layerNames.count == (enabled ? 3 : 2))
    }

    @Test(arguments: [true, false])
    func ifElseChoosesOneBranchInPlace(useFirst: Bool) async throws {
        let pipeline = Pipeline(transport: transport) {
            Trail(tag: "A")
            if useFirst {
                Trail(tag: "first")
            } else {
                Trail(tag: "second")
                Trail(tag: "third")
            }
            Trail(tag: "Z")
        }
        let data = try await pipeline.send(request()).bytes()
        #expect(data.text == (useFirst ? "body<Z<first<A" : "body<Z<third<second<A"))
    }

    /// A block that is one `if`/`else` picks its branch when the pipeline is built, not per request.
    @Test(arguments: [true, false])
    func aBlockThatIsOneIfElseSendsThroughTheBranchChosenWhenBuilt(useFirst: Bool) async throws {
        let pipeline = Pipeline(transport: transport) {
            if useFirst {
                Trail(tag: "first")
            } else {
                Trail(tag: "second")
                Trail(tag: "third")
            }
        }
        let expected = useFirst ? "body<first" : "body<third<second"
        #expect(try await pipeline.send(request()).bytes().text == expected)
        let erased: any HTTPTransport = pipeline
        #expect(try await erased.send(request()).bytes().text == expected)
        #expect(pipeline.layerNames.count == (useFirst ? 1 : 2))
    }

    @Test func ifLetAndOptionalEntriesAreSkippedWhenNil() async throws {
        let present: Trail? = Trail(tag: "present")
        let absent: Trail? = nil
        let pipeline = Pipeline(transport: transport) {
            if let present { present }
            absent
            present
            Trail(tag: "last")
        }
        let data = try await pipeline.send(request()).bytes()
        #expect(data.text == "body<last<present<present")
        #expect(pipeline.layerNames == ["Trail(present)", "Trail(present)", "Trail(last)"])
    }

    @Test func forLoopAddsLayersInLoopOrder() async throws {
        let tags = ["1", "2", "3"]
        let pipeline = Pipeline(transport: transport) {
            Trail(tag: "A")
            for tag in tags { Trail(tag: tag) }
            Trail(tag: "Z")
        }
        let data = try await pipeline.send(request()).bytes()
        #expect(transport.requests.first?.fields["X-Trail"] == "A,1,2,3,Z")
        #expect(data.text == "body<Z<3<2<1<A")
    }

    @Test func runTimeStackMixesWithConcreteLayersInABlock() async throws {
        let dynamic: [any HTTPMiddleware] = [Trail(tag: "dyn1"), Trail(tag: "dyn2")]
        let pipeline = Pipeline(transport: transport) {
            Trail(tag: "A")
            MiddlewareStack(dynamic)
            Trail(tag: "Z")
        }
        let data = try await pipeline.send(request()).bytes()
        #expect(transport.requests.first?.fields["X-Trail"] == "A,dyn1,dyn2,Z")
        #expect(data.text == "body<Z<dyn2<dyn1<A")
        #expect(pipeline.layerNames == ["Trail(A)", "Trail(dyn1)", "Trail(dyn2)", "Trail(Z)"])
    }

    @Test func builderNestsConcreteTypesWithoutBoxingThemIntoExistentials() {
        let optional: Trail? = nil
        let pipeline = Pipeline(transport: transport) {
            Trail(tag: "A")
            ShortCircuit()
            optional
        }
        let type = String(describing: type(of: pipeline.middleware))
        #expect(type == "_MiddlewarePair<_MiddlewarePair<Trail, ShortCircuit>, _OptionalMiddleware<Trail>>")
    }

    @Test func probesRecordRequestsOutsideInAndResponsesInsideOut() async throws {
        let log = OrderLog()
        let pipeline = Pipeline(transport: transport) {
            OrderProbe("A", log: log)
            OrderProbe("B", log: log)
            OrderProbe("C", log: log)
        }
        _ = try await pipeline.send(request())
        #expect(log.description == "A> B> C> C< B< A<")
    }

    @Test func middlewareMayAnswerWithoutCallingNext() async throws {
        let log = OrderLog()
        let pipeline = Pipeline(transport: transport) {
            OrderProbe("outer", log: log)
            ShortCircuit()
            OrderProbe("inner", log: log)
        }
        let response = try await pipeline.send(request())
        #expect(response.status == 204)
        #expect(transport.requests.isEmpty)
        #expect(log.description == "outer> outer<")
    }

    @Test func middlewareMayCallNextManyTimesAndInnerLayersRunEachTime() async throws {
        let log = OrderLog()
        let pipeline = Pipeline(transport: transport) {
            OrderProbe("outer", log: log)
            CallsTwice()
            OrderProbe("inner", log: log)
        }
        _ = try await pipeline.send(request())
        #expect(log.count("outer") == 1)
        #expect(log.count("inner") == 2)
        #expect(log.events.filter { $0.layer == "inner" && $0.phase == .request }.map(\.visit) == [1, 2])
        #expect(transport.requests.count == 2)
    }

    @Test func pipelineNestsAsAnotherPipelinesTransport() async throws {
        let inner = Pipeline(transport: transport) { Trail(tag: "inner") }
        let outer = Pipeline(transport: inner) { Trail(tag: "outer") }
        let data = try await outer.send(request()).bytes()
        #expect(data.text == "body<inner<outer")
        #expect(outer.description == "Pipeline(Trail(outer) -> Pipeline(Trail(inner) -> ScriptedTransport))")
    }

    @Test func errorsFromTheTransportReachTheCallerThroughEveryLayer() async throws {
        let failing = ScriptedTransport([.failure(URLError(.notConnectedToInternet))])
        let log = OrderLog()
        let pipeline = Pipeline(transport: failing) {
            OrderProbe("A", log: log)
            OrderProbe("B", log: log)
        }
        await #expect(throws: URLError(.notConnectedToInternet)) { try await pipeline.send(request()) }
        #expect(log.description == "A> B> B! A!")
    }
}
