import Foundation
import HTTPPipeline
import HTTPPipelineTesting

let timeoutURL = URL(string: "https://api.example.invalid/books/1") ?? URL(fileURLWithPath: "/")

extension Result {
    /// The thrown error as a timeout, if it is one.
    var timeout: HTTPTimeoutError? {
        if case .failure(let error) = self { return error as? HTTPTimeoutError }
        return nil
    }
}

extension Result where Success == HTTPResponse {
    /// The status, if a response came back.
    var status: Int? {
        if case .success(let response) = self { return response.status.code }
        return nil
    }
}
