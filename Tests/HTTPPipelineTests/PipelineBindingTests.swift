import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

/// A pipeline whose block is bound layer by layer (what `StandardPipeline` builds) behaves as the
/// same block composed: the same layers, in the same order, each call included.
@Suite struct PipelineBindingTests {
    @Test(arguments: [true, false])
    func aBlockBoundLayerByLayerRunsTheSameLayersInTheSameOrderAsTheComposedBlock(branch: Bool) async throws {
        let absent: Trail? = nil
        let present: Trail? = Trail(tag: "present")
        let dynamic: [any HTTPMiddleware] = [Trail(tag: "dyn1"), Trail(tag: "dyn2")]
        @MiddlewareBuilder func block() -> some HTTPMiddleware {
            Trail(tag: "A")
            absent
            present
            if branch {
                Trail(tag: "first")
            } else {
                Trail(tag: "second")
                Trail(tag: "third")
            }
            for tag in ["1", "2"] { Trail(tag: tag) }
            MiddlewareStack(dynamic)
            Trail(tag: "Z")
        }
        let composedTransport = ScriptedTransport(respond: { _ in .ok("body") })
        let boundTransport = ScriptedTransport(respond: { _ in .ok("body") })
        let composed = Pipeline(transport: composedTransport) { block() }
        let bound = Pipeline(bindingEachLayerOver: boundTransport) { block() }

        let expected = try await composed.send(request()).bytes().text
        #expect(try await bound.send(request()).bytes().text == expected)
        let erased: any HTTPTransport = bound
        #expect(try await erased.send(request()).bytes().text == expected)
        let trails = boundTransport.requests.map { $0.fields["X-Trail"] }
        #expect(trails == [composedTransport.requests.first?.fields["X-Trail"], trails.first])
        #expect(trails.first == (branch ? "A,present,first,1,2,dyn1,dyn2,Z" : "A,present,second,third,1,2,dyn1,dyn2,Z"))
        #expect(bound.layerNames == composed.layerNames)
    }

    @Test func aBoundLayerThatCallsNextTwiceRunsTheLayersBelowItTwice() async throws {
        let transport = ScriptedTransport(respond: { _ in .ok("body") })
        let log = OrderLog()
        let pipeline = Pipeline(bindingEachLayerOver: transport) {
            OrderProbe("outer", log: log)
            CallsTwice()
            OrderProbe("inner", log: log)
        }
        _ = try await pipeline.send(request())
        #expect(log.description == "outer> inner> inner< inner> inner< outer<")
        #expect(transport.requests.count == 2)
    }

    @Test func aBlockWithEveryLayerLeftOutBindsStraightToTheTransport() async throws {
        let transport = ScriptedTransport(respond: { _ in .ok("body") })
        let absent: Trail? = nil
        let pipeline = Pipeline(bindingEachLayerOver: transport) {
            absent
            if false { Trail(tag: "never") }
        }
        #expect(try await pipeline.send(request()).bytes().text == "body")
        #expect(transport.requests.first?.fields["X-Trail"] == nil)
        #expect(pipeline.layerNames.isEmpty)
    }
}
