import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

/// A pipeline whose block holds a layer that binds when built (as the plugins do) is bound layer
/// by layer, and behaves as the same block composed: the same layers, in the same order, each call
/// included.
@Suite struct PipelineBindingTests {
    /// `Trail`, marked as the plugins are.
    struct BindingTrail: HTTPMiddleware, BindsWhenBuilt {
        let trail: Trail
        var name: String { trail.name }

        init(tag: String) { trail = Trail(tag: tag) }

        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            try await trail.intercept(request, next: next)
        }
    }

    @Test(arguments: [true, false])
    func aBlockBoundLayerByLayerRunsTheSameLayersInTheSameOrderAsTheComposedBlock(branch: Bool) async throws {
        let absent: Trail? = nil
        let present: Trail? = Trail(tag: "present")
        let boundAbsent: BindingTrail? = nil
        let dynamic: [any HTTPMiddleware] = [Trail(tag: "dyn1"), Trail(tag: "dyn2")]
        let composedTransport = ScriptedTransport(respond: { _ in .ok("body") })
        let boundTransport = ScriptedTransport(respond: { _ in .ok("body") })
        let composed = Pipeline(transport: composedTransport) {
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
            for layer in ["dyn1", "dyn2"] { Trail(tag: layer) }
            Trail(tag: "Z")
        }
        let bound = Pipeline(transport: boundTransport) {
            BindingTrail(tag: "A")
            boundAbsent
            absent
            present
            if branch {
                Trail(tag: "first")
            } else {
                Trail(tag: "second")
                BindingTrail(tag: "third")
            }
            for tag in ["1", "2"] { BindingTrail(tag: tag) }
            MiddlewareStack(dynamic)
            Trail(tag: "Z")
        }
        #expect(!bindsWhenBuilt(type(of: composed.middleware)))
        #expect(bindsWhenBuilt(type(of: bound.middleware)))

        let expected = try await composed.send(request()).bytes().text
        #expect(
            expected
                == (branch ? "body<Z<dyn2<dyn1<2<1<first<present<A" : "body<Z<dyn2<dyn1<2<1<third<second<present<A"))
        #expect(try await bound.send(request()).bytes().text == expected)
        let erased: any HTTPTransport = bound
        #expect(try await erased.send(request()).bytes().text == expected)
        let trail = branch ? "A,present,first,1,2,dyn1,dyn2,Z" : "A,present,second,third,1,2,dyn1,dyn2,Z"
        #expect(composedTransport.requests.map { $0.fields["X-Trail"] } == [trail])
        #expect(boundTransport.requests.map { $0.fields["X-Trail"] } == [trail, trail])
        #expect(bound.layerNames == composed.layerNames)
    }

    /// One of the user's own layers that counts how often it is bound.
    struct BindCounter: HTTPMiddleware, BindsWhenBuilt {
        let count = Locked(0)
        var name: String { "BindCounter" }

        func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
            try await next(request)
        }

        // Package machinery, not for users: here only to see whether the pipeline binds it. It
        // says it composes, as a user's own layer does.
        static var bindsWhenBuilt: Bool { false }

        func bound(to next: @escaping HTTPNext) -> HTTPNext {
            count.withLock { $0 += 1 }
            return { request in try await intercept(request, next: next) }
        }
    }

    @Test func aBlockHoldingAPluginIsBoundAndABlockOfOnlyTheUsersOwnLayersIsComposed() async throws {
        let transport = ScriptedTransport(respond: { _ in .ok("body") })
        let own = BindCounter()
        let composed = Pipeline(transport: transport) {
            own
            Trail(tag: "mine")
        }
        #expect(!bindsWhenBuilt(type(of: composed.middleware)))
        #expect(try await composed.send(request()).bytes().text == "body<mine")
        #expect(own.count.withLock { $0 } == 0)

        let before = BindCounter()
        let after = BindCounter()
        let bound = Pipeline(transport: transport) {
            before
            Trail(tag: "mine")
            BindingTrail(tag: "plugin")
            after
        }
        #expect(bindsWhenBuilt(type(of: bound.middleware)))
        #expect(try await bound.send(request()).bytes().text == "body<plugin<mine")
        // The plugin and the layer after it are bound one by one; the run of the user's own
        // layers before it is one composed closure, never bound layer by layer.
        #expect(after.count.withLock { $0 } == 1)
        #expect(before.count.withLock { $0 } == 0)
    }

    @Test func aBoundLayerThatCallsNextTwiceRunsTheLayersBelowItTwice() async throws {
        let transport = ScriptedTransport(respond: { _ in .ok("body") })
        let log = OrderLog()
        let pipeline = Pipeline(transport: transport) {
            BindingTrail(tag: "bound")
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
        let absent: BindingTrail? = nil
        let pipeline = Pipeline(transport: transport) {
            absent
            if false { BindingTrail(tag: "never") }
        }
        #expect(bindsWhenBuilt(type(of: pipeline.middleware)))
        #expect(try await pipeline.send(request()).bytes().text == "body")
        #expect(transport.requests.first?.fields["X-Trail"] == nil)
        #expect(pipeline.layerNames.isEmpty)
    }
}
