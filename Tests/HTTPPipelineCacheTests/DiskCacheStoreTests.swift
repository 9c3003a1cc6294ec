import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

@testable import HTTPPipelineCache

/// The disk store: restart, atomic writes, checked reads, a full disk, two stores on one folder.
@Suite struct DiskCacheStoreTests {
    func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("disk-cache-\(UUID().uuidString)")
    }

    func entry(_ key: String = "https://api.example.com/a", body: String = "hello", identity: String? = nil)
        -> CacheEntry
    {
        var varying: [String: String] = [:]
        if let identity { varying[CacheKey.identityField] = identity }
        return CacheEntry(
            key: key, status: 200, fields: [.cacheControl: "max-age=60", .contentType: "text/plain"],
            body: HTTPBody(Data(body.utf8)), requestTime: Date(timeIntervalSince1970: 1_000),
            responseTime: Date(timeIntervalSince1970: 1_001), varying: varying)
    }

    @Test func anEntrySurvivesARestartWithItsFieldsTimesAndBody() async throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await DiskCacheStore(directory: directory).store(entry())

        let reopened = try DiskCacheStore(directory: directory)
        let found = await reopened.entries(forKey: "https://api.example.com/a")

        #expect(found.count == 1)
        #expect(found.first?.body.bufferedData == Data("hello".utf8))
        #expect(found.first?.fields[.cacheControl] == "max-age=60")
        #expect(found.first?.responseTime == Date(timeIntervalSince1970: 1_001))
        #expect(reopened.bytes == found.first?.size)
    }

    @Test func aTornOrAlteredEntryIsDroppedWithATypedProblemAndNeverServed() async throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DiskCacheStore(directory: directory)
        await store.store(entry("https://api.example.com/torn"))
        await store.store(entry("https://api.example.com/flipped"))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        for name in files {
            let url = directory.appendingPathComponent(name)
            var bytes = try Data(contentsOf: url)
            if bytes.count % 2 == 0 { bytes = bytes.prefix(bytes.count / 2) } else { bytes[bytes.count / 2] ^= 0xFF }
            try bytes.write(to: url)
        }
        let problems = Locked<[CacheStoreProblem]>([])

        let reopened = try DiskCacheStore(
            directory: directory, onProblem: { problem in problems.withLock { $0.append(problem) } })

        #expect(await reopened.entries(forKey: "https://api.example.com/torn").isEmpty)
        #expect(await reopened.entries(forKey: "https://api.example.com/flipped").isEmpty)
        #expect(problems.value.count == 2)
        #expect(problems.value.allSatisfy { $0.isCorruptEntry })
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func aWriteACrashLeftUnfinishedIsRemovedOnTheNextStartAndAForeignFileIsLeftAlone() async throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("half an ent".utf8).write(to: directory.appendingPathComponent(DiskCacheStore.temporaryPrefix + "x"))
        try Data("notes".utf8).write(to: directory.appendingPathComponent("README.txt"))
        let problems = Locked<[CacheStoreProblem]>([])

        let store = try DiskCacheStore(
            directory: directory, onProblem: { problem in problems.withLock { $0.append(problem) } })

        #expect(store.bytes == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["README.txt"])
        #expect(problems.value.map(\.file) == ["README.txt"])
        #expect(problems.value.first?.isForeignFile == true)
    }

    @Test func aFullDiskStoresNothingLeavesNoFileAndKeepsTheOldEntry() async throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await DiskCacheStore(directory: directory).store(entry(body: "old"))
        let problems = Locked<[CacheStoreProblem]>([])
        let full = try DiskCacheStore(
            directory: directory, capacity: 1 << 20, onProblem: { problem in problems.withLock { $0.append(problem) } },
            writeBytes: { descriptor, bytes in
                try DiskCacheStore.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: bytes.prefix(bytes.count / 3)))
                throw POSIXError(.ENOSPC)
            })

        await full.store(entry(body: "new"))

        #expect(problems.value.first?.isWriteFailed == true)
        #expect(await full.entries(forKey: "https://api.example.com/a").first?.body.bufferedData == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
    }

    @Test func theLeastRecentlyUsedEntriesGoFirstWhenTheCapacityIsPassed() async throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let size = entry("https://api.example.com/1", body: String(repeating: "x", count: 1_000)).size
        let store = try DiskCacheStore(directory: directory, capacity: size * 2 + size / 2)
        for number in 1...2 {
            await store.store(entry("https://api.example.com/\(number)", body: String(repeating: "x", count: 1_000)))
        }
        _ = await store.entries(forKey: "https://api.example.com/1")

        await store.store(entry("https://api.example.com/3", body: String(repeating: "x", count: 1_000)))

        #expect(await store.entries(forKey: "https://api.example.com/1").count == 1)
        #expect(await store.entries(forKey: "https://api.example.com/2").isEmpty)
        #expect(await store.entries(forKey: "https://api.example.com/3").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 2)
    }

    @Test func noFileHoldsTheCredentialOfAPrivateResponse() async throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = CacheMiddleware(options: CacheOptions(store: try DiskCacheStore(directory: directory)))
        let pipeline = Pipeline(
            transport: ScriptedTransport { _ in .ok("mine", headers: ["Cache-Control": "private, max-age=60"]) }
        ) {
            cache
        }
        var request = HTTPRequest(url: URL(string: "https://api.example.com/me") ?? URL(fileURLWithPath: "/"))
        request.fields[.authorization] = "Bearer sekrit-token-123"

        _ = try await pipeline.send(request).body.collect(upTo: 1 << 20)
        let hit = try await pipeline.send(request)

        #expect(CacheOutcome(hit.head) == .hit)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let text = String(decoding: try Data(contentsOf: directory.appendingPathComponent(name)), as: UTF8.self)
            #expect(!text.contains("sekrit"))
        }
    }

    @Test func twoStoresOnOneFolderNeverReadATornEntry() async throws {
        let directory = folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try DiskCacheStore(directory: directory)
        let second = try DiskCacheStore(directory: directory)
        let problems = Locked(0)
        let reader = try DiskCacheStore(directory: directory, onProblem: { _ in problems.withLock { $0 += 1 } })
        await first.store(entry(body: String(repeating: "a", count: 50_000)))
        _ = await reader.entries(forKey: "https://api.example.com/a")

        await withTaskGroup(of: Void.self) { group in
            for round in 0..<40 {
                group.addTask { await first.store(entry(body: String(repeating: "a", count: 50_000 + round))) }
                group.addTask { await second.store(entry(body: String(repeating: "b", count: 50_000 + round))) }
                group.addTask {
                    for found in await reader.entries(forKey: "https://api.example.com/a") {
                        let body = String(decoding: found.body.bufferedData ?? Data(), as: UTF8.self)
                        #expect(body.allSatisfy { $0 == "a" } || body.allSatisfy { $0 == "b" })
                    }
                }
            }
        }

        #expect(problems.value == 0)
    }
}

/// Two processes on one folder: this test binary run again as a child, writing the same entry
/// while the parent writes and reads it.
@Suite struct DiskCacheStoreTwoProcessTests {
    static let folderVariable = "DISK_CACHE_RACE_FOLDER"

    static func entry(_ letter: Character, _ round: Int) -> CacheEntry {
        CacheEntry(
            key: "https://api.example.com/raced", status: 200, fields: [.cacheControl: "max-age=60"],
            body: HTTPBody(Data(String(repeating: letter, count: 40_000 + round).utf8)),
            requestTime: Date(timeIntervalSince1970: 1),
            responseTime: Date(timeIntervalSince1970: 2), varying: [:])
    }

    @Test func twoProcessesWritingAndReadingOneEntryNeverSeeATornOne() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("disk-race-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(atPath: directory.path + ".done")
        }
        let problems = Locked<[CacheStoreProblem]>([])
        let store = try DiskCacheStore(
            directory: directory, onProblem: { problem in problems.withLock { $0.append(problem) } })
        await store.store(Self.entry("a", 0))
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--testing-library", "swift-testing", "--filter", "childWritesTheRacedEntry"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.folderVariable] = directory.path
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()

        var reads = 0
        var round = 0
        while child.isRunning, round < 20_000 {
            round += 1
            await store.store(Self.entry("a", round % 500))
            for found in await store.entries(forKey: "https://api.example.com/raced") {
                let body = String(decoding: found.body.bufferedData ?? Data(), as: UTF8.self)
                #expect(body.allSatisfy { $0 == "a" } || body.allSatisfy { $0 == "b" })
                reads += 1
            }
        }
        child.waitUntilExit()

        #expect(child.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: directory.path + ".done"), "the child wrote its 300 rounds")
        #expect(reads > 0)
        #expect(problems.value.filter { $0.isCorruptEntry }.isEmpty, "\(problems.value)")
    }

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment[folderVariable] != nil,
            "runs only as the child of the two-process test"))
    func childWritesTheRacedEntry() async throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.folderVariable])
        let store = try DiskCacheStore(directory: URL(fileURLWithPath: path))
        for round in 0..<300 {
            await store.store(Self.entry("b", round))
            _ = await store.entries(forKey: "https://api.example.com/raced")
        }
        _ = FileManager.default.createFile(atPath: path + ".done", contents: Data())
    }
}
