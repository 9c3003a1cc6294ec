import Foundation
import HTTPPipeline
import HTTPPipelineTesting

/// Two clients of the e2e bench side by side, finer than its rounds: sequential requests in
/// blocks (of 20 by default) taken in turn (the order turned around every block), so that a slow phase of the
/// machine falls on both; for telling apart costs of a percent or two, with `--e2e-requests` in
/// the thousands (`--e2e-ab bare,pipeline --e2e-requests 8000`).
extension EndToEndBench {
    /// The clients `--e2e-ab` takes: the e2e bench's six, and `bare-one-field`, the bare
    /// `URLSessionTransport` sending one field (`Authorization`) where `bare-headers` sends three.
    static let pairable = [
        "bare", "bare-headers", "bare-one-field", "pipeline", "curl", "curl-headers", "curl-pipeline",
    ]

    /// `second`'s rate over `first`'s (all requests' time, and the median over pairs of blocks),
    /// against the loopback server, or nginx when given.
    static func pair(
        _ first: String, _ second: String, block: Int, nginx: URL?, requests: Int, failed: inout Bool
    ) async -> [(
        String, Double
    )] {
        do {
            let (server, url) = try target(nginx: nginx)
            defer { server.stop() }
            let plain = HTTPRequest(url: url)
            let clients = try clients()
            let (a, requestA) = try resolve(first, in: clients, plain)
            let (b, requestB) = try resolve(second, in: clients, plain)
            _ = try await run(a, requestA, requests: 200, tasks: 1)
            _ = try await run(b, requestB, requests: 200, tasks: 1)
            var secondsA = 0.0
            var secondsB = 0.0
            var ratios: [Double] = []
            let blocks = max(requests / block, 1)
            for index in 0..<blocks {
                var rates: (a: Double, b: Double) = (0, 0)
                if index.isMultiple(of: 2) {
                    rates.a = try await run(a, requestA, requests: block, tasks: 1)
                    rates.b = try await run(b, requestB, requests: block, tasks: 1)
                } else {
                    rates.b = try await run(b, requestB, requests: block, tasks: 1)
                    rates.a = try await run(a, requestA, requests: block, tasks: 1)
                }
                secondsA += Double(block) / rates.a
                secondsB += Double(block) / rates.b
                ratios.append(rates.b / rates.a)
            }
            let key = "e2e_ab_\(first)_\(second)".replacingOccurrences(of: "-", with: "_")
            let count = Double(blocks * block)
            return [
                ("\(key)_first_rps", count / secondsA), ("\(key)_second_rps", count / secondsB),
                ("\(key)_ratio", secondsA / secondsB), ("\(key)_block_median_ratio", median(ratios)),
            ]
        } catch {
            FileHandle.standardError.write(Data("e2e-ab \(first),\(second): \(error)\n".utf8))
            failed = true
            return []
        }
    }
}
