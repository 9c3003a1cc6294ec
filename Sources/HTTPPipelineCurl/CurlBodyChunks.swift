import Foundation

/// The one reader of a streamed response body; when it is gone before the end, the transfer
/// is aborted. It keeps the engine alive while the body streams, even when every copy of the
/// transport that sent the request is gone.
final class CurlBodyReader: Sendable {
    private let transfer: CurlTransfer
    private let engine: CurlEngine
    /// Held only to keep the engine running while the body streams.
    private let owner: CurlEngineOwner

    init(transfer: CurlTransfer, engine: CurlEngine, owner: CurlEngineOwner) {
        self.transfer = transfer
        self.engine = engine
        self.owner = owner
    }

    deinit {
        if !transfer.hasEnded { transfer.cancel(on: engine) }
    }

    func next() async throws -> Data? {
        try await transfer.next(engine: engine)
    }
}

/// A streamed response body's chunks, as a sequence an `HTTPBody` streams once.
struct CurlBodyChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let reader: CurlBodyReader

    func makeAsyncIterator() -> Iterator {
        Iterator(reader: reader)
    }

    struct Iterator: AsyncIteratorProtocol {
        let reader: CurlBodyReader

        mutating func next() async throws -> Data? {
            try await reader.next()
        }
    }
}
