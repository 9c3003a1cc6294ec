import Foundation
public import HTTPPipeline

extension DefaultHeaders {
    /// What to do when the request already has a header of the same name.
    public enum Policy: Sendable, Equatable {
        /// Leave the request's own value alone; add the header only when it is missing. The default.
        case setIfMissing
        /// Replace the request's value.
        case override
        /// Add the value to the request's comma-separated list (for list headers such as
        /// `Accept-Encoding` or `Cache-Control`), unless the list already holds it.
        case append
    }

    /// Where a header's value comes from.
    public enum Value: Sendable {
        /// The same value for every request, checked when the middleware is built.
        case fixed(String)
        /// A value computed for each request (`nil` adds nothing), checked each time.
        case computed(@Sendable (HTTPRequest) -> String?)
    }

    /// One default header: a name, where its value comes from, and a policy.
    public struct Header: Sendable {
        /// The header's name, as sent.
        public let name: String
        /// The header's value, fixed or computed.
        public let value: Value
        /// What to do when the request already has the header.
        public let policy: Policy
        /// Whether the header carries a credential (an API key, a tenant secret): it is marked
        /// as one (`HTTPRequestContext.credentialFields`), so that a redirect layer drops it on a
        /// hop to another origin, whatever the order of the layers. A name the redaction engine
        /// knows as secret (`X-API-Key`, `Api-Key`, any `…-Token`) is dropped either way.
        public let isCredential: Bool

        /// Creates a header.
        ///
        /// - Parameters:
        ///   - name: The header's name.
        ///   - value: Where its value comes from.
        ///   - policy: What to do when the request already has it; ``Policy/setIfMissing`` by default.
        ///   - isCredential: Whether it carries a credential, kept to the request's origin.
        public init(_ name: String, value: Value, policy: Policy = .setIfMissing, isCredential: Bool = false) {
            self.name = name
            self.value = value
            self.policy = policy
            self.isCredential = isCredential
        }

        /// A header with the same value on every request.
        ///
        /// - Parameters:
        ///   - name: The header's name.
        ///   - value: Its value.
        ///   - policy: What to do when the request already has it.
        ///   - isCredential: Whether it carries a credential, kept to the request's origin.
        /// - Returns: The header.
        public static func fixed(
            _ name: String, _ value: String, policy: Policy = .setIfMissing, isCredential: Bool = false
        ) -> Header {
            Header(name, value: .fixed(value), policy: policy, isCredential: isCredential)
        }

        /// A header whose value is computed for each request, for example a request ID.
        ///
        /// - Parameters:
        ///   - name: The header's name.
        ///   - policy: What to do when the request already has it.
        ///   - isCredential: Whether it carries a credential, kept to the request's origin.
        ///   - value: Computes the value from the request as it is at this layer; `nil` adds nothing.
        /// - Returns: The header.
        public static func computed(
            _ name: String,
            policy: Policy = .setIfMissing,
            isCredential: Bool = false,
            _ value: @escaping @Sendable (HTTPRequest) -> String?
        ) -> Header {
            Header(name, value: .computed(value), policy: policy, isCredential: isCredential)
        }

        func apply(to request: inout HTTPRequest) throws(HeaderError) {
            let existing = request.fields[name]
            if existing != nil && policy == .setIfMissing { return }
            let newValue: String
            switch value {
            case .fixed(let fixed):
                newValue = fixed
            case .computed(let compute):
                guard let computed = compute(request) else { return }
                try HeaderGrammar.check(value: computed, of: name)
                newValue = computed
            }
            switch (policy, existing) {
            case (.append, let existing?) where !existing.isEmpty:
                let items = existing.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard !items.contains(newValue.lowercased()) else { return }
                request.fields[name] = existing + ", " + newValue
            default:
                // Every field of that name, in any case, goes: the request never carries
                // `user-agent` and `User-Agent` side by side.
                request.fields[name] = newValue
            }
            if isCredential { request.context.markCredential(HTTPField.Name(unchecked: name)) }
        }
    }
}
