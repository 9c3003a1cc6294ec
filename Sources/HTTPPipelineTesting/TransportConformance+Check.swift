extension TransportConformance {
    /// One check of the contract: a sentence of behaviour, what a transport must do to keep it,
    /// and the exchange that shows it.
    ///
    /// Checks compare by ``id``. Their descriptions are their sentences, so that a parameterized
    /// test names each case by what it checks.
    public struct Check: Sendable, Hashable, CustomStringConvertible {
        /// A short stable name, e.g. `"request.methods"`.
        public let id: String
        /// What the check shows, as a sentence.
        public let sentence: String
        /// What a transport must do to keep it, as a phrase after "A transport must".
        public let requirement: String
        let body: @Sendable (Trial) async throws -> Void

        init(
            _ id: String, _ sentence: String, requirement: String,
            body: @escaping @Sendable (Trial) async throws -> Void
        ) {
            self.id = id
            self.sentence = sentence
            self.requirement = requirement
            self.body = body
        }

        public static func == (lhs: Check, rhs: Check) -> Bool { lhs.id == rhs.id }
        public func hash(into hasher: inout Hasher) { hasher.combine(id) }
        public var description: String { sentence }

        /// Every check, in the order ``TransportConformance/run(_:)`` runs them.
        public static let all: [Check] = [
            methodsAsWritten, targetByteForByte, requestFieldsInOrder, noAddedRequestFields, requestBodies,
            responseFieldsInOrder, interimResponsesSkipped, noBodyWhereNoneMayBe, closeDelimitedBody,
            transferCodingEndedByClose, trailersDropped,
            contentCodingAsSentOrMarked,
            redirectsReturned, challengesReturned, nothingCached, noCookiesOfItsOwn,
            refusedConnectionNotSent, connectionLostAfterSending, bodyCutMidway, chunkedBodyCutMidway,
            tlsFailurePermanent,
            cancelledWhileWaitingForHead, cancelledMidBody, deadlineCutsADrip,
            concurrentRequests, connectionReused, postSentOnceOnDeadConnection,
            oversizedHeadRefused, largeBodyStreams, transferMetricsOrdered,
        ]
    }
}
