import Foundation
import HTTPPipeline
import HTTPPipelineGzip
import HTTPPipelineTesting
import Testing

/// The middleware's behaviour around the decoder: request headers, already-decoded bodies,
/// options, ordering and the contract.
@Suite struct GzipMiddlewareTests {
    @Test func gzipMiddlewareKeepsTheMiddlewareContract() async {
        // The middleware applies to every request (it adds Accept-Encoding) unless the caller
        // chose an encoding; a response without Content-Encoding passes through untouched.
        let passThrough = Support.request(headers: ["Accept-Encoding": "identity"])
        let report = await MiddlewareContract(passThroughRequest: passThrough).check(GzipMiddleware())
        #expect(report.violations.isEmpty, "\(report)")
        #expect(report.checked.count == MiddlewareContract.Rule.allCases.count)
    }

    @Test func acceptEncodingIsAddedWhenTheRequestHasNone() async throws {
        let transport = ScriptedTransport([.ok()])
        _ = try await Pipeline(transport: transport) { GzipMiddleware() }.send(Support.request())
        #expect(transport.requests.first?.fields["Accept-Encoding"] == "gzip, deflate")
    }

    @Test func aCallersOwnAcceptEncodingIsKeptAsIs() async throws {
        let transport = ScriptedTransport([.ok()])
        let request = Support.request(headers: ["Accept-Encoding": "br;q=1.0, gzip;q=0.5"])
        _ = try await Pipeline(transport: transport) { GzipMiddleware() }.send(request)
        #expect(transport.requests.first?.fields["Accept-Encoding"] == "br;q=1.0, gzip;q=0.5")
    }

    @Test func aResponseWithoutContentEncodingPassesThroughUntouched() async throws {
        let body = try Support.fixture("python-gzip.json.gz")
        let (data, response) = try await Support.send(
            body, headers: ["Content-Type": "application/json", "X-Kept": "1"])
        #expect(data == body)
        #expect(response.fields["X-Kept"] == "1")
        #expect(response.fields["Content-Length"] == nil)
    }

    @Test func anUndecodableDeflateBodyWhoseLengthMatchesIsAnError() async throws {
        let body = Data(#"{"id":1}"#.utf8)
        let error = await Support.gzipError(
            body, headers: ["Content-Encoding": "deflate", "Content-Length": String(body.count)])
        #expect(error != nil)
    }

    @Test func gzipDownloadsAreDecodedOnlyWhenOptedIn() async throws {
        let body = try Support.fixture("gnu-gzip-name.json.gz")
        let headers = ["Content-Type": "application/gzip"]
        let (untouched, _) = try await Support.send(body, headers: headers)
        #expect(untouched == body)
        let (decoded, response) = try await Support.send(
            body, headers: headers, options: .default.decodingGzipDownloads())
        #expect(decoded == (try Support.sample()))
        #expect(response.fields["Content-Type"] == "application/octet-stream")
        #expect(response.fields["Content-Length"] == String(decoded.count))
    }

    @Test func aGzipDownloadIsRecognisedInAnyCaseAndWithParametersAndOtherTypesAreNot() async throws {
        let body = try Support.fixture("gnu-gzip-name.json.gz")
        let options = GzipOptions.default.decodingGzipDownloads()
        for type in ["APPLICATION/X-GZIP; name=\"a.gz\"", " application/GZip ", "application/gzip;charset=binary"] {
            let (decoded, _) = try await Support.send(body, headers: ["Content-Type": type], options: options)
            #expect(decoded == (try Support.sample()), "\(type)")
        }
        for type in ["application/ggzip-not", "application/x-gzipped", "text/gzip", "application/octet-stream"] {
            let (untouched, response) = try await Support.send(body, headers: ["Content-Type": type], options: options)
            #expect(untouched == body, "\(type)")
            #expect(response.fields["Content-Type"] == type)
        }
    }

    @Test func aDownloadLabelledGzipThatIsNotGzipIsLeftAlone() async throws {
        let body = Data("not gzip at all".utf8)
        let options = GzipOptions.default.decodingGzipDownloads()
        let (data, response) = try await Support.send(
            body, headers: ["Content-Type": "application/x-gzip"], options: options)
        #expect(data == body)
        #expect(response.fields["Content-Type"] == "application/x-gzip")
    }

    @Test func largeRequestBodiesAreGzippedOnlyWhenOptedIn() async throws {
        let body = Support.generatedJSON(approximateSize: 8_000)
        let options = GzipOptions.default.compressingRequestBodies(largerThan: 1_024)
        let transport = ScriptedTransport([.ok(), .ok()])
        _ = try await Pipeline(transport: transport) { GzipMiddleware() }.send(Support.request(body: body))
        _ = try await Pipeline(transport: transport) { GzipMiddleware(options) }.send(Support.request(body: body))
        let (plain, compressed) = (transport.requests[0], transport.requests[1])
        #expect(plain.body?.bufferedData == body)
        #expect(plain.fields["Content-Encoding"] == nil)
        #expect(compressed.fields["Content-Encoding"] == "gzip")
        let sent = try #require(compressed.body?.bufferedData)
        #expect(sent.count < body.count)
        #expect(try GzipDecoder.decode(sent, as: .gzip) == body)
    }

    @Test func smallRequestBodiesAndBodiesWithAnEncodingAreNeverCompressed() async throws {
        let options = GzipOptions.default.compressingRequestBodies(largerThan: 1_024)
        let transport = ScriptedTransport([.ok(), .ok()])
        let pipeline = Pipeline(transport: transport) { GzipMiddleware(options) }
        let small = Data(repeating: 0x61, count: 1_024)
        let large = Data(repeating: 0x61, count: 10_000)
        _ = try await pipeline.send(Support.request(body: small))
        _ = try await pipeline.send(Support.request(headers: ["Content-Encoding": "br"], body: large))
        #expect(transport.requests[0].body?.bufferedData == small)
        #expect(transport.requests[1].body?.bufferedData == large)
        #expect(transport.requests[1].fields["Content-Encoding"] == "br")
    }

    @Test func loggingOutsideTheDecoderSeesDecodedBodiesAndInsideSeesWireBytes() async throws {
        let body = try Support.fixture("python-gzip.json.gz")
        let outside = BodyRecorder("outside")
        let inside = BodyRecorder("inside")
        let transport = ScriptedTransport([.status(200, headers: ["Content-Encoding": "gzip"], body: body)])
        let pipeline = Pipeline(transport: transport) {
            outside
            GzipMiddleware()
            inside
        }
        _ = try await pipeline.send(Support.request())
        let sample = try Support.sample()
        #expect(outside.seen.value.map(\.bytes) == [sample.count])
        #expect(outside.seen.value.map(\.encoding) == [nil])
        #expect(inside.seen.value.map(\.bytes) == [body.count])
        #expect(inside.seen.value.map(\.encoding) == ["gzip"])
    }

    @Test func optionsClampNonsenseToSafeValues() {
        let options = GzipOptions.default.limiting(decodedSize: -1, expansionRatio: 0).compressingRequestBodies(
            largerThan: -5)
        #expect(options.maximumDecodedSize == 0)
        #expect(options.maximumExpansionRatio == 1)
        #expect(options.requestCompressionThreshold == 0)
        #expect(GzipOptions.default.decodesGzipDownloads == false)
    }
}
