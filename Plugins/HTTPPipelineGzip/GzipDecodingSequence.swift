import Foundation
import HTTPPipeline

/// What the response head says about a streamed body's size, for a body that turns out plain.
enum StreamEvidence: Sendable, Equatable {
    /// No `Content-Length`: nothing to compare.
    case unknown
    /// The body's length is known and equals `Content-Length`.
    case intact(Int)
    /// `Content-Length` is this, and the body's size is known only when it ends.
    case pending(Int)
}

/// A streamed response body decoded as it is read: the body from below goes through one
/// ``StreamingInflater`` per coding, last applied first.
///
/// The limits are those of the buffered path, checked as the body grows: the decoded size of
/// every layer against ``GzipOptions/outputLimit(forWireSize:)`` of the bytes received so far.
///
/// When the outermost coding finds the body plain (gzip without its magic bytes, deflate that
/// fails its probe), the body is handed out as it came and the other layers are dropped, as the
/// buffered path returns such a body whole. Under a `Content-Length` equal to the body's size
/// (``StreamEvidence/intact(_:)``, or ``StreamEvidence/pending(_:)`` until the end tells), rule 3
/// of ``GzipMiddleware`` applies: the first 64 KiB are held until judged, and bytes that could not
/// have been inflated by a transport (they do not compress) are the error strict decoding gives,
/// thrown at once when the length is known, at the end when the end shows the length matches.
struct GzipDecodingSequence: AsyncSequence, Sendable {
    typealias Element = Data

    /// The body as it came from below.
    let body: HTTPBody
    /// The read the middleware began, for the first reader.
    let begun: BegunRead
    /// The codings, in the order they were applied.
    let codings: [GzipDecoder.Coding]
    /// When the outermost coding's body is taken as plain; inner ones never are.
    let outermost: GzipDecoder.PlainBody
    let evidence: StreamEvidence
    let options: GzipOptions

    func makeAsyncIterator() -> Iterator {
        Iterator(read: begun.take() ?? WireRead(body), configuration: self)
    }

    /// One read of the decoded body.
    struct Iterator: AsyncIteratorProtocol {
        /// Rule 3 on a plain body: its first bytes held back until judged.
        private struct PlainCheck {
            let evidence: StreamEvidence
            var sample = Data()
            var held: [Data] = []
            var judged = false
            /// The sample does not compress: an error if the body's size matches at the end.
            var suspect = false
        }

        private enum State {
            case starting
            case decoding
            case passing(PlainCheck?)
            case done
        }

        private static let sampleSize = 64 << 10

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
                if layers[0].isPlain {
                    layers.removeSubrange(1...)
                    state = .passing(plainCheck())
                    return try await passOn()
                }
                state = .decoding
                return try await produce(layers.count - 1)
            case .decoding:
                return try await produce(layers.count - 1)
            case .passing:
                return try await passOn()
            case .done:
                return nil
            }
        }

        private mutating func start() throws(GzipError) {
            for (index, coding) in configuration.codings.reversed().enumerated() {
                layers.append(try StreamingInflater(coding, plainBody: index == 0 ? configuration.outermost : .never))
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

        private func plainCheck() -> PlainCheck? {
            switch configuration.evidence {
            case .unknown: nil
            case .intact, .pending: PlainCheck(evidence: configuration.evidence)
            }
        }

        /// The next chunk of a plain body, after rule 3's check.
        private mutating func passOn() async throws -> Data? {
            guard case .passing(var check) = state else { return nil }
            while true {
                if let held = check?.held, check?.judged == true, !held.isEmpty {
                    check?.held.removeFirst()
                    state = .passing(check)
                    return held[0]
                }
                switch try layers[0].next(limit: limit) {
                case .output(let chunk):
                    guard var pending = check, !pending.judged else { return chunk }
                    pending.held.append(chunk)
                    pending.sample.append(chunk.prefix(Self.sampleSize - pending.sample.count))
                    if pending.sample.count >= Self.sampleSize { try judge(&pending) }
                    check = pending
                    state = .passing(check)
                case .finished:
                    if var pending = check, !pending.judged {
                        try judge(&pending)
                        check = pending
                        state = .passing(check)
                        continue
                    }
                    if let check, check.suspect, case .pending(let length) = check.evidence, read.count == length {
                        throw strictError(inputCount: length)
                    }
                    return nil
                case .needsInput:
                    try await feedOutermost()
                }
            }
        }

        /// Rule 3: bytes that do not compress cannot be what a transport inflated.
        private func judge(_ check: inout PlainCheck) throws(GzipError) {
            check.judged = true
            guard !ContentDecoding.mayBeInflated(check.sample) else { return }
            if case .intact(let length) = check.evidence { throw strictError(inputCount: length) }
            check.suspect = true
        }

        private func strictError(inputCount: Int) -> GzipError {
            layers.first?.plainError(inputCount: inputCount)
                ?? .badHeader(reason: "the body is not encoded as its Content-Encoding says")
        }
    }
}
