import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

@testable import HTTPPipelineCache

/// Large bodies through a disk store over the loopback origin: written to the file as the caller
/// reads them, served from the file in chunks, checked as read.
@Suite struct DiskCacheStreamingTests {
    /// 400 KiB (more than the store reads whole) of bytes no run of which repeats soon, in 64 KiB chunks as the origin sends them.
    static let body: Data = {
        var state: UInt32 = 0x1234_5678
        return Data(
            (0..<(400 << 10)).map { _ in
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: state >> 24)
            })
    }()

    static func chunks() -> [Data] {
        stride(from: 0, to: body.count, by: 64 << 10).map { body.subdata(in: $0..<min($0 + (64 << 10), body.count)) }
    }

    struct Setup {
        let harness: CacheHarness
        let store: DiskCacheStore
        let directory: URL
        let problems: Locked<[CacheStoreProblem]>

        func files() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: directory.path)
        }
    }

    /// A disk-backed cache whose origin answers `GET /large` with `respond`, or with the body,
    /// fresh for a minute.
    func setUp(
        capacity: Int = 64 << 20,
        respond: (@Sendable (CacheHarness, LoopbackServer.RecordedRequest, Int) -> LoopbackServer.Response)? = nil
    ) throws -> Setup {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "disk-stream-\(UUID().uuidString)")
        let problems = Locked<[CacheStoreProblem]>([])
        let store = try DiskCacheStore(
            directory: directory, capacity: capacity, onProblem: { problem in problems.withLock { $0.append(problem) } }
        )
        let harness = try CacheHarness(options: CacheOptions(store: store, maximumEntryBytes: 16 << 20))
        harness.route("large") { request, number in
            if let respond { return respond(harness, request, number) }
            return .init(
                status: 200, headers: [("Cache-Control", "max-age=60"), ("Date", harness.clock.httpDate())],
                body: .chunked(Self.chunks()))
        }
        return Setup(harness: harness, store: store, directory: directory, problems: problems)
    }

    @Test func aLargeStreamedBodyIsStoredAsItIsReadAndServedFromItsFileInChunks() async throws {
        let setup = try setUp()
        defer { try? FileManager.default.removeItem(at: setup.directory) }

        let first = try await setup.harness.pipeline.send(HTTPRequest(url: setup.harness.url("large")))
        #expect(try await first.body.collect(upTo: 8 << 20) == Self.body)
        let hit = try await setup.harness.pipeline.send(HTTPRequest(url: setup.harness.url("large")))

        #expect(hit.outcome == .hit)
        #expect(hit.body.bufferedData == nil, "served from the file, not from memory")
        #expect(hit.body.length == Self.body.count)
        #expect(try await hit.body.collect(upTo: 8 << 20) == Self.body)
        #expect(try await hit.body.collect(upTo: 8 << 20) == Self.body, "a replayable body: read again")
        #expect(setup.harness.arrivals("large").count == 1)
        #expect(setup.problems.value.isEmpty)
    }

    @Test func aLargeEntryAlteredOnDiskFailsItsReadWithACorruptEntryProblemAndIsRemoved() async throws {
        let setup = try setUp()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        _ = try await setup.harness.send("large")
        let name = try #require(try setup.files().first)
        let url = setup.directory.appendingPathComponent(name)
        var bytes = try Data(contentsOf: url)
        bytes[bytes.count - 50_000] ^= 0x01
        try bytes.write(to: url)

        let hit = try await setup.harness.pipeline.send(HTTPRequest(url: setup.harness.url("large")))
        let error = await #expect(throws: CacheStoreProblem.self) { _ = try await hit.body.collect(upTo: 8 << 20) }
        let (again, body) = try await setup.harness.send("large")

        #expect(error?.isCorruptEntry == true)
        #expect(setup.problems.value.contains { $0.isCorruptEntry })
        #expect(again.outcome == .miss)
        #expect(Data(body.utf8).count > 0)
        #expect(setup.harness.arrivals("large").count == 2)
    }

    @Test func aBodyTheCallerDropsHalfWayIsNotStoredAndLeavesNoFile() async throws {
        let setup = try setUp()
        defer { try? FileManager.default.removeItem(at: setup.directory) }

        do {
            let response = try await setup.harness.pipeline.send(HTTPRequest(url: setup.harness.url("large")))
            var iterator = response.body.makeAsyncIterator()
            _ = try await iterator.next()
        }
        var files = try setup.files()
        for _ in 0..<200 where !files.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
            files = try setup.files()
        }
        let (again, _) = try await setup.harness.send("large")

        #expect(files.isEmpty, "the partial file is removed once the body is let go")
        #expect(again.outcome == .miss)
    }

    @Test func aBodyLargerThanTheStoreHoldsPassesThroughWithoutAFileOrAProblem() async throws {
        let setup = try setUp(capacity: 200 << 10)
        defer { try? FileManager.default.removeItem(at: setup.directory) }

        let (first, body) = try await setup.harness.send("large")
        let (second, _) = try await setup.harness.send("large")

        #expect(Data(body.utf8).count > 0)
        #expect(first.outcome == .miss)
        #expect(second.outcome == .miss)
        #expect(try setup.files().isEmpty)
        #expect(setup.problems.value.isEmpty)
    }

    @Test func rfc9111Section4_3_4A304RefreshesALargeEntryWhoseBodyStaysOnDisk() async throws {
        let setup = try setUp { harness, request, number in
            guard number > 1, request.header("If-None-Match") == "\"v1\"" else {
                return .init(
                    status: 200,
                    headers: [("Cache-Control", "no-cache"), ("ETag", "\"v1\""), ("Date", harness.clock.httpDate())],
                    body: .chunked(Self.chunks()))
            }
            return harness.status(304, [("ETag", "\"v1\""), ("X-Refreshed", "yes")])
        }
        defer { try? FileManager.default.removeItem(at: setup.directory) }

        _ = try await setup.harness.send("large")
        let revalidated = try await setup.harness.pipeline.send(HTTPRequest(url: setup.harness.url("large")))
        let stored = await setup.store.entries(forKey: CacheKey.key(for: setup.harness.url("large")) ?? "")

        #expect(revalidated.outcome == .revalidated)
        #expect(try await revalidated.body.collect(upTo: 8 << 20) == Self.body)
        #expect(stored.first?.fields[HTTPField.Name(unchecked: "X-Refreshed")] == "yes")
        #expect(try await stored.first?.body.collect(upTo: 8 << 20) == Self.body)
        #expect(setup.harness.arrivals("large").count == 2)
    }

    @Test func aLargeEntrySurvivesARestartIndexedFromItsHeader() async throws {
        let setup = try setUp()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        _ = try await setup.harness.send("large")

        let reopened = try DiskCacheStore(directory: setup.directory)
        let found = await reopened.entries(forKey: CacheKey.key(for: setup.harness.url("large")) ?? "")

        #expect(found.count == 1)
        #expect(reopened.bytes == setup.store.bytes)
        #expect(try await found.first?.body.collect(upTo: 8 << 20) == Self.body)
    }
}
