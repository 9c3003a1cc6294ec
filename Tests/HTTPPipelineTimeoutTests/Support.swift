import Foundation
import HTTPPipeline
import HTTPPipelineTesting

let timeoutURL = URL(string: "https://api.example.invalid/books/1") ?? URL(fileURLWithPath: "/")
