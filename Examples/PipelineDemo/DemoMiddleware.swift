import HTTPPipeline

/// Stamps every request with a request ID and a client name, so the server (and any layer
/// inside this one) can tell requests apart.
struct HeaderStamp: HTTPMiddleware {
    let client: String
    let report: Report

    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        report.saw(name, .request, request)
        var stamped = request
        stamped.fields["X-Request-ID"] = report.nextRequestID()
        stamped.fields["X-Client"] = client
        let response = try await next(stamped)
        report.saw(name, .response(response.status.code, response.body.length), request)
        return response
    }
}

/// Measures how long the rest of the pipeline takes and notes it in the report, with the request
/// ID it saw (if any layer outside it stamped one).
struct TimingLog: HTTPMiddleware {
    let report: Report

    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        report.saw(name, .request, request)
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let response = try await next(request)
            report.saw(
                name, .response(response.status.code, response.body.length), request,
                took: start.duration(to: clock.now))
            return response
        } catch {
            report.saw(name, .failure(error), request, took: start.duration(to: clock.now))
            throw error
        }
    }
}
