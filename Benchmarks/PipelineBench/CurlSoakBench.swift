import Foundation
import HTTPPipeline
import HTTPPipelineCurl
import HTTPPipelineTesting

/// `CurlTransport` held to flat memory: a 10,000-request soak (short buffered answers, 512 KiB
/// streamed ones, uploads, a call cancelled mid-transfer in every hundred) with the resident size
/// read after a warm-up and at the end, against nginx when one is given or else the loopback
/// server run in a process of its own (`--suite curl-server`), so that the process measured holds
/// the client alone; and a 1 GiB download from that server read chunk by chunk, with its peak
/// resident size over the size before it.
enum CurlSoakBench {
    /// Where the soak's four kinds of request go.
    struct Target: Sendable {
        let small, large, upload, slow: URL

        /// The paths of the loopback server ``serve()`` runs.
        init(loopback base: URL) {
            small = base.appendingPathComponent("small")
            large = base.appendingPathComponent("large")
            upload = base.appendingPathComponent("upload")
            slow = base.appendingPathComponent("slow")
        }

        /// The paths `Scripts/nginx-server.sh` serves for the soak.
        init(nginx base: URL) {
            small = base.appendingPathComponent("e2e.json")
            large = base.appendingPathComponent("soak/large.bin")
            upload = base.appendingPathComponent("soak/upload")
            slow = base.appendingPathComponent("soak/slow.bin")
        }
    }

    /// Growth above which the bench calls it a leak (as the pipeline soak does).
    static let residentMarginMegabytes = 4.0
    /// Peak growth above which the download did not hold flat memory.
    static let downloadMarginMegabytes = 16.0

    /// The soak's loopback server with its routes, not started.
    static func makeServer() -> LoopbackServer {
        let server = LoopbackServer()
        server.route("GET", "/small", .init(body: EndToEndBench.body))
        server.route("GET", "/large", .init(body: .repeated(Data(count: 64 << 10), count: 8)))
        server.route("POST", "/upload", .init(status: 204))
        server.route("GET", "/slow", .init(body: Data("late".utf8), delay: .seconds(30)))
        server.route("GET", "/huge", .init(body: .repeated(Data(count: 64 << 10), count: 16_384)))
        return server
    }

    /// `--suite curl-server`: runs the soak's loopback server, prints its port on a line of its
    /// own, and serves until standard input closes (the parent exits or closes it). Its record of
    /// the requests is dropped every second, so it never grows with the soak.
    static func serve() -> Bool {
        let server = makeServer()
        do {
            try server.start()
        } catch {
            FileHandle.standardError.write(Data("curl server: did not start: \(error)\n".utf8))
            return false
        }
        FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))
        let done = Locked(false)
        let forgetting = Thread {
            while !done.value {
                Thread.sleep(forTimeInterval: 1)
                server.forgetRequests()
            }
        }
        forgetting.start()
        _ = FileHandle.standardInput.readDataToEndOfFile()
        done.withLock { $0 = true }
        server.stop()
        return true
    }

    /// The loopback server in a child process: its base URL, and how to end it.
    struct ServerChild {
        let process: Process
        let input: Pipe
        let base: URL

        /// Starts `pipeline-bench --suite curl-server` and reads the port it prints.
        init() throws {
            process = Process()
            process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = ["--suite", "curl-server"]
            input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw SoakFailure(index: -2) }
                line += chunk
            }
            let port = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let url = URL(string: "http://127.0.0.1:\(port)") else { throw SoakFailure(index: -2) }
            base = url
        }

        /// Ends the child: closes its input and waits for it.
        func stop() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    static func measurements(requests: Int, nginx: URL?, failed: inout Bool) async -> [(String, Double)] {
        let server: ServerChild
        do {
            server = try ServerChild()
        } catch {
            FileHandle.standardError.write(
                Data("curl soak: the loopback server's process did not start: \(error)\n".utf8))
            failed = true
            return []
        }
        defer { server.stop() }
        let transport = CurlTransport(configuration: .default)
        let target = nginx.map(Target.init(nginx:)) ?? Target(loopback: server.base)
        var entries: [(String, Double)] = [("curl_soak_against_nginx", nginx == nil ? 0 : 1)]
        do {
            try await soak(transport, target, requests: 1_000)
            ResidentMemory.trimHeap()
            let before = ResidentMemory.kilobytes("VmRSS:") ?? 0
            let clock = ContinuousClock()
            let start = clock.now
            try await soak(transport, target, requests: requests)
            let seconds = start.duration(to: clock.now).seconds
            ResidentMemory.trimHeap()
            let after = ResidentMemory.kilobytes("VmRSS:") ?? 0
            let growth = Double(after - before) / 1_000
            entries += [
                ("curl_soak_requests", Double(requests)), ("curl_soak_requests_per_second", Double(requests) / seconds),
                ("curl_soak_resident_before_mb", Double(before) / 1_000), ("curl_soak_resident_growth_mb", growth),
            ]
            if growth > residentMarginMegabytes {
                failed = true
                FileHandle.standardError.write(Data("curl soak: resident memory grew \(growth) MB\n".utf8))
            }
            entries += try await download(transport, server.base, failed: &failed)
        } catch {
            FileHandle.standardError.write(Data("curl soak: \(error)\n".utf8))
            failed = true
        }
        return entries
    }

    /// `requests` requests, 16 at a time, each checked.
    private static func soak(_ transport: CurlTransport, _ target: Target, requests: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<16 {
                group.addTask {
                    for index in stride(from: worker, to: requests, by: 16) {
                        try await one(index, transport, target)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    private static func one(_ index: Int, _ transport: CurlTransport, _ target: Target) async throws {
        switch index % 100 {
        case 0:
            // Cancelled while it waits for the head (the loopback server) or mid-body (nginx).
            let call = Task {
                try await transport.send(HTTPRequest(url: target.slow)).body.collect(upTo: 64 << 20)
            }
            try await Task.sleep(for: .milliseconds(2))
            call.cancel()
            guard case .failure(is CancellationError) = await call.result else { throw SoakFailure(index: index) }
        case 1..<10:
            let response = try await transport.send(HTTPRequest(url: target.large))
            guard try await response.body.collect(upTo: 1 << 20).count == 512 << 10 else {
                throw SoakFailure(index: index)
            }
        case 10..<20:
            let request = HTTPRequest(method: .post, url: target.upload, body: HTTPBody(Data(count: 16 << 10)))
            guard try await transport.send(request).status == 204 else { throw SoakFailure(index: index) }
        default:
            let response = try await transport.send(HTTPRequest(url: target.small))
            guard try await response.body.collect(upTo: 1 << 20) == EndToEndBench.body else {
                throw SoakFailure(index: index)
            }
        }
    }

    /// 1 GiB read chunk by chunk: its speed and the peak resident size it added.
    private static func download(
        _ transport: CurlTransport, _ base: URL, failed: inout Bool
    ) async throws -> [(String, Double)] {
        ResidentMemory.trimHeap()
        let before = ResidentMemory.kilobytes("VmRSS:") ?? 0
        let peakResets = ResidentMemory.resetPeak()
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await transport.send(HTTPRequest(url: base.appendingPathComponent("huge")))
        var bytes = 0
        for try await chunk in response.body { bytes += chunk.count }
        let seconds = start.duration(to: clock.now).seconds
        guard bytes == 1 << 30 else { throw SoakFailure(index: -1) }
        var entries = [("curl_download_mib_per_s", Double(bytes >> 20) / seconds)]
        if peakResets, let peak = ResidentMemory.kilobytes("VmHWM:") {
            let growth = Double(peak - before) / 1_000
            entries.append(("curl_download_peak_growth_mb", growth))
            if growth > downloadMarginMegabytes {
                failed = true
                FileHandle.standardError.write(Data("curl download: peak resident memory grew \(growth) MB\n".utf8))
            }
        }
        return entries
    }

    struct SoakFailure: Error, CustomStringConvertible {
        let index: Int
        var description: String { "request \(index) did not get its answer" }
    }
}
