import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineTesting
import HTTPPipelineURLSession

/// 1 GiB from the loopback server written to a file with `HTTPBody.write(to:limit:)`, over each
/// transport, side by side in one run: speed, and how far resident memory rises while it
/// downloads.
///
/// Keys: `file_download_curl_mib_per_s`, `file_download_urlsession_mib_per_s`,
/// `file_download_curl_over_urlsession` (URLSession's time / curl's), and
/// `file_download_{curl,urlsession}_rss_growth_mb` (peak growth over the resident size just
/// before, as ``StreamBench`` measures it; Linux only). Each transport is held to the memory its
/// documentation promises: `CurlTransport`'s stays flat (at most ``curlTargetMegabytes``);
/// `URLSessionTransport`'s documentation says FoundationNetworking keeps about 26 MB a GiB until
/// the transfer ends, so its growth is reported and held to nothing.
enum FileDownloadBench {
    /// The most resident growth `CurlTransport`'s download may add.
    static let curlTargetMegabytes = 16.0
    /// The download's size.
    static let bytes = 1 << 30

    /// The figures; prints what went wrong to standard error and sets `failed`.
    static func measurements(rounds: Int, failed: inout Bool) async -> [(String, Double)] {
        let server = LoopbackServer()
        server.route("GET", "/file", .init(body: .repeated(Data(count: 64 << 10), count: bytes / (64 << 10))))
        server.route("GET", "/small", .init(body: Data("small".utf8)))
        do {
            try server.start()
        } catch {
            report("the loopback server did not start: \(error)", failed: &failed)
            return []
        }
        defer { server.stop() }
        let destination = FileManager.default.temporaryDirectory
            .appendingPathComponent("pipeline-bench-\(ProcessInfo.processInfo.processIdentifier).download")
        defer { try? FileManager.default.removeItem(at: destination) }
        let transports: [(String, any HTTPTransport)] = [
            ("curl", CurlTransport(configuration: .default)), ("urlsession", URLSessionTransport()),
        ]
        var entries: [(String, Double)] = []
        var seconds: [String: [Double]] = [:]
        do {
            for (name, transport) in transports {
                // The first request sets up the session or engine and the connection: not measured.
                _ = try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("small"))).body
                    .collect(upTo: 1 << 10)
                if let growth = try await StreamBench.residentGrowth({ _ in
                    try await download(transport, server, to: destination)
                }) {
                    entries.append(("file_download_\(name)_rss_growth_mb", growth))
                    if name == "curl", growth > curlTargetMegabytes {
                        report(
                            "curl: resident memory grew \(growth) MB, more than \(curlTargetMegabytes) MB",
                            failed: &failed)
                    }
                }
            }
            for round in 0..<rounds {
                for (name, transport) in round.isMultiple(of: 2) ? transports : transports.reversed() {
                    seconds[name, default: []].append(try await download(transport, server, to: destination))
                }
            }
        } catch {
            report("\(error)", failed: &failed)
            return entries
        }
        let curl = StreamBench.median(seconds["curl"] ?? [])
        let urlSession = StreamBench.median(seconds["urlsession"] ?? [])
        let mebibytes = Double(bytes >> 20)
        entries += [
            ("file_download_curl_mib_per_s", mebibytes / max(curl, 1e-9)),
            ("file_download_urlsession_mib_per_s", mebibytes / max(urlSession, 1e-9)),
            ("file_download_curl_over_urlsession", urlSession / max(curl, 1e-9)),
        ]
        return entries
    }

    /// Downloads the file once; returns the seconds it took.
    private static func download(
        _ transport: any HTTPTransport, _ server: LoopbackServer, to destination: URL
    ) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await transport.send(HTTPRequest(url: server.baseURL.appendingPathComponent("file")))
        let written = try await response.body.write(to: destination)
        let seconds = start.duration(to: clock.now).seconds
        guard written == bytes else { throw FileDownloadError(written: written) }
        try FileManager.default.removeItem(at: destination)
        return seconds
    }

    private static func report(_ message: String, failed: inout Bool) {
        failed = true
        FileHandle.standardError.write(Data("file download: \(message)\n".utf8))
    }

    struct FileDownloadError: Error, CustomStringConvertible {
        let written: Int
        var description: String { "\(written) bytes written of \(FileDownloadBench.bytes)" }
    }
}
