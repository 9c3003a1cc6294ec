import Foundation
import HTTPPipeline
import HTTPPipelineAPI
import HTTPPipelineTesting
import LibraryFixtures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``ScriptedTransport`` serving ``LibraryCatalogue`` instantly, with some paths overridden.
func scriptedLibrary(
    overriding overrides: [String: ScriptedTransport.Reply] = [:]
) -> ScriptedTransport {
    ScriptedTransport { request in
        let path = request.url.path.isEmpty ? "/" : request.url.path
        if let reply = overrides[path] {
            return reply
        }
        let (status, body) = LibraryCatalogue.reply(path: path, query: request.url.query)
        return .status(status, body: body)
    }
}

/// A client over a transport, with a base URL tests never actually reach.
func libraryClient(_ transport: any HTTPTransport) throws -> APIClient {
    let base = try #require(URL(string: "https://library.example"))
    return APIClient(baseURL: base, transport: transport)
}
