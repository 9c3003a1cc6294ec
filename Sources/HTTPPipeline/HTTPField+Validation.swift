extension HTTPField {
    /// Checks that the field can go on the wire as it is: the one field check every entry point
    /// uses (both transports, default headers).
    ///
    /// - Throws: ``HTTPTransportError/invalidRequest(reason:)`` for a name that is not an HTTP
    ///   token, or a value holding a control character other than tab (RFC 9110 §5.5; CR, LF or
    ///   NUL would be a header injection); the reason names the field, never its value.
    package func checkSendable() throws(HTTPTransportError) {
        guard HTTPGrammar.isToken(name.rawName.utf8) else {
            throw .invalidRequest(reason: "a field name is not an HTTP token")
        }
        guard HTTPGrammar.firstInvalidFieldValueByte(value.utf8) == nil else {
            throw .invalidRequest(reason: "the value of \(name.rawName) holds a control character")
        }
    }
}
