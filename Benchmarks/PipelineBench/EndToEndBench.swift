import Foundation
import HTTPPipeline
import HTTPPipelineCassette
import HTTPPipelineCurl
import HTTPPipelineHeaders
import HTTPPipelineLogging
import HTTPPipelineStandard
import HTTPPipelineTesting
import HTTPPipelineURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests per second over real sockets: the standard pipeline (headers, retry, auth, logging,
/// gzip) against the bare `URLSessionTransport` it wraps, and the same two over `CurlTransport`,
/// sequentially and with 8 tasks at once, against the project's loopback server and, when given,
/// an nginx on loopback. The URLSession clients share one `URLSession`, the curl clients one
/// engine, and all six (each bare transport also sending the three fields the stack adds) run
/// back to back in each round (in turned-around order every other round), so every ratio is
/// measured side by side.
enum EndToEndBench {
    /// The body both servers send: 931 bytes of JSON.
    static let body = Data(
        ("{\"books\":["
            + (0..<20).map { "{\"id\":\($0),\"title\":\"Book number \($0) of the soak\"}" }
            .joined(separator: ",") + "]}").utf8)

    static let concurrentTasks = 8

    struct Target {
        let name: String
        let url: URL
    }

    /// The loopback server serving the e2e body, started only when there is no nginx to send to,
    /// and the URL to send to; the caller stops the server.
    static func target(nginx: URL?) throws -> (server: LoopbackServer, url: URL) {
        let server = LoopbackServer()
        server.route("GET", "/e2e.json", .init(headers: [("Content-Type", "application/json")], body: body))
        if nginx == nil { try server.start() }
        return (server, (nginx ?? server.baseURL).appendingPathComponent("e2e.json"))
    }

    /// The client of that name (one of ``clients()``'s, or `bare-one-field`: the bare
    /// `URLSessionTransport` sending `Authorization` alone) and the request it is sent.
    static func resolve(
        _ name: String, in clients: [(name: String, client: any HTTPTransport, sendsFields: Bool)], _ plain: HTTPRequest
    ) throws -> (any HTTPTransport, HTTPRequest) {
        if name == "bare-one-field", let bare = clients.first(where: { $0.name == "bare" }) {
            var request = plain
            request.fields["Authorization"] = "Bearer bench-token"
            return (bare.client, request)
        }
        guard let found = clients.first(where: { $0.name == name }) else { throw UnknownClient(name: name) }
        return (found.client, found.sendsFields ? withPipelineHeaders(plain) : plain)
    }

    struct UnknownClient: Error, CustomStringConvertible {
        let name: String
        var description: String { "no client named \(name)" }
    }

    /// The figures for each target; `failed` is set when a request did not get the body back.
    static func measurements(
        nginx: URL?,
        requests: Int,
        rounds: Int,
        failed: inout Bool
    ) async -> [(String, Double)] {
        let server = LoopbackServer()
        do {
            try server.start()
        } catch {
            FileHandle.standardError.write(Data("e2e: the loopback server did not start: \(error)\n".utf8))
            failed = true
            return []
        }
        defer { server.stop() }
        server.route("GET", "/e2e.json", .init(headers: [("Content-Type", "application/json")], body: body))
        var targets = [Target(name: "loopback", url: server.baseURL.appendingPathComponent("e2e.json"))]
        if let nginx { targets.append(Target(name: "nginx", url: nginx.appendingPathComponent("e2e.json"))) }
        var entries: [(String, Double)] = []
        for target in targets {
            do {
                entries += try await measure(target, requests: requests, rounds: rounds)
            } catch {
                FileHandle.standardError.write(Data("e2e \(target.name): \(error)\n".utf8))
                failed = true
            }
        }
        return entries
    }

    /// The six clients: the bare `URLSessionTransport`, the same sending the three fields the
    /// standard stack adds, and the standard pipeline over it; then the same three over
    /// `CurlTransport`. `sendsFields` marks the bare clients whose request already holds the
    /// three fields. The pipeline is sent the plain request and its layers add the fields, so
    /// `pipeline` over `bare-headers` (the same bytes on the wire) is what the layers' own code
    /// costs, adding the fields included, and `bare-headers` over `bare` what the transport
    /// charges for sending them.
    static func clients() throws -> [(name: String, client: any HTTPTransport, sendsFields: Bool)] {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = concurrentTasks
        let bare = URLSessionTransport(session: URLSession(configuration: configuration))
        var curlConfiguration = CurlTransport.Configuration.default
        curlConfiguration.maximumConnectionsPerHost = concurrentTasks
        let curl = CurlTransport(configuration: curlConfiguration)
        return [
            ("bare", bare, false), ("bare-headers", bare, true), ("pipeline", try standardStack(over: bare), false),
            ("curl", curl, false), ("curl-headers", curl, true),
            ("curl-pipeline", try standardStack(over: curl), false),
        ]
    }

    /// The standard pipeline both suites measure: a `User-Agent`, retry, a bearer token, logging
    /// at basic level to a sink that drops records, gzip.
    private static func standardStack<Transport: HTTPTransport>(over transport: Transport) throws -> some HTTPTransport
    {
        try StandardPipeline.build(
            over: transport,
            options: StandardOptions(
                headers: [.fixed("User-Agent", "pipeline-bench/1")],
                credentials: StaticSource(),
                logging: .init(level: .basic, sink: ClosureLogSink { _ in })
            )
        )
    }

    /// A transport that converts each request to a `URLRequest`, as `URLSessionTransport` does,
    /// and answers with the e2e body without a socket: `--e2e-client stack` counts the standard
    /// stack's own work per request with nothing else in the process moving.
    private struct ConvertingTransport: HTTPTransport {
        let response = HTTPResponse(status: 200, fields: [.contentType: "application/json"], body: HTTPBody(body))

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            _ = try URLRequest(request.head)
            return response
        }
    }

    /// One client alone, sequentially, against the loopback server, after 50 requests of
    /// warm-up: for a profiler, which counts the whole process (Scripts/callgrind-e2e.sh).
    /// With `nginx`, against it instead: then the process holds the client alone.
    static func profile(client name: String, nginx: URL?, requests: Int, failed: inout Bool) async -> [(String, Double)]
    {
        do {
            let (server, url) = try target(nginx: nginx)
            defer { server.stop() }
            let client: any HTTPTransport
            var request = HTTPRequest(url: url)
            switch name {
            case "curl-spin":
                var configuration = CurlTransport.Configuration.default
                configuration.spinBeforeSleeping = .microseconds(100)
                client = CurlTransport(configuration: configuration)
            case "bare-memory": client = ConvertingTransport()
            case "stack": client = try standardStack(over: ConvertingTransport())
            case "stack-recording":
                client = try standardStack(over: RecordingTransport(over: ConvertingTransport(), into: Cassette()))
            default: (client, request) = try resolve(name, in: clients(), request)
            }
            _ = try await run(client, request, requests: 50, tasks: 1)
            return [("e2e_profile_\(name)_rps", try await run(client, request, requests: requests, tasks: 1))]
        } catch {
            FileHandle.standardError.write(Data("e2e \(name): \(error)\n".utf8))
            failed = true
            return []
        }
    }

    private static func measure(_ target: Target, requests: Int, rounds: Int) async throws -> [(String, Double)] {
        let clients = try clients()
        let plain = HTTPRequest(url: target.url)
        let withFields = withPipelineHeaders(plain)
        for (_, client, _) in clients { _ = try await run(client, plain, requests: 200, tasks: concurrentTasks) }
        var entries: [(String, Double)] = []
        for (mode, tasks) in [("sequential", 1), ("concurrent\(concurrentTasks)", concurrentTasks)] {
            var perSecond: [String: [Double]] = [:]
            var ratios: [String: [Double]] = [:]
            for round in 0..<rounds {
                let order = round.isMultiple(of: 2) ? clients : clients.reversed()
                var rates: [String: Double] = [:]
                for (name, client, sendsFields) in order {
                    rates[name] = try await run(
                        client, sendsFields ? withFields : plain, requests: requests, tasks: tasks)
                }
                for (name, rate) in rates { perSecond[name, default: []].append(rate) }
                for (ratio, over, under) in Self.ratios {
                    if let top = rates[over], let bottom = rates[under], bottom > 0 {
                        ratios[ratio, default: []].append(top / bottom)
                    }
                }
            }
            let key = "e2e_\(target.name)_\(mode)"
            // The ratio is the median of each round's own ratio (the two clients ran back to back
            // there), not the ratio of the medians: a load that comes and goes on the machine moves
            // both members of a round together, and whole rounds apart.
            entries += clients.map { name, _, _ in
                ("\(key)_\(name.replacingOccurrences(of: "-", with: "_"))_rps", median(perSecond[name] ?? []))
            }
            entries += Self.ratios.map { ratio, _, _ in ("\(key)_\(ratio)", median(ratios[ratio] ?? [])) }
            if let wrk = Wrk.requestsPerSecond(target.url, connections: tasks) {
                entries.append(("\(key)_wrk_rps", wrk))
            }
        }
        return entries
    }

    /// The ratios of each round: its key's suffix, and the clients over and under the bar. The
    /// `fields` ratios are what sending the stack's three fields costs each bare transport, the
    /// `layers` ratios what the stack's own code costs over a transport sending them anyway: the
    /// pipeline ratios are about their product.
    private static let ratios = [
        ("ratio", "pipeline", "bare"), ("curl_vs_urlsession", "curl", "bare"),
        ("pipeline_over_curl_ratio", "curl-pipeline", "curl"),
        ("fields_ratio", "bare-headers", "bare"), ("layers_ratio", "pipeline", "bare-headers"),
        ("curl_fields_ratio", "curl-headers", "curl"), ("curl_layers_ratio", "curl-pipeline", "curl-headers"),
    ]

    /// The request with the three fields the standard stack adds already set.
    static func withPipelineHeaders(_ request: HTTPRequest) -> HTTPRequest {
        var request = request
        request.fields["User-Agent"] = "pipeline-bench/1"
        request.fields["Authorization"] = "Bearer bench-token"
        request.fields["Accept-Encoding"] = "gzip, deflate"
        return request
    }

    /// Sends `requests` requests split over `tasks` tasks; returns requests per second.
    static func run(
        _ client: any HTTPTransport,
        _ request: HTTPRequest,
        requests: Int,
        tasks: Int
    ) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                let share = requests / tasks + (task < requests % tasks ? 1 : 0)
                group.addTask {
                    for _ in 0..<share {
                        let response = try await client.send(request)
                        let data = try await response.body.collect(upTo: 1 << 20)
                        guard response.status == 200, data == body else {
                            throw EndToEndError(status: response.status.code, bytes: data.count)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        return Double(requests) / max(start.duration(to: clock.now).seconds, 1e-9)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}

/// What the server itself can do without `URLSession`: `wrk` (from Debian) on the same URL with
/// as many connections as the benchmark has tasks, when it is installed.
enum Wrk {
    static func requestsPerSecond(_ url: URL, connections: Int, seconds: Int = 3) -> Double? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["wrk", "-t1", "-c\(connections)", "-d\(seconds)s", url.absoluteString]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("Requests/sec:") }
        return line?.split(separator: " ").last.flatMap { Double($0) }
    }
}

/// A response that was not the 200 with the expected body.
struct EndToEndError: Error, CustomStringConvertible {
    let status: Int
    let bytes: Int

    var description: String { "got status \(status) with \(bytes) bytes instead of 200 with the JSON body" }
}
