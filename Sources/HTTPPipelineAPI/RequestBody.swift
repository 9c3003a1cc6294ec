public import Foundation

/// The body of an ``Endpoint``'s request: an encodable value sent as JSON, or raw bytes.
///
/// A JSON body is encoded when the request is built, with the encoder given here or else the
/// ``APIClient``'s encoder; a value that cannot be encoded fails the request with
/// ``APIError/invalidRequest(reason:)`` before anything is sent.
public struct RequestBody: Sendable {
    /// The `Content-Type` the request is sent with, unless the endpoint sets its own.
    public let contentType: String
    private let encoder: JSONEncoder?
    private let makeData: @Sendable (JSONEncoder) throws -> Data

    private init(contentType: String, encoder: JSONEncoder?, makeData: @escaping @Sendable (JSONEncoder) throws -> Data)
    {
        self.contentType = contentType
        self.encoder = encoder
        self.makeData = makeData
    }

    /// A value encoded as JSON, sent with `Content-Type: application/json`.
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - encoder: The encoder to use; `nil` (the default) uses the client's encoder.
    /// - Returns: The body.
    public static func json(_ value: some Encodable & Sendable, encoder: JSONEncoder? = nil) -> RequestBody {
        RequestBody(contentType: "application/json", encoder: encoder) { encoder in
            try encoder.encode(value)
        }
    }

    /// Bytes sent exactly as given.
    ///
    /// - Parameters:
    ///   - data: The body bytes.
    ///   - contentType: The media type of `data`, for example `"text/plain; charset=utf-8"`.
    /// - Returns: The body.
    public static func data(_ data: Data, contentType: String) -> RequestBody {
        RequestBody(contentType: contentType, encoder: nil) { _ in data }
    }

    /// The body bytes, encoded with this body's encoder or else `defaultEncoder`.
    func data(defaultEncoder: JSONEncoder) throws(APIError) -> Data {
        do {
            return try makeData(encoder ?? defaultEncoder)
        } catch let EncodingError.invalidValue(_, context) {
            throw .invalidRequest(
                reason: "the request body could not be encoded as JSON at \(CodingPath.describe(context.codingPath))"
            )
        } catch {
            throw .invalidRequest(reason: "the request body could not be encoded (\(type(of: error)))")
        }
    }
}
