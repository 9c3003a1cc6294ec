import Foundation
import HTTPPipeline

extension TransportConformance.Check {
    /// The attempt's metrics: on the response, their times ordered and plausible.
    public static let transferMetricsOrdered = Self(
        "metrics.ordered",
        "The response carries the attempt's metrics: a head delayed 150 ms shows as time to first byte, the times are in order, the body's bytes are counted, and a kept-alive connection shows as reused.",
        requirement:
            "fill HTTPResponse.transferMetrics (HTTPResponseContext.transferRecord): at least the first and last byte's times, in order, final once the body has been read"
    ) { trial in
        let server = try trial.server {
            $0.route("GET", "/slow", .init(body: Data(count: 1_000), delay: .milliseconds(150)))
            $0.route("GET", "/again", .init(body: Data(count: 10)))
        }
        let transport = try trial.transport()
        let (response, _) = try await transport.exchange(HTTPRequest(.get, "/slow", on: server))
        let (again, _) = try await transport.exchange(HTTPRequest(.get, "/again", on: server))
        guard let metrics = response.transferMetrics, let firstByte = metrics.firstByte,
            let lastByte = metrics.lastByte
        else {
            throw TransportConformance.Broken(observed: "the response carried no first and last byte times")
        }
        try require(firstByte >= .milliseconds(140), "a head 150 ms late arrived at \(firstByte)")
        try require(lastByte >= firstByte && lastByte < .seconds(30), "the last byte at \(lastByte)")
        var previous: (phase: String, time: Duration)?
        for entry in metrics.orderedTimes {
            if let previous {
                try require(entry.time >= previous.time, "\(entry.phase) (\(entry.time)) before \(previous.phase)")
            }
            previous = entry
        }
        if let bytes = metrics.bodyBytesDecoded { try require(bytes == 1_000, "\(bytes) body bytes counted") }
        if let bytes = metrics.bodyBytesReceived { try require(bytes == 1_000, "\(bytes) body bytes received") }
        try require(again.transferMetrics?.reusedConnection != false, "the second request did not reuse the connection")
    }
}
