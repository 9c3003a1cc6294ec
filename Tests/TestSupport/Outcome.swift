public import HTTPPipeline

/// Sends one call and returns its outcome, the response or the error, so a test can look at
/// either without a `do`/`catch`.
///
/// - Parameters:
///   - transport: A transport or pipeline.
///   - request: The request to send.
/// - Returns: The response, or what was thrown.
public func outcome(of transport: some HTTPTransport, _ request: HTTPRequest) async -> Result<HTTPResponse, any Error> {
    do {
        return .success(try await transport.send(request))
    } catch {
        return .failure(error)
    }
}

extension Result where Success == HTTPResponse {
    /// The status, if a response came back.
    public var status: Int? {
        if case .success(let response) = self { return response.status.code }
        return nil
    }

    /// What was thrown, if anything.
    public var thrown: (any Error)? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension Result {
    /// The thrown error as a timeout, if it is one.
    public var timeout: HTTPTimeoutError? {
        if case .failure(let error) = self { return error as? HTTPTimeoutError }
        return nil
    }
}
