import HTTPPipeline
import Testing

@Suite struct HTTPFieldsTests {
    @Test("Names compare without regard to ASCII case, and only letters fold")
    func namesCompareIgnoringASCIICase() {
        let fields: HTTPFields = [.contentType: "text/plain", HTTPField.Name(unchecked: "X-Trace-ID"): "1"]
        #expect(fields["content-type"] == "text/plain")
        #expect(fields["X-TRACE-id"] == "1")
        #expect(fields["X-Trace-ID "] == nil)
        // '@' (0x40) and '`' (0x60) differ only by the case bit but are not letters.
        let odd: HTTPFields = [HTTPField.Name(unchecked: "a@b"): "1"]
        #expect(odd["a`b"] == nil)
    }

    @Test("Setting a name replaces every field of it where the first one was; nil removes them all")
    func settingReplacesAndNilRemoves() {
        var fields = HTTPFields([
            HTTPField(name: "Accept", value: "a"), HTTPField(name: "X-One", value: "1"),
            HTTPField(name: "accept", value: "b"),
        ])
        fields["ACCEPT"] = "c"
        #expect(fields.map(\.name.rawName) == ["Accept", "X-One"])
        #expect(fields["accept"] == "c")
        fields["X-New"] = "n"
        #expect(fields.map(\.name.rawName) == ["Accept", "X-One", "X-New"])
        fields["accept"] = nil
        #expect(fields.map(\.name.rawName) == ["X-One", "X-New"])
    }

    @Test("Appending keeps fields of the same name in order")
    func appendingKeepsRepeatedFields() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: "Set-Cookie", value: "a=1"))
        fields.append(HTTPField(name: "set-cookie", value: "b=2"))
        #expect(fields[values: .setCookie] == ["a=1", "b=2"])
        #expect(fields[fields: .setCookie].map(\.value) == ["a=1", "b=2"])
    }

    @Test("Reading a name gives every value of it, joined, so list-valued fields lose no item")
    func readingANameJoinsEveryValue() {
        var fields: HTTPFields = [.accept: "application/json", .cacheControl: "no-cache"]
        fields.append(HTTPField(name: "accept", value: "text/plain"))
        fields.append(HTTPField(name: .cacheControl, value: "max-age=0"))
        #expect(fields[.accept] == "application/json, text/plain")
        #expect(fields["Cache-Control"] == "no-cache, max-age=0")
        #expect(fields[.vary] == nil)
    }

    @Test("Cookie values are joined with a semicolon, as RFC 6265 sends them")
    func cookieValuesJoinWithASemicolon() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .cookie, value: "a=1"))
        fields.append(HTTPField(name: .cookie, value: "b=2"))
        #expect(fields[.cookie] == "a=1; b=2")
    }

    @Test("A name made at run time is checked; a literal or a static is a name as written")
    func namesAreCheckedWhenMadeAtRunTime() throws {
        #expect(HTTPField.Name("X Evil") == nil)
        #expect(HTTPField.Name("") == nil)
        let name = try #require(HTTPField.Name("X-Request-ID"))
        #expect(name == HTTPField.Name("x-request-id"))
        #expect(name.rawName == "X-Request-ID")
        #expect(name.canonicalName == "x-request-id")
        #expect(HTTPField.Name.contentType.rawName == "Content-Type")
        let spellings = ["ACCEPT", "accept", "Accept"].compactMap { HTTPField.Name($0) }
        #expect(Set(spellings + [.accept]).count == 1)
    }

    @Test("Lists with the same fields in another case are equal and hash equally")
    func equalityIgnoresNameCase() {
        let lower = HTTPFields([HTTPField(name: "accept", value: "x")])
        let upper = HTTPFields([HTTPField(name: "ACCEPT", value: "x")])
        #expect(lower == upper)
        #expect(lower.hashValue == upper.hashValue)
        #expect(lower != [.accept: "y"])
    }

    @Test("Names that are not contiguous UTF-8 still compare")
    func bridgedStringsCompare() {
        let name = String(decoding: Array("X-Bridged".utf8), as: UTF8.self)
        let fields = HTTPFields([HTTPField(name: name, value: "1")])
        #expect(fields["x-bridged"] == "1")
    }
}
