import Dispatch
import Foundation
import SpikeCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// spike VARIANT N: 100 warm-up requests, then N measured ones. Run under callgrind with N and 2N;
// (instructions(2N) - instructions(N)) / N is one request. `main` is synchronous (valgrind 3.19
// crashes on an async main), as in pipeline-bench.

let url = URL(string: "https://api.example.com/v1/items?page=2")!
let body = Data("ok".utf8)
let responseFields = [
    "Content-Type": "application/json", "Content-Encoding": "gzip", "Content-Length": "931",
    "Date": "Mon, 30 Nov 2026 10:00:00 GMT", "Cache-Control": "no-cache",
]
let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: responseFields)!
let urlRequest: URLRequest = {
    var r = URLRequest(url: url)
    r.setValue("application/json", forHTTPHeaderField: "Accept")
    r.setValue("spike/1.0", forHTTPHeaderField: "User-Agent")
    return r
}()
let head5 = HTTPRequestHead(
    method: .get, url: url,
    fields: [
        "Accept": "application/json", "User-Agent": "spike/1.0", "X-Trace-ID": "4bf92f3577b34da6",
        "X-Client": "spike/1", "Accept-Encoding": "gzip",
    ])
let head = HTTPRequestHead(method: .get, url: url, fields: ["Accept": "application/json", "User-Agent": "spike/1.0"])

// The same five layers in every family: set, pass, set, strip (gzip-like), set.
let h1 = ("X-Trace-ID", "4bf92f3577b34da6")
let h2 = ("X-Client", "spike/1")
let h3 = ("Accept-Encoding", "gzip")
let strip = "Content-Encoding"

func measure(_ n: Int, _ one: () async throws -> Int) async -> Int {
    var total = 0
    for _ in 0..<100 { total &+= (try? await one()) ?? 0 }
    for _ in 0..<n { total &+= (try? await one()) ?? 0 }
    return total
}

func run(_ variant: String, _ n: Int) async -> Int {
    switch variant {
    case "url":
        let p = URLPipeline(
            URLPair(
                URLSetHeader(name: h1.0, value: h1.1),
                URLPair(
                    URLPass(),
                    URLPair(
                        URLSetHeader(name: h2.0, value: h2.1),
                        URLPair(URLStrip(name: strip), URLSetHeader(name: h3.0, value: h3.1))))),
            over: CannedURLTransport(body: body, response: response))
        return await measure(n) {
            let (d, r) = try await p.send(urlRequest)
            keep(r)
            return d.count
        }
    case "url-consuming":
        let p = URLPipelineConsuming(
            URLPairConsuming(
                URLSetHeaderC(name: h1.0, value: h1.1),
                URLPairConsuming(
                    URLPassC(),
                    URLPairConsuming(
                        URLSetHeaderC(name: h2.0, value: h2.1),
                        URLPairConsuming(URLStripC(name: strip), URLSetHeaderC(name: h3.0, value: h3.1))))),
            over: CannedURLTransport(body: body, response: response))
        return await measure(n) {
            let (d, r) = try await p.send(urlRequest)
            keep(r)
            return d.count
        }
    case "light":
        let p = HeadPipeline(
            HeadPair(
                HeadSetHeader(name: h1.0, value: h1.1),
                HeadPair(
                    HeadPass(),
                    HeadPair(
                        HeadSetHeader(name: h2.0, value: h2.1),
                        HeadPair(HeadStrip(name: strip), HeadSetHeader(name: h3.0, value: h3.1))))),
            over: ConvertingTransport(body: body, response: response))
        return await measure(n) {
            let (d, r) = try await p.send(head)
            keep(r)
            return d.count
        }
    case "light-chain-only":
        let p = HeadPipeline(
            HeadPair(
                HeadSetHeader(name: h1.0, value: h1.1),
                HeadPair(
                    HeadPass(),
                    HeadPair(
                        HeadSetHeader(name: h2.0, value: h2.1),
                        HeadPair(HeadStrip(name: strip), HeadSetHeader(name: h3.0, value: h3.1))))),
            over: LightTransport(body: body, head: HTTPResponseHead(response)))
        return await measure(n) {
            let (d, r) = try await p.send(head)
            keep(r)
            return d.count
        }

    // The caller builds its request inside the loop, as every real call does.
    case "url-e2e":
        let p = URLPipeline(
            URLPair(
                URLSetHeader(name: h1.0, value: h1.1),
                URLPair(
                    URLPass(),
                    URLPair(
                        URLSetHeader(name: h2.0, value: h2.1),
                        URLPair(URLStrip(name: strip), URLSetHeader(name: h3.0, value: h3.1))))),
            over: CannedURLTransport(body: body, response: response))
        return await measure(n) {
            var request = URLRequest(url: url)
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            request.setValue("spike/1.0", forHTTPHeaderField: "User-Agent")
            let (d, r) = try await p.send(request)
            keep(r)
            return d.count
        }
    case "light-e2e":
        let p = HeadPipeline(
            HeadPair(
                HeadSetHeader(name: h1.0, value: h1.1),
                HeadPair(
                    HeadPass(),
                    HeadPair(
                        HeadSetHeader(name: h2.0, value: h2.1),
                        HeadPair(HeadStrip(name: strip), HeadSetHeader(name: h3.0, value: h3.1))))),
            over: ConvertingTransport(body: body, response: response))
        return await measure(n) {
            let request = HTTPRequestHead(
                method: .get, url: url, fields: ["Accept": "application/json", "User-Agent": "spike/1.0"])
            let (d, r) = try await p.send(request)
            keep(r)
            return d.count
        }
    case "light-consuming-e2e":
        let p = HeadPipelineConsuming(
            HeadPairConsuming(
                HeadSetHeaderC(name: h1.0, value: h1.1),
                HeadPairConsuming(
                    HeadPassC(),
                    HeadPairConsuming(
                        HeadSetHeaderC(name: h2.0, value: h2.1),
                        HeadPairConsuming(HeadStripC(name: strip), HeadSetHeaderC(name: h3.0, value: h3.1))))),
            over: ConvertingTransportC(body: body, response: response))
        return await measure(n) {
            let request = HTTPRequestHead(
                method: .get, url: url, fields: ["Accept": "application/json", "User-Agent": "spike/1.0"])
            let (d, r) = try await p.send(request)
            keep(r)
            return d.count
        }

    // Five pass-through layers: no head changes at all.
    case "url-pass5":
        let p = URLPipeline(
            URLPair(URLPass(), URLPair(URLPass(), URLPair(URLPass(), URLPair(URLPass(), URLPass())))),
            over: CannedURLTransport(body: body, response: response))
        return await measure(n) {
            let (d, r) = try await p.send(urlRequest)
            keep(r)
            return d.count
        }
    case "light-pass5":
        let p = HeadPipeline(
            HeadPair(HeadPass(), HeadPair(HeadPass(), HeadPair(HeadPass(), HeadPair(HeadPass(), HeadPass())))),
            over: ConvertingTransport(body: body, response: response))
        return await measure(n) {
            let (d, r) = try await p.send(head)
            keep(r)
            return d.count
        }

    // Light heads, converted at the bottom through one allHTTPHeaderFields assignment.
    case "light-dict":
        let p = HeadPipeline(
            HeadPair(
                HeadSetHeader(name: h1.0, value: h1.1),
                HeadPair(
                    HeadPass(),
                    HeadPair(
                        HeadSetHeader(name: h2.0, value: h2.1),
                        HeadPair(HeadStrip(name: strip), HeadSetHeader(name: h3.0, value: h3.1))))),
            over: DictConvertingTransport(body: body, response: response))
        return await measure(n) {
            let (d, r) = try await p.send(head)
            keep(r)
            return d.count
        }
    case "light-consuming-dict":
        let p = HeadPipelineConsuming(
            HeadPairConsuming(
                HeadSetHeaderC(name: h1.0, value: h1.1),
                HeadPairConsuming(
                    HeadPassC(),
                    HeadPairConsuming(
                        HeadSetHeaderC(name: h2.0, value: h2.1),
                        HeadPairConsuming(HeadStripC(name: strip), HeadSetHeaderC(name: h3.0, value: h3.1))))),
            over: DictConvertingTransportC(body: body, response: response))
        return await measure(n) {
            let (d, r) = try await p.send(head)
            keep(r)
            return d.count
        }
    case "light-borrowing-dict":
        let p = HeadPipelineBorrowing(
            HeadPairBorrowing(
                HeadSetHeaderB(name: h1.0, value: h1.1),
                HeadPairBorrowing(
                    HeadPassB(),
                    HeadPairBorrowing(
                        HeadSetHeaderB(name: h2.0, value: h2.1),
                        HeadPairBorrowing(HeadStripB(name: strip), HeadSetHeaderB(name: h3.0, value: h3.1))))),
            over: DictConvertingTransport(body: body, response: response))
        return await measure(n) {
            let (d, r) = try await p.send(head)
            keep(r)
            return d.count
        }
    case "light-e2e-dict":
        let p = HeadPipeline(
            HeadPair(
                HeadSetHeader(name: h1.0, value: h1.1),
                HeadPair(
                    HeadPass(),
                    HeadPair(
                        HeadSetHeader(name: h2.0, value: h2.1),
                        HeadPair(HeadStrip(name: strip), HeadSetHeader(name: h3.0, value: h3.1))))),
            over: DictConvertingTransport(body: body, response: response))
        return await measure(n) {
            let request = HTTPRequestHead(
                method: .get, url: url, fields: ["Accept": "application/json", "User-Agent": "spike/1.0"])
            let (d, r) = try await p.send(request)
            keep(r)
            return d.count
        }
    case "light-pass5-dict":
        let p = HeadPipeline(
            HeadPair(HeadPass(), HeadPair(HeadPass(), HeadPair(HeadPass(), HeadPair(HeadPass(), HeadPass())))),
            over: DictConvertingTransport(body: body, response: response))
        return await measure(n) {
            let (d, r) = try await p.send(head)
            keep(r)
            return d.count
        }
    case "url-e2e-pass5":
        let p = URLPipeline(
            URLPair(URLPass(), URLPair(URLPass(), URLPair(URLPass(), URLPair(URLPass(), URLPass())))),
            over: CannedURLTransport(body: body, response: response))
        return await measure(n) {
            var request = URLRequest(url: url)
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            request.setValue("spike/1.0", forHTTPHeaderField: "User-Agent")
            let (d, r) = try await p.send(request)
            keep(r)
            return d.count
        }
    case "light-e2e-pass5-dict":
        let p = HeadPipeline(
            HeadPair(HeadPass(), HeadPair(HeadPass(), HeadPair(HeadPass(), HeadPair(HeadPass(), HeadPass())))),
            over: DictConvertingTransport(body: body, response: response))
        return await measure(n) {
            let request = HTTPRequestHead(
                method: .get, url: url, fields: ["Accept": "application/json", "User-Agent": "spike/1.0"])
            let (d, r) = try await p.send(request)
            keep(r)
            return d.count
        }
    case "piece-url-set-unique":
        return await measure(n) {
            var r = URLRequest(url: url)
            r.setValue(h1.1, forHTTPHeaderField: h1.0)
            hand(r)
            return 1
        }
    case "piece-url-init":
        return await measure(n) {
            hand(URLRequest(url: url))
            return 1
        }
    case "piece-to-urlrequest-dict-core":
        return await measure(n) {
            hand(URLRequest(dictionaryFrom: head5))
            return 1
        }

    // Per-hop cost of `next`: five pass-through layers over an in-memory light transport.
    case "hop-plain":
        let p = HeadPipeline(
            HeadPair(HeadPass(), HeadPair(HeadPass(), HeadPair(HeadPass(), HeadPair(HeadPass(), HeadPass())))),
            over: LightTransport(body: body, head: HTTPResponseHead(response)))
        return await measure(n) {
            let (d, r) = try await p.send(head)
            keep(r)
            return d.count
        }
    case "hop-sendable":
        let p = SendablePipeline(
            SendablePair(SPass(), SendablePair(SPass(), SendablePair(SPass(), SendablePair(SPass(), SPass())))),
            over: LightTransport(body: body, head: HTTPResponseHead(response)))
        return await measure(n) {
            let (d, r) = try await p.send(head)
            keep(r)
            return d.count
        }
    case "hop-sendable-race":
        let p = SendablePipeline(
            SendablePair(
                SPass(),
                SendablePair(SRace(timeout: .seconds(30)), SendablePair(SPass(), SendablePair(SPass(), SPass())))),
            over: LightTransport(body: body, head: HTTPResponseHead(response)))
        return await measure(n) {
            let (d, r) = try await p.send(head)
            keep(r)
            return d.count
        }
    case "hop-sendable-race-dispatch":
        let p = SendablePipeline(
            SendablePair(
                SPass(), SendablePair(SRaceDispatch(seconds: 30), SendablePair(SPass(), SendablePair(SPass(), SPass())))
            ),
            over: LightTransport(body: body, head: HTTPResponseHead(response)))
        return await measure(n) {
            let (d, r) = try await p.send(head)
            keep(r)
            return d.count
        }
    case "hop-sendable-group1":
        let p = SendablePipeline(
            SendablePair(SPass(), SendablePair(SGroup1(), SendablePair(SPass(), SendablePair(SPass(), SPass())))),
            over: LightTransport(body: body, head: HTTPResponseHead(response)))
        return await measure(n) {
            let (d, r) = try await p.send(head)
            keep(r)
            return d.count
        }

    // The pieces, one at a time.
    case "piece-url-copy-set":
        return await measure(n) {
            var r = urlRequest
            r.setValue(h1.1, forHTTPHeaderField: h1.0)
            hand(r)
            return 1
        }
    case "piece-url-build":
        return await measure(n) {
            var r = URLRequest(url: url)
            r.setValue("application/json", forHTTPHeaderField: "Accept")
            r.setValue("spike/1.0", forHTTPHeaderField: "User-Agent")
            hand(r)
            return 1
        }
    case "piece-rebuild":
        return await measure(n) {
            keep(rebuild(response, removing: strip, fallbackURL: url))
            return 1
        }
    case "piece-fields-copy-set":
        return await measure(n) {
            var h = head
            h.fields[h1.0] = h1.1
            keep(HTTPResponseHead(status: 0, fields: h.fields))
            return 1
        }
    case "piece-head-build":
        return await measure(n) {
            let h = HTTPRequestHead(
                method: .get, url: url, fields: ["Accept": "application/json", "User-Agent": "spike/1.0"])
            keep(HTTPResponseHead(status: 0, fields: h.fields))
            return 1
        }
    case "piece-to-urlrequest":
        return await measure(n) {
            hand(URLRequest(head5))
            return 1
        }
    case "piece-to-urlrequest-dict":
        return await measure(n) {
            var r = URLRequest(url: head5.url)
            r.httpMethod = head5.method.rawValue
            var d = [String: String](minimumCapacity: head5.fields.count)
            for f in head5.fields { d[f.name] = d[f.name].map { $0 + "," + f.value } ?? f.value }
            r.allHTTPHeaderFields = d
            hand(r)
            return 1
        }
    case "piece-from-response":
        return await measure(n) {
            keep(HTTPResponseHead(response))
            return 1
        }
    case "piece-from-response-cast":
        return await measure(n) {
            let all = response.allHeaderFields as? [String: String] ?? [:]
            keep(
                HTTPResponseHead(
                    status: response.statusCode,
                    fields: HTTPFields(all.map { HTTPField(name: $0.key, value: $0.value) })))
            return 1
        }
    case "light-borrowing":
        let p = HeadPipelineBorrowing(
            HeadPairBorrowing(
                HeadSetHeaderB(name: h1.0, value: h1.1),
                HeadPairBorrowing(
                    HeadPassB(),
                    HeadPairBorrowing(
                        HeadSetHeaderB(name: h2.0, value: h2.1),
                        HeadPairBorrowing(HeadStripB(name: strip), HeadSetHeaderB(name: h3.0, value: h3.1))))),
            over: ConvertingTransport(body: body, response: response))
        return await measure(n) {
            let (d, r) = try await p.send(head)
            keep(r)
            return d.count
        }
    case "light-consuming":
        let p = HeadPipelineConsuming(
            HeadPairConsuming(
                HeadSetHeaderC(name: h1.0, value: h1.1),
                HeadPairConsuming(
                    HeadPassC(),
                    HeadPairConsuming(
                        HeadSetHeaderC(name: h2.0, value: h2.1),
                        HeadPairConsuming(HeadStripC(name: strip), HeadSetHeaderC(name: h3.0, value: h3.1))))),
            over: ConvertingTransportC(body: body, response: response))
        return await measure(n) {
            let (d, r) = try await p.send(head)
            keep(r)
            return d.count
        }
    case "sendable-plain":
        let p = SendablePipeline(
            SendablePair(
                SSetHeader(name: h1.0, value: h1.1),
                SendablePair(
                    SPass(),
                    SendablePair(
                        SSetHeader(name: h2.0, value: h2.1),
                        SendablePair(SStrip(name: strip), SSetHeader(name: h3.0, value: h3.1))))),
            over: ConvertingTransport(body: body, response: response))
        return await measure(n) {
            let (d, r) = try await p.send(head)
            keep(r)
            return d.count
        }
    case "sendable-race":
        let p = SendablePipeline(
            SendablePair(
                SSetHeader(name: h1.0, value: h1.1),
                SendablePair(
                    SRace(timeout: .seconds(30)),
                    SendablePair(
                        SSetHeader(name: h2.0, value: h2.1),
                        SendablePair(SStrip(name: strip), SSetHeader(name: h3.0, value: h3.1))))),
            over: ConvertingTransport(body: body, response: response))
        return await measure(n) {
            let (d, r) = try await p.send(head)
            keep(r)
            return d.count
        }
    case "sendable-group1":
        let p = SendablePipeline(
            SendablePair(
                SSetHeader(name: h1.0, value: h1.1),
                SendablePair(
                    SGroup1(),
                    SendablePair(
                        SSetHeader(name: h2.0, value: h2.1),
                        SendablePair(SStrip(name: strip), SSetHeader(name: h3.0, value: h3.1))))),
            over: ConvertingTransport(body: body, response: response))
        return await measure(n) {
            let (d, r) = try await p.send(head)
            keep(r)
            return d.count
        }
    case "ctx-dict-carry": return await contextChain(DictionaryContext.self, use: false, n)
    case "ctx-dict": return await contextChain(DictionaryContext.self, use: true, n)
    case "ctx-array-carry": return await contextChain(ArrayContext.self, use: false, n)
    case "ctx-array": return await contextChain(ArrayContext.self, use: true, n)
    case "ctx-inline-carry": return await contextChain(InlineContext.self, use: false, n)
    case "ctx-inline": return await contextChain(InlineContext.self, use: true, n)
    case "micro-dict": return await microContext(DictionaryContext.self, n)
    case "micro-array": return await microContext(ArrayContext.self, n)
    case "micro-inline": return await microContext(InlineContext.self, n)
    case "micro-empty":
        return await measure(n) {
            keepInt(1)
            return 1
        }
    default:
        fatalError("unknown variant \(variant)")
    }
}

func contextChain<C: ContextStorage>(_: C.Type, use: Bool, _ n: Int) async -> Int {
    let p = ContextPipeline<C>(
        ContextPair(
            CSetHeader<C>(name: h1.0, value: h1.1, setsKey: use),
            ContextPair(
                CPass<C>(),
                ContextPair(
                    CSetHeader<C>(name: h2.0, value: h2.1, setsKey: false),
                    ContextPair(
                        CStrip<C>(name: strip, getsKey: use), CSetHeader<C>(name: h3.0, value: h3.1, setsKey: false))))),
        over: ContextConvertingTransport(body: body, response: response))
    let request = HTTPRequest(head: head, context: C())
    return await measure(n) {
        let (d, r) = try await p.send(request)
        keep(r)
        return d.count
    }
}

/// One empty context, one set, one get, per iteration, outside any chain.
func microContext<C: ContextStorage>(_: C.Type, _ n: Int) async -> Int {
    await measure(n) {
        var c = C()
        c[RetryOverrideKey.self] = RetryOverride(maxAttempts: 3, enabled: true)
        keepInt(c[RetryOverrideKey.self]?.maxAttempts ?? -1)
        return 1
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let n = Int(arguments[2]) else {
    print("usage: spike VARIANT N")
    exit(2)
}
let done = DispatchSemaphore(value: 0)
Task.detached {
    let total = await run(arguments[1], n)
    print(arguments[1], n, total)
    done.signal()
}
done.wait()
