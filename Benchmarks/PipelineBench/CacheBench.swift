import Foundation
import HTTPPipeline
import HTTPPipelineCache
import HTTPPipelineCurl
import HTTPPipelineTesting

/// The HTTP cache: what a fresh hit from the memory store costs, next to the same request over
/// the network (the loopback server, or nginx when given) in one run; and how many requests 100
/// concurrent misses for one resource send.
enum CacheBench {
    static let body = Data(repeating: UInt8(ascii: "x"), count: 1 << 10)

    static func measurements(
        iterations: Int, rounds: Int, nginx: URL?, failed: inout Bool
    ) async -> [(String, Double)] {
        var entries = await hit(iterations: iterations, rounds: rounds)
        do {
            entries += try await network(rounds: rounds, nginx: nginx, hitNanoseconds: entries.first?.1)
            entries += try await collapse()
            entries += try await diskHit(iterations: iterations, rounds: rounds)
            entries += try await largeThroughDisk(failed: &failed)
        } catch {
            FileHandle.standardError.write(Data("cache bench: \(error)\n".utf8))
            failed = true
        }
        return entries
    }

    /// A fresh 1 KiB hit from a memory store, and the same pipeline's cost without the cache.
    static func hit(iterations: Int, rounds: Int) async -> [(String, Double)] {
        let fields: HTTPFields = [.cacheControl: "max-age=86400", .contentType: "application/octet-stream"]
        let transport = InMemoryTransport(response: HTTPResponse(status: 200, fields: fields, body: HTTPBody(body)))
        let request = HTTPRequest(url: URL(string: "https://api.example.com/v1/catalog/1") ?? URL(fileURLWithPath: "/"))
        let cached = Pipeline(transport: transport) { CacheMiddleware() }
        _ = try? await cached.send(request)
        let chains: [(key: String, transport: any HTTPTransport)] = [
            ("cache_none", Pipeline(transport: transport) { NoOp() }), ("cache_memory_hit", cached),
        ]
        let medians = await runChains(chains, request: request, iterations: iterations, rounds: rounds)
        guard let hit = medians["cache_memory_hit"], let none = medians["cache_none"] else { return [] }
        return [("cache_memory_hit_ns", hit), ("cache_pipeline_without_cache_ns", none)]
    }

    /// The same GET over `CurlTransport`, uncached, against the loopback server or nginx; and a
    /// memory hit's time over it.
    static func network(rounds: Int, nginx: URL?, hitNanoseconds: Double?) async throws -> [(String, Double)] {
        let server = LoopbackServer()
        server.route("GET", "/cached", .init(body: body))
        try server.start()
        defer { server.stop() }
        let url = nginx?.appendingPathComponent("e2e.json") ?? server.baseURL.appendingPathComponent("cached")
        let transport = CurlTransport()
        let request = HTTPRequest(url: url)
        let calls = 500
        var samples: [Double] = []
        for _ in 0..<max(rounds, 1) {
            let clock = ContinuousClock()
            let start = clock.now
            for _ in 0..<calls {
                _ = try await transport.send(request).body.collect(upTo: 1 << 20)
            }
            samples.append(start.duration(to: clock.now).seconds * 1e9 / Double(calls))
            server.forgetRequests()
        }
        let network = samples.sorted()[samples.count / 2]
        var entries = [("cache_network_round_trip_ns", network)]
        if let hitNanoseconds { entries.append(("cache_hit_ratio_to_network", hitNanoseconds / network)) }
        return entries
    }

    /// A fresh 1 KiB hit from a disk store (its file read and checked on every hit).
    static func diskHit(iterations: Int, rounds: Int) async throws -> [(String, Double)] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cache-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fields: HTTPFields = [.cacheControl: "max-age=86400", .contentType: "application/octet-stream"]
        let transport = InMemoryTransport(response: HTTPResponse(status: 200, fields: fields, body: HTTPBody(body)))
        let request = HTTPRequest(url: URL(string: "https://api.example.com/v1/catalog/1") ?? URL(fileURLWithPath: "/"))
        let store = try DiskCacheStore(directory: directory)
        let cached = Pipeline(transport: transport) { CacheMiddleware(options: CacheOptions(store: store)) }
        _ = try await cached.send(request)
        let medians = await runChains(
            [("cache_disk_hit", cached)], request: request, iterations: max(iterations / 10, 1), rounds: rounds)
        return medians["cache_disk_hit"].map { [("cache_disk_hit_ns", $0)] } ?? []
    }

    /// 1 GiB streamed from the loopback server into a disk-backed cache (stored as it is read),
    /// then served from it (read from its file as it is read): the resident memory the two added
    /// at their peak, and each one's time.
    static func largeThroughDisk(failed: inout Bool) async throws -> [(String, Double)] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cache-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = LoopbackServer()
        server.route(
            "GET", "/huge",
            .init(headers: [("Cache-Control", "max-age=60")], body: .repeated(Data(count: 64 << 10), count: 16_384)))
        try server.start()
        defer { server.stop() }
        let store = try DiskCacheStore(directory: directory, capacity: 2 << 30)
        let pipeline = Pipeline(transport: CurlTransport()) {
            CacheMiddleware(options: CacheOptions(store: store, maximumEntryBytes: 2 << 30))
        }
        let request = HTTPRequest(url: server.baseURL.appendingPathComponent("huge"))
        ResidentMemory.trimHeap()
        let before = ResidentMemory.kilobytes("VmRSS:") ?? 0
        let peakResets = ResidentMemory.resetPeak()
        let clock = ContinuousClock()
        var seconds: [Double] = []
        for expected in [CacheOutcome.miss, .hit] {
            let start = clock.now
            let response = try await pipeline.send(request)
            var bytes = 0
            for try await chunk in response.body { bytes += chunk.count }
            seconds.append(start.duration(to: clock.now).seconds)
            guard bytes == 1 << 30, CacheOutcome(response.head) == expected else {
                throw CurlSoakBench.SoakFailure(index: -3)
            }
        }
        guard peakResets, let peak = ResidentMemory.kilobytes("VmHWM:") else { return [] }
        let growth = Double(peak - before) / 1_000
        if growth > 16 {
            failed = true
            FileHandle.standardError.write(
                Data("cache: 1 GiB into and out of a disk-backed cache grew memory \(growth) MB\n".utf8))
        }
        return [
            ("cache_store_rss_growth_mb", growth), ("cache_store_bytes_after_1gib", Double(store.bytes)),
            ("cache_disk_1gib_store_s", seconds[0]), ("cache_disk_1gib_hit_s", seconds[1]),
        ]
    }

    /// 100 concurrent misses for one resource whose origin answers in 50 ms: requests sent.
    static func collapse() async throws -> [(String, Double)] {
        let server = LoopbackServer()
        let arrivals = Locked(0)
        server.route("GET", "/popular") { _ in
            arrivals.withLock { $0 += 1 }
            return .init(headers: [("Cache-Control", "max-age=60")], body: body, delay: .milliseconds(50))
        }
        try server.start()
        defer { server.stop() }
        let pipeline = Pipeline(transport: CurlTransport()) { CacheMiddleware() }
        let request = HTTPRequest(url: server.baseURL.appendingPathComponent("popular"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<100 {
                group.addTask { _ = try await pipeline.send(request).body.collect(upTo: 1 << 20) }
            }
            try await group.waitForAll()
        }
        return [("cache_collapse_requests_per_100_misses", Double(arrivals.value))]
    }
}
