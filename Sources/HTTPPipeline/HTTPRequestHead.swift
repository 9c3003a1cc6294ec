public import Foundation

/// What a request says before its body: the method, the URL and the header fields.
///
/// A light value type of the core, not a Foundation object: copying and changing one costs a
/// small array write (Documentation/CoreV2.md has the measurements). A transport converts it to
/// what its client library wants once, at the bottom of the pipeline.
public struct HTTPRequestHead: Sendable, Hashable {
    /// The method.
    public var method: HTTPMethod
    /// The absolute URL the request is for.
    public var url: URL
    /// The header fields, in order.
    public var fields: HTTPFields

    /// Creates a request head.
    ///
    /// - Parameters:
    ///   - method: The method; `GET` by default.
    ///   - url: The absolute URL.
    ///   - fields: The header fields; none by default.
    @inlinable
    public init(method: HTTPMethod = .get, url: URL, fields: HTTPFields = HTTPFields()) {
        self.method = method
        self.url = url
        self.fields = fields
    }
}
