import Foundation
import Testing
@testable import ConsentKit

/// Reading `Cache-Control`.
@Suite("Vendor list: Cache-Control")
struct CacheControlTests {
    @Test("the directives give how long a copy is fresh and whether it may be stored", arguments: [
        ("public, max-age=3600", 3600, false),
        ("MAX-AGE=7", 7, false),
        ("max-age=\"60\"", 60, false),
        ("max-age=-5", 0, false),
        ("max-age=soon", 0, false),
        ("no-cache, max-age=60", 0, false),
        ("no-store", 0, true),
        ("=, ,max-age=10", 10, false),
        ("", 0, false),
    ] as [(String, TimeInterval, Bool)])
    func directives(header: String, maxAge: TimeInterval, noStore: Bool) {
        let control = CacheControl(header: header)

        #expect(control.maxAge == maxAge)
        #expect(control.noStore == noStore)
    }

    @Test("a copy is fresh from its validation until max-age has passed, and never before it")
    func freshness() {
        let validated = Date(timeIntervalSince1970: 1_000_000)

        #expect(CacheControl.isFresh(validatedAt: validated, maxAge: 60, now: validated))
        #expect(CacheControl.isFresh(validatedAt: validated, maxAge: 60, now: validated + 59.9))
        #expect(!CacheControl.isFresh(validatedAt: validated, maxAge: 60, now: validated + 60))
        #expect(!CacheControl.isFresh(validatedAt: validated, maxAge: 60, now: validated - 1))
    }
}
