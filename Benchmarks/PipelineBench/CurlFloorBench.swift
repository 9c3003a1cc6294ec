import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineStandard
import HTTPPipelineTesting

#if canImport(Glibc)
import Glibc
#endif

/// `CurlTransport` against its floor, in one run: a C loop over libcurl's easy API sending the
/// same requests, then the transport one request at a time, by default and from a task that
/// prefers the engine's executor (`CurlTransport.taskExecutor`), each measured as the process's
/// CPU time and context switches per request (`getrusage`); then the standard pipeline over the
/// transport against the bare transport, without and with a 30 s deadline, requests per second
/// in alternating blocks.
enum CurlFloorBench {
    struct Usage {
        var cpuMicroseconds: Double
        var voluntarySwitches: Double
        var seconds: Double
    }

    static func measurements(nginx: URL?, requests: Int, rounds: Int, failed: inout Bool) async -> [(String, Double)] {
        do {
            let (server, url) = try EndToEndBench.target(nginx: nginx)
            defer { server.stop() }
            let transport = CurlTransport()
            let request = HTTPRequest(url: url)
            // Binds libcurl, opens the connection and warms both sides.
            _ = try await sequential(transport, request, requests: 200, preferringEngine: false)
            var floor: [Usage] = []
            var plain: [Usage] = []
            var preferring: [Usage] = []
            var floorWithFields: [Usage] = []
            var preferringWithFields: [Usage] = []
            let withFields = EndToEndBench.withPipelineHeaders(request)
            let lines = withFields.fields.map { "\($0.name): \($0.value)" }
            for _ in 0..<max(rounds, 1) {
                floor.append(try cLoop(url, requests: requests))
                plain.append(try await sequential(transport, request, requests: requests, preferringEngine: false))
                preferring.append(try await sequential(transport, request, requests: requests, preferringEngine: true))
                floorWithFields.append(try cLoop(url, requests: requests, fields: lines))
                preferringWithFields.append(
                    try await sequential(transport, withFields, requests: requests, preferringEngine: true))
            }
            let c = median(floor)
            let byDefault = median(plain)
            let onEngine = median(preferring)
            var entries: [(String, Double)] = [
                ("c_loop_cpu_us_per_request", c.cpuMicroseconds),
                ("c_loop_context_switches_per_request", c.voluntarySwitches),
                ("c_loop_requests_per_second", 1 / max(c.seconds, 1e-12)),
                ("curl_cpu_us_per_request", onEngine.cpuMicroseconds),
                ("curl_cpu_ratio_to_c_loop", onEngine.cpuMicroseconds / c.cpuMicroseconds),
                ("curl_context_switches_per_request", onEngine.voluntarySwitches),
                ("curl_requests_per_second", 1 / max(onEngine.seconds, 1e-12)),
                ("curl_default_executor_cpu_us_per_request", byDefault.cpuMicroseconds),
                ("curl_default_executor_cpu_ratio_to_c_loop", byDefault.cpuMicroseconds / c.cpuMicroseconds),
                ("curl_default_executor_context_switches_per_request", byDefault.voluntarySwitches),
                ("curl_default_executor_requests_per_second", 1 / max(byDefault.seconds, 1e-12)),
                // The standard stack's three fields, sent by libcurl's own loop and by the
                // transport: what the fields cost inside libcurl, and what the transport adds.
                ("c_loop_fields_added_cpu_us_per_request", median(floorWithFields).cpuMicroseconds - c.cpuMicroseconds),
                (
                    "curl_fields_added_cpu_us_per_request",
                    median(preferringWithFields).cpuMicroseconds - onEngine.cpuMicroseconds
                ),
            ]
            entries += try await withTaskExecutorPreference(transport.taskExecutor) {
                try await standardRatios(transport, request, requests: requests)
            }
            entries += try await standardRatios(transport, request, requests: requests).map {
                ($0.0.replacingOccurrences(of: "_ratio", with: "_default_executor_ratio"), $0.1)
            }
            return entries
        } catch {
            FileHandle.standardError.write(Data("curl floor: \(error)\n".utf8))
            failed = true
            return []
        }
    }

    /// The standard pipeline (`StandardOptions()`, with its default fields) over the transport
    /// against the bare transport, and the same with a 30 s total deadline: requests per second,
    /// sequential, in blocks of 20 taken in turn.
    static func standardRatios(_ transport: CurlTransport, _ request: HTTPRequest, requests: Int) async throws -> [(
        String, Double
    )] {
        let standard = try StandardPipeline.build(over: transport, options: StandardOptions())
        let deadline = try StandardPipeline.build(over: transport, options: StandardOptions(totalTimeout: .seconds(30)))
        let clients: [any HTTPTransport] = [transport, standard, deadline]
        for client in clients { _ = try await EndToEndBench.run(client, request, requests: 200, tasks: 1) }
        var seconds = [Double](repeating: 0, count: clients.count)
        let block = 20
        for index in 0..<max(requests / block, 1) {
            let order = index.isMultiple(of: 2) ? Array(clients.indices) : clients.indices.reversed()
            for client in order {
                let rate = try await EndToEndBench.run(clients[client], request, requests: block, tasks: 1)
                seconds[client] += Double(block) / rate
            }
        }
        return [
            ("standard_over_curl_ratio", seconds[0] / seconds[1]),
            ("standard_deadline_over_curl_ratio", seconds[0] / seconds[2]),
        ]
    }

    /// The C loop's usage per request: `curl-c-loop` (Benchmarks/CCurlLoop), built beside this
    /// executable, in a process of its own.
    static func cLoop(_ url: URL, requests: Int, fields: [String] = []) throws -> Usage {
        let here = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let child = Process()
        child.executableURL = here.deletingLastPathComponent().appendingPathComponent("curl-c-loop")
        child.arguments = [url.absoluteString, "200", String(requests)] + fields
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        let values = String(decoding: data, as: UTF8.self).split(separator: " ").map {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard child.terminationStatus == 0, values.count == 7, let user = values[0], let system = values[1],
            let voluntary = values[2], let seconds = values[4], values[5] == 0
        else {
            throw FloorError(description: "the C loop failed: \(String(decoding: data, as: UTF8.self))")
        }
        let count = Double(requests)
        return Usage(
            cpuMicroseconds: (user + system) / count, voluntarySwitches: voluntary / count, seconds: seconds / count)
    }

    /// The transport's usage per request, one request after another, its body read each time.
    static func sequential(_ transport: CurlTransport, _ request: HTTPRequest, requests: Int, preferringEngine: Bool)
        async throws -> Usage
    {
        func loop() async throws -> Usage {
            let before = resourceUsage()
            let start = ContinuousClock.now
            for _ in 0..<requests {
                let response = try await transport.send(request)
                let body = try await response.body.collect(upTo: 1 << 20)
                guard response.status == 200, !body.isEmpty else {
                    throw FloorError(description: "got \(response.status) with \(body.count) bytes")
                }
            }
            let seconds = start.duration(to: .now).seconds
            let after = resourceUsage()
            let count = Double(requests)
            return Usage(
                cpuMicroseconds: (after.cpu - before.cpu) / count,
                voluntarySwitches: Double(after.voluntary - before.voluntary) / count, seconds: seconds / count)
        }
        guard preferringEngine else { return try await loop() }
        return try await withTaskExecutorPreference(transport.taskExecutor) { try await loop() }
    }

    /// The process's CPU time in microseconds and its voluntary context switches so far.
    static func resourceUsage() -> (cpu: Double, voluntary: Int) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func microseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1e6 + Double(time.tv_usec) }
        return (microseconds(usage.ru_utime) + microseconds(usage.ru_stime), Int(usage.ru_nvcsw))
    }

    static func median(_ usages: [Usage]) -> Usage {
        let sorted = usages.sorted { $0.cpuMicroseconds < $1.cpuMicroseconds }
        return sorted[sorted.count / 2]
    }

    struct FloorError: Error, CustomStringConvertible {
        let description: String
    }
}
