/// The response type of an endpoint whose reply carries no value, such as a `204 No Content`.
///
/// An ``APIClient`` never decodes the body for this type: an empty body, `{}` or anything else
/// the server sends is accepted once the status is acceptable.
///
/// ```swift
/// let delete: Endpoint<EmptyResponse> = .delete("/loans/\(loanID)")
/// _ = try await client.send(delete)
/// ```
public struct EmptyResponse: Decodable, Sendable, Hashable {
    /// Creates the empty value.
    public init() {}

    /// Creates the empty value without reading anything from `decoder`.
    ///
    /// - Parameter decoder: Ignored.
    public init(from decoder: any Decoder) {}
}
