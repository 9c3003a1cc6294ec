public import Foundation
import HTTPPipeline

extension ScriptedTransport {
    /// One scripted answer: a response or a thrown error, optionally after a delay.
    public struct Reply: Sendable {
        enum Outcome: Sendable {
            case response(status: Int, headers: [String: String], body: Data)
            case failure(any Error)
        }

        let outcome: Outcome
        /// How long the transport waits before answering.
        public var delay: Duration

        /// A response with a status, headers and body.
        ///
        /// - Parameters:
        ///   - status: The HTTP status code.
        ///   - headers: The response headers.
        ///   - body: The body bytes, handed over exactly as given.
        ///   - delay: How long to wait before answering.
        /// - Returns: The reply.
        public static func status(
            _ status: Int,
            headers: [String: String] = [:],
            body: Data = Data(),
            delay: Duration = .zero
        ) -> Reply {
            Reply(outcome: .response(status: status, headers: headers, body: body), delay: delay)
        }

        /// A 200 response whose body is `text` in UTF-8.
        ///
        /// - Parameters:
        ///   - text: The body.
        ///   - headers: The response headers.
        /// - Returns: The reply.
        public static func ok(_ text: String = "", headers: [String: String] = [:]) -> Reply {
            .status(200, headers: headers, body: Data(text.utf8))
        }

        /// A thrown error instead of a response.
        ///
        /// - Parameters:
        ///   - error: What the transport throws.
        ///   - delay: How long to wait before throwing.
        /// - Returns: The reply.
        public static func failure(_ error: any Error, delay: Duration = .zero) -> Reply {
            Reply(outcome: .failure(error), delay: delay)
        }

        /// The same reply after a delay.
        ///
        /// - Parameter delay: How long to wait before answering.
        /// - Returns: The delayed reply.
        public func delayed(by delay: Duration) -> Reply {
            Reply(outcome: outcome, delay: delay)
        }

        func outcome(for request: HTTPRequest) throws -> HTTPResponse {
            switch outcome {
            case .failure(let error):
                throw error
            case .response(let status, let headers, let body):
                guard (100...999).contains(status) else {
                    throw ScriptedTransportError.invalidResponse(status: status)
                }
                // A dictionary has no order: the fields go out sorted by name, the same every run.
                let fields = HTTPFields(headers.sorted { $0.key < $1.key }.map { HTTPField(name: $0.key, value: $0.value) })
                return HTTPResponse(status: status, fields: fields, body: HTTPBody(body))
            }
        }
    }

    /// A method and a path, for example `"GET /books/1"`; the query is not part of a route.
    public struct Route: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The HTTP method, upper-cased.
        public let method: String
        /// The URL path, starting with `/`.
        public let path: String

        /// Creates a route.
        ///
        /// - Parameters:
        ///   - method: The HTTP method; compared upper-cased.
        ///   - path: The URL path.
        public init(_ method: String, _ path: String) {
            self.method = method.uppercased()
            self.path = path.isEmpty ? "/" : path
        }

        /// Creates a route from `"METHOD /path"`; a literal without a space means `GET`.
        public init(stringLiteral value: String) {
            let parts = value.split(separator: " ", maxSplits: 1)
            if parts.count == 2 {
                self.init(String(parts[0]), String(parts[1]))
            } else {
                self.init("GET", value)
            }
        }

        init(_ request: HTTPRequest) {
            self.init(request.method.rawValue, request.url.path)
        }

        public var description: String { "\(method) \(path)" }
    }
}
