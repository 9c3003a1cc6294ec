import HTTPPipeline
import Testing

@Suite struct HTTPFieldsTests {
    @Test("Names compare without regard to ASCII case, and only letters fold")
    func namesCompareIgnoringASCIICase() {
        let fields: HTTPFields = ["Content-Type": "text/plain", "X-Trace-ID": "1"]
        #expect(fields["content-type"] == "text/plain")
        #expect(fields["X-TRACE-id"] == "1")
        #expect(fields["X-Trace-ID "] == nil)
        // '@' (0x40) and '`' (0x60) differ only by the case bit but are not letters.
        let odd: HTTPFields = ["a@b": "1"]
        #expect(odd["a`b"] == nil)
    }

    @Test("Setting a name replaces every field of it where the first one was; nil removes them all")
    func settingReplacesAndNilRemoves() {
        var fields = HTTPFields([
            HTTPField(name: "Accept", value: "a"), HTTPField(name: "X-One", value: "1"),
            HTTPField(name: "accept", value: "b"),
        ])
        fields["ACCEPT"] = "c"
        #expect(fields.map(\.name) == ["Accept", "X-One"])
        #expect(fields["accept"] == "c")
        fields["X-New"] = "n"
        #expect(fields.map(\.name) == ["Accept", "X-One", "X-New"])
        fields["accept"] = nil
        #expect(fields.map(\.name) == ["X-One", "X-New"])
    }

    @Test("Appending keeps fields of the same name in order")
    func appendingKeepsRepeatedFields() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: "Set-Cookie", value: "a=1"))
        fields.append(HTTPField(name: "set-cookie", value: "b=2"))
        #expect(fields.values(named: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(fields["Set-Cookie"] == "a=1")
    }

    @Test("Lists with the same fields in another case are equal and hash equally")
    func equalityIgnoresNameCase() {
        let lower: HTTPFields = ["accept": "x"]
        let upper: HTTPFields = ["ACCEPT": "x"]
        #expect(lower == upper)
        #expect(lower.hashValue == upper.hashValue)
        #expect(lower != ["accept": "y"])
    }

    @Test("Names that are not contiguous UTF-8 still compare")
    func bridgedStringsCompare() {
        let name = String(decoding: Array("X-Bridged".utf8), as: UTF8.self)
        let fields = HTTPFields([HTTPField(name: name, value: "1")])
        #expect(fields["x-bridged"] == "1")
    }
}
