import Foundation
import HTTPPipeline
import HTTPPipelineTesting

/// The cases of each category.
extension AdversarialCorpus {
    func request(_ address: String, method: String = "GET") -> HTTPRequest {
        HTTPRequest(method: HTTPMethod(rawValue: method), url: URL(string: address) ?? URL(fileURLWithPath: "/"))
    }

    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    mutating func headersCase(_ index: Int) -> CorpusCase {
        var item = CorpusCase(category: .headers, request: request("https://api.example.com/v1/items/\(index)"))
        let named = anySecret()
        // The value is drawn before the name, as the corpus always drew them.
        let bearer = pick(["Bearer ", ""]) + named
        item.request.fields[pick(Self.secretHeaderNames)] = bearer
        let shaped = shapedSecret()
        item.request.fields[pick(["X-Upstream", "X-Debug", "X-Relay-Info"])] = "relay \(shaped)"
        item.secrets += [named, shaped]
        let controls = [
            ("X-Request-Id", uuid()), ("Idempotency-Key", uuid()), ("X-Keyboard-Layout", "dvorak"),
            ("X-Author", "Ada Lovelace"), ("X-Correlation-Id", string(Self.base62, 24)),
            ("X-Trace-Id", string(Self.hex, 32)),
            ("If-None-Match", "\"\(sha1())\""), ("User-Agent", "Shelf/2.\(index % 10) (Linux) swift-http-pipeline/0.1"),
        ]
        for _ in 0..<3 {
            let (name, value) = pick(controls)
            item.request.fields[name] = value
            item.controls.append("\(name): \(value)")
        }
        return item
    }

    mutating func queryCase(_ index: Int) -> CorpusCase {
        var items = ["page=\(index % 7 + 1)", "sort=-date"]
        var secrets: [String] = []
        let named = anySecret()
        items.append("\(pick(Self.secretNames))=\(Self.percentEncoded(named))")
        secrets.append(named)
        switch index % 3 {
        case 0:
            let shaped = shapedSecret()
            items.append("\(pick(Self.plainNames))=\(Self.percentEncoded(shaped))")
            secrets.append(shaped)
        case 1:
            // A presigned URL: the access key id and the signature.
            let keyID = "AKIA" + string(Self.upper + Array("234567"), 16)
            let signature = sha256()
            items += [
                "X-Amz-Algorithm=AWS4-HMAC-SHA256",
                "X-Amz-Credential=\(keyID)%2F20240501%2Fus-east-1%2Fs3%2Faws4_request",
                "X-Amz-Date=20240501T120000Z", "X-Amz-Expires=3600", "X-Amz-Signature=\(signature)",
            ]
            secrets += [keyID, signature]
        default:
            // PKCE: the verifier is secret, the challenge public.
            let verifier = string(Self.base64URL, 64)
            items += ["code_verifier=\(verifier)", "code_challenge=\(codeChallenge())", "code_challenge_method=S256"]
            secrets.append(verifier)
        }
        let controls = [
            "id=\(uuid())", "v=\(sha1())", "cursor=eyJhZnRlciI6\(number(100...999))fQ", "q=keyboard+monkey", "lang=en",
        ]
        let chosen = [pick(controls), pick(controls)]
        items += chosen
        items.shuffle(using: &random)
        var item = CorpusCase(
            category: .query, request: request("https://api.example.com/search?" + items.joined(separator: "&")))
        item.secrets = secrets
        item.controls = chosen + items.filter { $0.hasPrefix("code_challenge") || $0.hasPrefix("X-Amz-Date") }
        return item
    }

    mutating func pathCase(_ index: Int) -> CorpusCase {
        let token = randomToken().replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "+", with: "-")
        let shaped = shapedSecret()
        let resetToken = string(Self.base62, number(16...40))
        let paths: [(String, [String])] = [
            ("https://api.telegram.org/bot\(telegramToken())/sendMessage", []),
            (
                "https://hooks.slack.com/services/T0\(string(Self.upper, 7))/B0\(string(Self.upper, 7))/\(string(Self.base62, 24))",
                []
            ),
            (
                "https://discord.com/api/webhooks/\(number(100_000_000_000_000_000...999_999_999_999_999_999))/\(string(Self.base64URL, 68))",
                []
            ),
            ("https://app.example.com/password/reset/\(resetToken)", [resetToken]),
            ("https://app.example.com/invite/\(uuid())/accept", []),
            ("https://app.example.com/verify-email/\(resetToken)", [resetToken]),
            ("https://files.example.com/s/\(token)/download", [token]),
            ("https://api.example.com/v1/keys/\(Self.percentEncoded(shaped))/rotate", [shaped]),
        ]
        let (address, knownSecrets) = paths[index % paths.count]
        let userID = uuid()
        let commit = sha1()
        let tail = pick([
            "users/\(userID)/orders/\(index)", "repos/apple/swift/commits/\(commit)",
            "blog/2024/05/understanding-swift-concurrency",
        ])
        var item = CorpusCase(category: .path, request: request(address + "?then=/" + tail))
        // The secret segment of each shape, as it appears in the address.
        let segments = address.split(separator: "/").map(String.init)
        switch index % paths.count {
        case 0: item.secrets = [String(segments[2].dropFirst(3))]
        case 1: item.secrets = [segments[5]]
        case 2: item.secrets = [segments[5]]
        case 4: item.secrets = [segments[3]]
        default: item.secrets = knownSecrets
        }
        item.controls = ["then=/" + tail]
        return item
    }

    mutating func userInfoCase(_ index: Int) -> CorpusCase {
        let user = "svc-" + string(Self.lower, 8)
        let secret = pick([password(), randomToken(), pin()])
        let encoded = Self.percentEncoded(secret)
        let address: String
        switch index % 3 {
        case 0: address = "https://\(user):\(encoded)@db.example.com:8443/v1/tables/\(index)?page=2"
        case 1: address = "https://\(user)@files.example.com/pub/\(index)?page=2"
        default: address = "https://\(user):\(encoded)@[::1]:9000/v1/tables/\(index)?page=2"
        }
        let location = "https://\(user):\(encoded)@cdn.example.com/assets/\(index)"
        var item = CorpusCase(
            category: .userInfo, request: request(address), status: 302, responseHeaders: ["Location": location])
        item.secrets = [user] + (index % 3 == 1 ? [] : [secret, encoded])
        item.secrets.append(secret)
        item.controls = ["/v1/tables/\(index)?page=2", "cdn.example.com/assets/\(index)"]
        if index % 3 == 1 {
            item.controls = ["files.example.com/pub/\(index)?page=2", "cdn.example.com/assets/\(index)"]
        }
        return item
    }

    mutating func jsonCase(_ index: Int) -> CorpusCase {
        var secrets: [String] = []
        var fields: [String] = []
        let named = anySecret()
        let name =
            index % 4 == 0 ? pick([#"p\u0061ssword"#, #"\u0074oken"#, #"client_\u0073ecret"#]) : pick(Self.secretNames)
        fields.append(#""\#(name)": "\#(named)""#)
        secrets.append(named)
        let shaped = shapedSecret()
        fields.append(#""\#(pick(Self.plainNames))": "see \#(shaped)""#)
        secrets.append(shaped)
        if index % 5 == 0 {
            let (pem, lines) = privateKey()
            fields.append(#""private_key": "\#(pem.replacingOccurrences(of: "\n", with: "\\n"))""#)
            secrets += lines
        }
        let controls = [
            #""id": "\#(uuid())""#, #""title": "\#(phrase())""#, #""author": "Ada Lovelace""#,
            #""avatar": "\#(imageData())""#, #""event": "PaymentIntentSucceededEvent""#,
            #""code_challenge": "\#(codeChallenge())""#, #""created_at": "\#(timestamp())""#,
            #""etag": "\#(sha1())""#, #""keyboard": "dvorak""#, #""ulid": "\#(ulid())""#,
            #""customer": "cus_\#(string(Self.base62, 14))""#, #""email": "ada\#(index)@example.com""#,
            #""ip": "203.0.113.\#(index % 250)""#, #""version": "2.\#(index % 9).1-beta.4""#,
            #""file": "/var/log/app/report-2024-05-\#(10 + index % 19)-final.pdf""#,
        ]
        let chosen = [pick(controls), pick(controls), pick(controls)]
        fields += chosen
        fields.shuffle(using: &random)
        var text = "{" + fields.joined(separator: ", ")
        if index % 10 == 3 {
            // Past the 16 KiB the old parser stopped at.
            text += #", "items": ["# + (0..<800).map { #"{"n": \#($0), "label": "row"}"# }.joined(separator: ", ") + "]"
        }
        text += "}"
        var request = request("https://api.example.com/v1/things", method: "POST")
        request.body = HTTPBody(Data(text.utf8))
        request.fields["Content-Type"] = "application/json"
        return CorpusCase(category: .json, request: request, secrets: secrets, controls: chosen)
    }

    mutating func formCase(_ index: Int) -> CorpusCase {
        let secret = index % 3 == 0 ? jsonWebToken() : anySecret()
        let shaped = shapedSecret()
        let challenge = codeChallenge()
        let grants = [
            "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=\(Self.percentEncoded(secret))",
            "grant_type=authorization_code&code=\(Self.percentEncoded(secret))&code_challenge=\(challenge)",
            "client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=\(Self.percentEncoded(secret))",
            "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(Self.percentEncoded(secret))",
            "grant_type=password&username=ada.lovelace&pwd=\(Self.percentEncoded(secret))",
            "grant_type=refresh_token&refresh_token=\(Self.percentEncoded(secret))",
        ]
        let grant = grants[index % grants.count]
        let body =
            grant + "&client_id=shelf-ios-app&scope=read+write&\(pick(Self.plainNames))=\(Self.percentEncoded(shaped))"
            + "&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcallback"
        var request = request("https://auth.example.com/oauth/token", method: "POST")
        request.body = HTTPBody(Data(body.utf8))
        request.fields["Content-Type"] = "application/x-www-form-urlencoded"
        var controls = [
            "client_id=shelf-ios-app&scope=read+write", "redirect_uri=https%3A%2F%2Fapp.example.com%2Fcallback",
        ]
        if let type = grant.split(separator: "&").first, type.contains("urn%3A") { controls.append(String(type)) }
        if grant.contains("code_challenge") { controls.append("code_challenge=\(challenge)") }
        if grant.contains("username") { controls.append("username=ada.lovelace") }
        return CorpusCase(
            category: .form, request: request, secrets: [secret, Self.percentEncoded(secret), shaped],
            controls: controls)
    }

    mutating func multipartCase(_ index: Int) -> CorpusCase {
        let boundary = "----form" + string(Self.base62, 16)
        let secret = anySecret()
        let shaped = shapedSecret()
        let title = phrase()
        let album = "album-\(index)"
        let file = Data((0..<64).map { _ in UInt8.random(in: 0...255, using: &random) })
        var body = Data()
        func part(_ headers: String, _ content: Data) {
            body += Data("--\(boundary)\r\n\(headers)\r\n\r\n".utf8) + content + Data("\r\n".utf8)
        }
        part(#"Content-Disposition: form-data; name="title""#, Data(title.utf8))
        part(#"Content-Disposition: form-data; name="\#(pick(Self.secretNames))""#, Data(secret.utf8))
        part(#"Content-Disposition: form-data; name="\#(pick(Self.plainNames))""#, Data("use \(shaped)".utf8))
        part(
            "Content-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json",
            Data(#"{"album": "\#(album)", "api_key": "\#(secret)"}"#.utf8))
        part(
            "Content-Disposition: form-data; name=\"photo\"; filename=\"holiday.png\"\r\nContent-Type: image/png", file)
        body += Data("--\(boundary)--\r\n".utf8)
        var request = request("https://api.example.com/v1/uploads", method: "POST")
        request.body = HTTPBody(body)
        request.fields["Content-Type"] = "multipart/form-data; boundary=\(boundary)"
        return CorpusCase(
            category: .multipart, request: request, secrets: [secret, shaped],
            controls: [title, #""album": "\#(album)""#, #"filename="holiday.png""#])
    }

    mutating func textCase(_ index: Int) -> CorpusCase {
        let user = "ada.lovelace\(index)"
        let id = uuid()
        let secret = pick([password(), randomToken(), pin()])
        let shaped = shapedSecret()
        var secrets = [shaped] + (index % 6 == 1 || index % 6 == 3 ? [] : [secret])
        var text: String
        switch index % 6 {
        case 0: text = "\(pick(["password", "passphrase", "pin", "client_secret"])):\n  \(secret)\nuser: \(user)\n"
        case 1:
            let (pem, lines) = privateKey()
            text = "private_key: |\n  " + pem.replacingOccurrences(of: "\n", with: "\n  ") + "\nuser: \(user)\n"
            secrets += lines
        case 2:
            text = "AWS_ACCESS_KEY_ID=AKIA\(string(Self.upper, 16))\nAWS_SECRET_ACCESS_KEY=\(secret)\nUSER=\(user)\n"
        case 3:
            let (pem, lines) = privateKey()
            text = "Key for \(user) follows.\n\(pem)\n"
            secrets += lines
        case 4: text = "Authorization: Bearer \(secret)\nX-User: \(user)\n"
        default: text = "\(pick(Self.secretNames))=\(secret) for \(user)\n"
        }
        if index % 6 == 2 {
            secrets.append(String(text.split(separator: "\n")[0].dropFirst("AWS_ACCESS_KEY_ID=".count)))
        }
        text += "Rotated \(shaped) at \(timestamp()) for request \(id).\n"
        let checksum = sha256()
        text += "Checksum \(checksum) of build 2024.05.\(index % 28 + 1), released to 203.0.113.\(index % 250).\n"
        var request = request("https://api.example.com/v1/notes", method: "PUT")
        request.body = HTTPBody(Data(text.utf8))
        request.fields["Content-Type"] = index % 2 == 0 ? "text/plain; charset=utf-8" : "application/yaml"
        return CorpusCase(
            category: .text, request: request, secrets: secrets,
            controls: [user, "request \(id)", "Checksum \(checksum) of build 2024.05.\(index % 28 + 1)"])
    }

    /// An error whose description carries secrets, as a hand-written client's errors do.
    struct LeakyError: Error, CustomStringConvertible {
        let description: String
    }

    mutating func errorCase(_ index: Int) -> CorpusCase {
        let secret = pick([password(), randomToken(), pin()])
        let shaped = shapedSecret()
        let id = uuid()
        let description: String
        switch index % 4 {
        case 0:
            description =
                "upload failed for https://api.example.com/v1/x?token=\(Self.percentEncoded(secret)) with \(shaped) (request \(id))"
        case 1: description = "invalid credentials: password: \(secret)\nhint: \(shaped) expired (request \(id))"
        case 2:
            description =
                "decoding failed at \"\(pick(Self.secretNames))\": \"\(secret)\" near \(shaped) (request \(id))"
        default:
            description =
                "upstream said {\"error\":\"invalid_grant\",\"refresh_token\":\"\(secret)\",\"note\":\"\(shaped)\"} (request \(id))"
        }
        let item = CorpusCase(
            category: .errors, request: request("https://api.example.com/v1/errors/\(index)"),
            error: LeakyError(description: description), secrets: [secret, shaped], controls: ["(request \(id))"])
        return item
    }

    mutating func responseCase(_ index: Int) -> CorpusCase {
        let secret = anySecret()
        let session = randomToken()
        let jwt = jsonWebToken()
        let requestID = uuid()
        let etag = "\"\(sha1())\""
        var headers = [
            pick(["Set-Cookie", "Set-Cookie2"]): "session=\(session); Path=/; HttpOnly",
            "WWW-Authenticate": #"Bearer realm="api.example.com", error="invalid_token""#,
            "X-Request-Id": requestID, "ETag": etag, "Content-Type": "application/json",
        ]
        var secrets = [session, secret, jwt]
        let body: String
        switch index % 4 {
        case 0:
            body =
                #"{"access_token": "\#(jwt)", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "\#(secret)", "scope": "openid profile"}"#
        case 1:
            let userCode = string(Self.upper, 4) + "-" + string(Self.upper, 4)
            body =
                #"{"device_code": "\#(secret)", "user_code": "\#(userCode)", "verification_uri": "https://example.com/device", "expires_in": 1800, "interval": 5, "note": "\#(jwt)"}"#
            secrets.append(userCode)
        case 2:
            body =
                #"{"id": \#(index), "token": "\#(secret)", "note": "ci \#(jwt)", "scope": "openid profile", "expires_in": 3600}"#
        default:
            headers["Location"] =
                "https://app.example.com/callback?code=\(Self.percentEncoded(secret))&state=xyz\(index)"
            body =
                #"{"redirect": "https://app.example.com/callback?id_token=\#(jwt)", "scope": "openid profile", "expires_in": 3600}"#
        }
        var controls = [
            #"WWW-Authenticate: Bearer realm="api.example.com", error="invalid_token""#, "X-Request-Id: \(requestID)",
            "ETag: \(etag)",
        ]
        if index % 4 != 1 { controls.append(#""scope": "openid profile""#) }
        if index % 4 == 0 { controls.append(#""token_type": "Bearer""#) }
        if index % 4 == 1 { controls.append(#""verification_uri": "https://example.com/device""#) }
        if index % 4 == 3 { controls.append("state=xyz\(index)") }
        return CorpusCase(
            category: .responses, request: request("https://api.example.com/v1/session/\(index)"),
            responseHeaders: headers, responseBody: Data(body.utf8), secrets: secrets, controls: controls)
    }
}
