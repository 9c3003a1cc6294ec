extension Redaction {
    /// Which names a `name=value` list is judged by.
    enum FieldKind {
        /// A URL's query, fragment or path parameters: the query rules and their allow-list.
        case query
        /// A form-encoded body: the body-field rules.
        case form
    }

    /// Appends a percent-encoded `name=value` list (a query, a fragment, a path segment's
    /// parameters, a form body) with the values of secret names replaced by the mark.
    ///
    /// Items are split on `&` and on `;` (an old separator some servers still honour: splitting
    /// on it too means it can never smuggle a secret past), then on the first `=`. Names are
    /// percent-decoded repeatedly (and `+` read as a space) before they are judged; the original
    /// encoded name is kept in the output. A name that does not settle after four rounds of
    /// decoding is treated as secret. A value whose decoded form hides a secret of its own (a
    /// nested URL with a token, say) is replaced whole, unless its name was explicitly allowed.
    ///
    /// - Parameters:
    ///   - bytes: The list as encoded on the wire.
    ///   - field: The rules the names are judged by.
    ///   - depth: How deeply nested this list was found; bounds the recursion.
    ///   - output: Where the redacted list goes.
    func appendPairs(_ bytes: ArraySlice<UInt8>, field: FieldKind, depth: Int, to output: inout [UInt8]) {
        var itemStart = bytes.startIndex
        for position in bytes.startIndex...bytes.endIndex {
            let isEnd = position == bytes.endIndex
            guard isEnd || bytes[position] == ASCII.ampersand || bytes[position] == ASCII.semicolon else { continue }
            appendItem(bytes[itemStart..<position], field: field, depth: depth, to: &output)
            if !isEnd { output.append(bytes[position]) }
            itemStart = position + 1
        }
    }

    private func appendItem(_ item: ArraySlice<UInt8>, field: FieldKind, depth: Int, to output: inout [UInt8]) {
        guard let equals = item.firstIndex(of: ASCII.equals) else {
            // A bare item (`?ghp_…`) is judged by its shape alone.
            output.append(contentsOf: hasShapedSecret(decodedValue(item), entropy: true) ? Self.markBytes : Array(item))
            return
        }
        let rawName = item[..<equals]
        let value = item[(equals + 1)...]
        if rawName.count >= min(SecretShapes.shortestShape, shortestTokenRule),
            hasShapedSecret(decodedValue(rawName), entropy: false)
        {
            // A name that is itself a credential (`?ghp_…=1`) is hidden; its value is judged below.
            output.append(contentsOf: Self.markBytes)
            output.append(ASCII.equals)
        } else {
            output.append(contentsOf: item[...equals])
        }
        guard !value.isEmpty else { return }
        let (name, settled) = RedactionNames.decodedName(rawName, plusIsSpace: true)
        let allowed =
            field == .query && box.hasQueryNames
            && RedactionNames.anyPart(of: RedactionNames.normalized(name), in: allowedQueryItems)
        if allowed {
            output.append(contentsOf: value)
            return
        }
        let secret =
            switch field {
            case .query: isSecretQueryName(name)
            case .form: isSecretBodyField(name)
            }
        let mayBeShaped = value.count >= min(SecretShapes.shortestShape, shortestTokenRule)
        if !settled || secret || valueHidesSecret(value, depth: depth)
            || (mayBeShaped && valueHasShapedSecret(value, name: name))
        {
            output.append(contentsOf: Self.markBytes)
        } else {
            output.append(contentsOf: value)
        }
    }

    /// Whether a value, decoded, holds a shaped secret; random-looking values count unless the
    /// name says they are identifiers.
    func valueHasShapedSecret(_ value: ArraySlice<UInt8>, name: ArraySlice<UInt8>) -> Bool {
        guard value.count >= min(SecretShapes.shortestShape, shortestTokenRule) else { return false }
        let entropy = !name.withUnsafeBufferPointer(RedactionLexicon.namesIdentifier)
        return hasShapedSecret(decodedValue(value), entropy: entropy)
    }

    /// A value percent-decoded (with `+` as a space) until it settles.
    func decodedValue(_ value: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard value.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return value }
        return PercentDecoding.decodeRepeatedly(value, plusIsSpace: true).0[...]
    }

    /// Whether an encoded value, once decoded, carries a secret the free-text rules would hide:
    /// a URL with user info or a secret query item, a `token=…` pair, and so on.
    ///
    /// - Parameters:
    ///   - value: The encoded value.
    ///   - depth: How deeply nested the value is; past three levels a value that could hold a
    ///     pair counts as secret, so hostile nesting costs bounded work.
    /// - Returns: `true` when the value should be hidden whole.
    func valueHidesSecret(_ value: ArraySlice<UInt8>, depth: Int) -> Bool {
        // Fast path: with no escapes, decoding changes nothing, and without `=`, `:` or `@`
        // there is no pair, scheme or user info to hide.
        let mayHide: (UInt8) -> Bool = {
            $0 == ASCII.equals || $0 == ASCII.colon || $0 == ASCII.at || $0 == UInt8(ascii: "%")
                || $0 == UInt8(ascii: "+")
        }
        guard value.contains(where: mayHide) else { return false }
        let (decoded, settled) = PercentDecoding.decodeRepeatedly(value, plusIsSpace: true)
        guard decoded.contains(where: { $0 == ASCII.equals || $0 == ASCII.colon || $0 == ASCII.at }) else {
            return false
        }
        guard settled, depth < 3 else { return true }
        return redactText(decoded[...], depth: depth + 1) != decoded
    }
}
