import Foundation
import HTTPPipeline

/// One call to the token endpoint: the form, the client's authentication, and the answer read
/// into a token or into what went wrong.
extension OAuth2TokenSource {
    /// How a token call failed, by what it means for the refresh token it carried.
    enum ExchangeFailure: Error {
        /// Nothing reached the server: the same refresh token may be sent again.
        case notSent(any Error)
        /// The server refused the grant (RFC 6749 §5.2).
        case refused(OAuth2Error)
        /// The server answered that it failed, or with a status that is no answer (a redirect):
        /// the refresh token was not used.
        case failed(any Error)
        /// The request may have reached the server and its answer is lost: the refresh token
        /// may be spent.
        case unknown(any Error)

        var underlying: any Error {
            switch self {
            case .notSent(let error), .failed(let error), .unknown(let error): error
            case .refused(let error): error
            }
        }
    }

    /// Sends one token call with `form` (and the client's authentication) and reads its answer.
    func exchange(_ form: [(String, String)]) async throws(ExchangeFailure) -> OAuth2Token {
        let startedAt = now()
        let request = tokenRequest(form)
        let response: HTTPResponse
        do {
            response = try await tokenPipeline.send(request)
        } catch {
            let notSent =
                HTTPFailureClass(error) == .notSent || (error as? HTTPTransportError)?.isInvalidRequest == true
            throw notSent ? .notSent(error) : .unknown(error)
        }
        let status = response.status.code
        let body: Data
        do {
            body = try await response.body.collect(upTo: configuration.maximumResponseBytes)
        } catch {
            // A success whose body did not arrive whole may have rotated the token.
            throw status == 200 ? .unknown(error) : .failed(OAuth2Error.unexpectedStatus(status))
        }
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        if let object, let code = object["error"] as? String, object["access_token"] == nil, !code.isEmpty {
            // An error response; a few servers send one with a 200.
            throw .refused(
                .server(
                    code: OAuth2Error.Code(rawValue: code), description: object["error_description"] as? String,
                    uri: object["error_uri"] as? String, status: status))
        }
        switch status {
        case 200:
            guard let object else {
                throw .unknown(OAuth2Error.malformedResponse("the token response is not a JSON object", status: status))
            }
            do {
                return try Self.token(from: object, issuedAt: startedAt, status: status)
            } catch {
                throw .unknown(error)
            }
        case 502, 504:
            // A gateway's answer says nothing of whether the server behind it rotated the token.
            throw .unknown(OAuth2Error.unexpectedStatus(status))
        default:
            throw .failed(OAuth2Error.unexpectedStatus(status))
        }
    }

    /// The token call: a form-encoded POST, with the client authenticated as configured.
    private func tokenRequest(_ form: [(String, String)]) -> HTTPRequest {
        var fields = HTTPFields()
        fields["Content-Type"] = "application/x-www-form-urlencoded"
        fields["Accept"] = "application/json"
        var form = form
        switch configuration.clientAuthentication.kind {
        case .basic(let secret):
            // RFC 6749 §2.3.1: both form-encoded before they are joined.
            let pair = Self.formEncoded(configuration.clientID) + ":" + Self.formEncoded(secret)
            fields[.authorization] = "Basic " + Data(pair.utf8).base64EncodedString()
        case .formFields(let secret):
            form += [("client_id", configuration.clientID), ("client_secret", secret)]
        case .none:
            form.append(("client_id", configuration.clientID))
        }
        let encoded = form.map { Self.formEncoded($0.0) + "=" + Self.formEncoded($0.1) }.joined(separator: "&")
        return HTTPRequest(
            method: .post, url: configuration.tokenEndpoint, fields: fields, body: HTTPBody(Data(encoded.utf8)))
    }

    /// A successful token response (RFC 6749 §5.1) read into a token.
    static func token(from object: [String: Any], issuedAt: Date, status: Int) throws(OAuth2Error) -> OAuth2Token {
        guard let access = object["access_token"] as? String, !access.isEmpty else {
            throw .malformedResponse("the token response has no access_token", status: status)
        }
        do {
            try Credential.bearer(access).validate()
        } catch {
            throw .malformedResponse("the access token holds a character a header cannot carry", status: status)
        }
        let type = object["token_type"]
        // A missing token_type is read as Bearer, as most clients do.
        guard type == nil || (type as? String)?.lowercased() == "bearer" else {
            throw .malformedResponse("the token type is not Bearer", status: status)
        }
        var expiresAt: Date?
        if let raw = object["expires_in"] {
            let seconds = (raw as? NSNumber)?.doubleValue ?? (raw as? String).flatMap(Double.init)
            guard let seconds, seconds.isFinite else {
                throw .malformedResponse("expires_in is not a number", status: status)
            }
            // Counted from when the call was sent; at most ten years.
            expiresAt = issuedAt.addingTimeInterval(min(max(seconds, 0), 315_360_000))
        }
        let refresh = object["refresh_token"]
        guard refresh == nil || refresh is String else {
            throw .malformedResponse("refresh_token is not a string", status: status)
        }
        let scope = (object["scope"] as? String)?.split(separator: " ").map(String.init)
        return OAuth2Token(
            accessToken: access, expiresAt: expiresAt,
            refreshToken: (refresh as? String).flatMap { $0.isEmpty ? nil : $0 }, scope: scope)
    }

    /// `application/x-www-form-urlencoded` (RFC 6749 Appendix B): unreserved bytes as they are,
    /// space as `+`, every other byte percent-encoded.
    static func formEncoded(_ text: String) -> String {
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "*"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                encoded.append("+")
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                encoded.append("%")
                encoded.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                encoded.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0xF)]))
            }
        }
        return encoded
    }
}
