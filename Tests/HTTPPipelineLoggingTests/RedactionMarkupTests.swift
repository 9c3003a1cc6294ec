import Foundation
import HTTPPipelineRedaction
import Testing

/// XML and SOAP bodies, multipart parts, service-account files and bot tokens in paths: secrets
/// the engine must find, and ordinary words, media types and ids it must leave readable.
@Suite struct RedactionMarkupTests {
    let redaction = Redaction.default

    func body(_ text: String, _ contentType: String?) -> String {
        redaction.body(Data(text.utf8), contentType: contentType, limit: 8192)
    }

    @Test func xmlElementsNamedAsSecretsHaveTheirContentReplacedAndOtherElementsStay() {
        let xml =
            "<login><username>ann</username><password>hunter2-Secret9</password><apiKey>k7Hq2pLx9mN4</apiKey></login>"

        #expect(
            body(xml, "application/xml")
                == "<login><username>ann</username><password><redacted></password><apiKey><redacted></apiKey></login>")
    }

    @Test func aSoapEnvelopesNamespacedTokenElementIsRedactedAndItsCountStays() {
        let soap =
            #"<?xml version="1.0"?><soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body><m:TokenResponse xmlns:m="urn:acme"><m:access_token>tok-Abc123Def456</m:access_token><m:token_type>Bearer</m:token_type><m:count>3</m:count></m:TokenResponse></soap:Body></soap:Envelope>"#

        let redacted = body(soap, "application/soap+xml; charset=utf-8")

        #expect(!redacted.contains("tok-Abc123Def456"))
        #expect(redacted.contains("<m:access_token><redacted></m:access_token>"))
        #expect(redacted.contains("<m:token_type>Bearer</m:token_type><m:count>3</m:count>"))
        #expect(
            redacted.hasPrefix(
                #"<?xml version="1.0"?><soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope">"#))
    }

    @Test func secretAttributesCdataAndNestedContentAreRedactedWithoutAContentType() {
        let xml =
            #"<?xml version="1.0"?><login user="ann" password="hunter2" apiKey='k-123x'><Password><![CDATA[p4ss word]]></Password><secret><part>one</part><part>two</part></secret></login>"#

        #expect(
            body(xml, nil)
                == #"<?xml version="1.0"?><login user="ann" password="<redacted>" apiKey='<redacted>'><Password><redacted></Password><secret><redacted></secret></login>"#
        )
    }

    @Test func aSecretWrapperHidesItsWholeContentButAMessageNamedForASecretIsJudgedByItsChildren() {
        let xml =
            "<auth><user>ann</user><pin>1234</pin></auth><ChangePasswordRequest><userId>7</userId><newPassword>n3w</newPassword></ChangePasswordRequest>"

        #expect(
            body(xml, "text/xml")
                == "<auth><redacted></auth><ChangePasswordRequest><userId>7</userId><newPassword><redacted></newPassword></ChangePasswordRequest>"
        )
    }

    @Test func aSecretElementCutShortHidesEverythingAfterItsStartTag() {
        #expect(body("<req><id>7</id><password>hunter2 and more", "text/xml") == "<req><id>7</id><password><redacted>")
    }

    @Test func aShapedSecretInAnOrdinaryXmlElementIsStillFound() {
        let xml =
            "<hook><url>https://hooks.example.com/x?token=abc123secret</url><note>ghp_abcdefghijklmnopqrstuvwxyz0123456789</note></hook>"

        let redacted = body(xml, "application/xml")

        #expect(!redacted.contains("abc123secret"))
        #expect(!redacted.contains("ghp_abcdefghijklmnopqrstuvwxyz0123456789"))
        #expect(redacted.hasPrefix("<hook><url>https://hooks.example.com/x?token=<redacted></url>"))
    }

    @Test func aMultipartPartWhoseNameIsSecretIsReplacedAndAnXmlPartIsRedactedAsXml() {
        let multipart = [
            "--XyZ", #"Content-Disposition: form-data; name="client_secret""#, "", "shh-its-secret",
            "--XyZ", #"Content-Disposition: form-data; name="payload""#, "Content-Type: application/xml", "",
            "<p><pin>1234</pin><qty>2</qty></p>", "--XyZ--", "",
        ].joined(separator: "\r\n")

        let redacted = body(multipart, "multipart/form-data; boundary=XyZ")

        #expect(!redacted.contains("shh-its-secret"))
        #expect(!redacted.contains("1234"))
        #expect(redacted.contains("<p><pin><redacted></pin><qty>2</qty></p>"))
    }

    @Test func aServiceAccountFileKeepsItsPublicFieldsAndHidesItsKeyAndKeyID() {
        let file =
            #"{"type":"service_account","project_id":"demo-project","private_key_id":"3f1a9c0d2b7e4f6a8c5d1e3b9a7f0c2d4e6b8a1f","private_key":"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----\n","client_email":"bot@demo-project.iam.gserviceaccount.com","client_id":"109876543210987654321","auth_uri":"https://accounts.google.com/o/oauth2/auth","token_uri":"https://oauth2.googleapis.com/token"}"#

        let redacted = body(file, "application/json")

        #expect(!redacted.contains("3f1a9c0d2b7e4f6a8c5d1e3b9a7f0c2d4e6b8a1f"))
        #expect(!redacted.contains("MIIEvQIBADANBg"))
        #expect(redacted.contains(#""private_key_id":"<redacted>""#))
        #expect(redacted.contains(#""auth_uri":"https://accounts.google.com/o/oauth2/auth""#))
        #expect(redacted.contains(#""token_uri":"https://oauth2.googleapis.com/token""#))
        #expect(redacted.contains(#""client_email":"bot@demo-project.iam.gserviceaccount.com""#))
    }

    @Test(arguments: [
        "https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage",
        "https://api.telegram.org/bot7012345678:AAGx_-abcdefghijklmnopqrstuvwxyz0123/getMe",
        "https://api.telegram.org/file/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/photos/file_1.jpg",
    ])
    func aBotTokenInAPathIsHidden(url: String) {
        let redacted = redaction.urlString(url)

        #expect(!redacted.contains(":AA"), "\(redacted)")
        #expect(redacted.contains("/<redacted>/"))
    }

    @Test(arguments: [
        "https://shop.example.com/account/reset-password-instructions",
        "https://shop.example.com/docs/authentication-and-authorization/overview",
        "https://shop.example.com/api/v2/getUserAccountSettingsForDisplay",
        "https://shop.example.com/blog/why-tokens-expire",
        "https://api.example.com/orders/ord_1N4qJ2LkdIwHu7ix/items",
        "https://api.example.com/v1/customers/cus_NffrFeUfNV2Hib",
    ])
    func ordinaryWordsAndObjectIDsInAPathStayReadable(url: String) {
        #expect(redaction.urlString(url) == url)
    }

    @Test(arguments: [
        ("Accept", "application/vnd.acme.session-token.v2+json"),
        ("Accept", "application/vnd.api+json, application/vnd.acme.password-reset.v1+json;q=0.9"),
        ("Content-Type", "application/vnd.acme.secret-rotation-request+json"),
        ("Location", "/orders/ord_1N4qJ2LkdIwHu7ix"),
        ("Location", "https://api.example.com/v1/payments/pay_7Tz9QmW2xK4Lp8Rn"),
        ("Location", "/orders/550e8400-e29b-41d4-a716-446655440000"),
    ])
    func mediaTypesAndIdsInHeadersStayReadable(name: String, value: String) {
        #expect(redaction.headerValue(name: name, value: value) == value)
    }

    @Test(arguments: [
        "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "tok_1N4qJ2LkdIwHu7ixAbCd",
        "sess_9xK2mQ7vL4pR8tZ1wY6n",
    ])
    func aKeyOrTokenWithAPrefixIsStillHiddenInAPath(segment: String) {
        #expect(redaction.urlString("https://api.example.com/v1/\(segment)") == "https://api.example.com/v1/<redacted>")
    }
}
