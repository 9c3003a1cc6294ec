import Foundation
import HTTPPipeline
import HTTPPipelineTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let orderingURL = URL(string: "https://api.example.invalid/books/1") ?? URL(fileURLWithPath: "/")
