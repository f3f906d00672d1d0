import Testing

/// `.timeLimit(.minutes(minutes))` where Swift Testing has it (iOS 16, macOS 13, tvOS 16,
/// watchOS 9); no limit on older systems, where the test still runs.
///
/// An `@available` on the test would not cover `.timeLimit` written in its `@Test(...)`: the
/// macro evaluates traits in a function of its own, without the test's availability
/// (swift-testing rdar://127811571), so the check is made here.
func timeLimitWhereAvailable(minutes: UInt64) -> any TestTrait {
    if #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *) {
        return .timeLimit(.minutes(minutes))
    }
    return .enabled(if: true, "no time limit before iOS 16 and macOS 13")
}
