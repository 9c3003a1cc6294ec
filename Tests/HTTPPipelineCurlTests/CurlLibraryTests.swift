import Foundation
import HTTPPipeline
import HTTPPipelineTesting
import Testing

@testable import HTTPPipelineCurl

/// libcurl is bound at run time from the installed runtime (no headers at build time): these pin
/// that it binds, that a missing or wrong library is a typed error rather than a crash, and that
/// the engine's thread carries its name where the kernel shows it.
@Suite("CurlTransport binds libcurl at run time")
struct CurlLibraryTests {
    @Test func theInstalledRuntimeIsBoundAndReportsItsVersion() throws {
        try CurlLibrary.bound.get()
        let version = try #require(CurlLibrary.version)
        #expect(version.hasPrefix("libcurl/"), "\(version)")
    }

    @Test func aLibraryThatCannotBeLoadedIsATypedErrorNamingIt() {
        let result = CurlLibrary.bind(["libno-such-curl.so.4"], install: false)
        guard case .failure(let error) = result else {
            Issue.record("a library that does not exist was bound")
            return
        }
        #expect(error.category == .libraryUnavailable)
        #expect(!error.isTransient)
        #expect(error.message.contains("libno-such-curl.so.4"), "\(error)")
        #expect(error.description.hasPrefix("libcurl unavailable (curl 2): "), "\(error)")
    }

    #if os(Linux)
    @Test func aLibraryThatLoadsButIsNotLibcurlNamesTheFirstFunctionItLacks() {
        // zlib is loaded in every process of this package (the gzip plugin links it).
        let result = CurlLibrary.bind(["libz.so.1"], install: false)
        guard case .failure(let error) = result else {
            Issue.record("zlib was bound as libcurl")
            return
        }
        #expect(error.category == .libraryUnavailable)
        #expect(error.message.contains("has no curl_global_init"), "\(error)")
    }

    @Test func everyCandidateTriedIsNamedInTheErrorAndTheFirstThatWorksIsUsed() throws {
        let failure = CurlLibrary.bind(["libno-such-curl.so.4", "libz.so.1"], install: false)
        guard case .failure(let error) = failure else {
            Issue.record("neither candidate should bind")
            return
        }
        #expect(error.message.contains("libno-such-curl.so.4: "), "\(error)")
        #expect(error.message.contains("libz.so.1: "), "\(error)")
        try CurlLibrary.bind(["libno-such-curl.so.4", "libcurl.so.4"], install: false).get()
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task")))
    func theEngineThreadsNameReachesTheKernel() async throws {
        let server = try LoopbackServer.started()
        defer { server.stop() }
        server.route("GET", "/ping", .init(body: Data("pong".utf8)))
        let transport = CurlTransport(configuration: .default)
        _ = try await transport.send(HTTPRequest(url: server.url("ping")))
        func names() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").compactMap {
                try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8)
            }
        }
        // The thread names itself before it runs its loop, so before it took the request above.
        let seen = try names()
        #expect(seen.contains("\(CurlEngine.threadName)\n"), "\(Set(seen))")
    }
    #endif
}
