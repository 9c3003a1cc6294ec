import Foundation
import HTTPPipeline

/// A streamed response body decoded as it is read: the body from below goes through one
/// ``StreamingInflater`` per coding, last applied first.
///
/// The limits are those of the buffered path, checked as the body grows: the decoded size of
/// every layer against ``GzipOptions/outputLimit(forWireSize:)`` of the bytes received so far.
/// The verdicts are too: a body that is not what its coding says is the ``GzipError`` the
/// buffered path throws, thrown by the read that meets it.
struct GzipDecodingSequence: AsyncSequence, Sendable {
    typealias Element = Data

    /// The body as it came from below.
    let body: HTTPBody
    /// The read the middleware began, for the first reader.
    let begun: BegunRead
    /// The codings, in the order they were applied.
    let codings: [GzipDecoder.Coding]
    let options: GzipOptions

    func makeAsyncIterator() -> Iterator {
        Iterator(read: begun.take() ?? WireRead(body), configuration: self)
    }

    /// One read of the decoded body.
    struct Iterator: AsyncIteratorProtocol {
        private enum State {
            case starting
            case decoding
            case done
        }

        private var read: WireRead
        private let configuration: GzipDecodingSequence
        /// One decoder per coding, outermost first.
        private var layers: [StreamingInflater] = []
        private var state = State.starting

        init(read: WireRead, configuration: GzipDecodingSequence) {
            self.read = read
            self.configuration = configuration
        }

        private var limit: OutputLimit {
            configuration.options.outputLimit(forWireSize: read.count)
        }

        /// The next decoded chunk, at most 120 KiB; `nil` at the end.
        mutating func next() async throws -> Data? {
            do {
                let chunk = try await advance()
                if chunk == nil { finish() }
                return chunk
            } catch {
                finish()
                throw error
            }
        }

        /// Ends the read: the zlib streams are freed now, not when the iterator goes.
        private mutating func finish() {
            state = .done
            layers = []
        }

        private mutating func advance() async throws -> Data? {
            switch state {
            case .starting:
                try start()
                while try !layers[0].decide(limit: limit) { try await feedOutermost() }
                state = .decoding
                return try await produce(layers.count - 1)
            case .decoding:
                return try await produce(layers.count - 1)
            case .done:
                return nil
            }
        }

        private mutating func start() throws(GzipError) {
            for coding in configuration.codings.reversed() {
                layers.append(try StreamingInflater(coding))
            }
        }

        private mutating func feedOutermost() async throws {
            if let chunk = try await read.next() {
                layers[0].append(chunk)
            } else {
                layers[0].finish()
            }
        }

        /// The next output of layer `index`, fed from the layer before it (or the body).
        private mutating func produce(_ index: Int) async throws -> Data? {
            while true {
                switch try layers[index].next(limit: limit) {
                case .output(let chunk):
                    return chunk
                case .finished:
                    return nil
                case .needsInput:
                    if index == 0 {
                        try await feedOutermost()
                    } else if let chunk = try await produce(index - 1) {
                        layers[index].append(chunk)
                    } else {
                        layers[index].finish()
                    }
                }
            }
        }
    }
}
