import Foundation
import HTTPPipeline

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stamps every request with a request ID and a client name, so the server (and any layer
/// inside this one) can tell requests apart.
struct HeaderStamp: HTTPMiddleware {
    let client: String
    let report: Report

    func intercept(_ request: URLRequest, next: HTTPNext) async throws -> (Data, HTTPURLResponse) {
        report.saw(name, .request, request)
        var stamped = request
        stamped.setValue(report.nextRequestID(), forHTTPHeaderField: "X-Request-ID")
        stamped.setValue(client, forHTTPHeaderField: "X-Client")
        let (data, response) = try await next(stamped)
        report.saw(name, .response(response.statusCode, data.count), request)
        return (data, response)
    }
}

/// Measures how long the rest of the pipeline takes and notes it in the report, with the request
/// ID it saw (if any layer outside it stamped one).
struct TimingLog: HTTPMiddleware {
    let report: Report

    func intercept(_ request: URLRequest, next: HTTPNext) async throws -> (Data, HTTPURLResponse) {
        report.saw(name, .request, request)
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let (data, response) = try await next(request)
            report.saw(name, .response(response.statusCode, data.count), request, took: start.duration(to: clock.now))
            return (data, response)
        } catch {
            report.saw(name, .failure(error), request, took: start.duration(to: clock.now))
            throw error
        }
    }
}
