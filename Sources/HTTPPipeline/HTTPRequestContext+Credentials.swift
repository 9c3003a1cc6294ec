/// The context key of the fields a layer marked as credentials: see
/// `HTTPRequestContext.credentialFields`.
package enum HTTPCredentialFieldsKey: HTTPContextKey {
    package typealias Value = Set<HTTPField.Name>
}

extension HTTPRequestContext {
    /// The request's fields that carry a credential for its origin, as the layers that set them
    /// marked them (``markCredential(_:)``): a layer that sends the request on to another origin
    /// (a redirect hop) removes them, whatever the order of the layers. Empty unless a layer
    /// marked one.
    ///
    /// The auth plugin marks every field it sets but `Authorization` (dropped across origins
    /// anyway) and the default-headers plugin every header declared a credential; the redirect plugin removes them, with `Authorization`,
    /// `Proxy-Authorization`, `Cookie` and every field the redaction engine knows as secret by
    /// name, on a hop to another origin.
    public var credentialFields: Set<HTTPField.Name> {
        self[HTTPCredentialFieldsKey.self] ?? []
    }

    /// Marks a field of the request as carrying a credential for the request's origin.
    ///
    /// ```swift
    /// var request = HTTPRequest(url: URL(string: "https://api.example.com/books")!)
    /// request.fields["X-Tenant-Key"] = "k-123"
    /// request.context.markCredential(HTTPField.Name("X-Tenant-Key")!)
    /// ```
    ///
    /// - Parameter name: The field's name.
    public mutating func markCredential(_ name: HTTPField.Name) {
        var fields = self[HTTPCredentialFieldsKey.self] ?? []
        guard fields.insert(name).inserted else { return }
        self[HTTPCredentialFieldsKey.self] = fields
    }
}
