import Foundation
import HTTPPipelineTracing
import Testing

/// W3C Trace Context Level 1: `traceparent` and `tracestate` read as the specification says,
/// with its examples and malformed values.
@Suite struct TraceContextTests {
    @Test(arguments: [
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00",
    ])
    func theSpecificationsExamplesAreRead(traceparent: String) throws {
        let context = try #require(TraceContext(traceparent: traceparent))
        #expect(context.traceparent == traceparent)
        #expect(context.isSampled == traceparent.hasSuffix("01"))
    }

    @Test(arguments: [
        "00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-01",  // uppercase
        "00-00000000000000000000000000000000-b7ad6b7169203331-01",  // trace id all zero
        "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",  // parent id all zero
        "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",  // version ff
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra",  // version 00 with more
        "00-0af7651916cd43dd8448eb211c80319-b7ad6b7169203331-01",  // short trace id
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b716920333-01",  // short parent id
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-1",  // short flags
        "00_0af7651916cd43dd8448eb211c80319c_b7ad6b7169203331_01",  // wrong separators
        "00-0af7651916cd43dd8448eb211c80319g-b7ad6b7169203331-01",  // not hex
        "0-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",  // short version
        "cc-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01x",  // future version, no dash
        "",
    ])
    func aMalformedTraceparentIsNotRead(traceparent: String) {
        #expect(TraceContext(traceparent: traceparent) == nil)
    }

    @Test func aLaterVersionIsReadByItsFirstFourFields() throws {
        let context = try #require(
            TraceContext(
                traceparent: "cc-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-03-what-the-future-will-be-like"))
        #expect(context.traceparent == "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
    }

    @Test(arguments: [
        ("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE", ["rojo=00f067aa0ba902b7", "congo=t61rcWkgMzE"]),
        ("rojo=00f067aa0ba902b7 , ,congo=t61rcWkgMzE", ["rojo=00f067aa0ba902b7", "congo=t61rcWkgMzE"]),
        ("fw529a3039@dt=CAESABoA,foo=bar", ["fw529a3039@dt=CAESABoA", "foo=bar"]),
        ("Rojo=1", []),  // uppercase key
        ("rojo=1,rojo=2", []),  // a key twice
        ("rojo=a=b", []),  // '=' in a value
        ("rojo", []),  // no value
        ("rojo=", []),  // an empty value
        ((0..<33).map { "k\($0)=v" }.joined(separator: ","), []),  // 33 members
    ])
    func tracestateIsKeptWhenWellFormedAndDroppedWhole(value: String, members: [String]) throws {
        let context = try #require(
            TraceContext(traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", tracestate: value))
        #expect(context.state == members)
    }

    @Test func aStartedTraceHasRandomNonZeroIdsAndAChildKeepsTheTrace() throws {
        let started = TraceContext.start(sampled: false)
        let child = started.child()

        #expect(TraceContext(traceparent: started.traceparent) == started)
        #expect(!started.isSampled)
        #expect(child.traceID == started.traceID && child.spanID != started.spanID)
        #expect(TraceContext.start().traceID != TraceContext.start().traceID)
    }
}
