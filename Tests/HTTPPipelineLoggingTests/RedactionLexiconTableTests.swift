import Testing

@testable import HTTPPipelineLogging
@testable import HTTPPipelineRedaction

/// The lexicon's tables agree with its lists.
@Suite struct RedactionLexiconTableTests {
    static func judge(_ name: String) -> RedactionLexicon.Verdict {
        Array(name.utf8).withUnsafeBufferPointer(RedactionLexicon.judge)
    }

    @Test("No word listed as plain holds a secret fragment or ends in key, so skipping the search is safe")
    func plainWordsHoldNoFragment() {
        for word in RedactionLexicon.plainWords {
            let bytes = Array(word.utf8)
            let holds = bytes.withUnsafeBufferPointer {
                RedactionLexicon.containsFragment($0) || RedactionLexicon.endsInKey($0)
                    || RedactionLexicon.secretWords.contains(word)
            }
            #expect(!holds, "\(word)")
        }
    }

    @Test("Every listed word is found in the table with its flags")
    func tableHoldsEveryWord() {
        let lists: [([String], WordFlags)] = [
            (RedactionLexicon.secretWords, .secret), (RedactionLexicon.safeWords, .safe),
            (RedactionLexicon.identifierWords, .identifier), (RedactionLexicon.secretPathWords, .pathContext),
            (RedactionLexicon.plainWords, .plain),
        ]
        for (list, flag) in lists {
            for word in list {
                #expect(RedactionLexicon.table.flags(Word(word)).contains(flag), "\(word)")
            }
        }
        #expect(RedactionLexicon.table.flags(Word("monkeyboard")) == [])
        #expect(Self.judge("Content-Type").isSecret == false)
        #expect(Self.judge("X-Request-Id").namesIdentifier)
    }
}
