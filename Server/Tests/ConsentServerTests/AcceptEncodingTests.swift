@testable import ConsentServer
import HTTPTypes
import Testing

/// `Accept-Encoding` as RFC 9110 §12.5.3 reads it, and the coding consentd answers in.
@Suite("Accept-Encoding negotiation")
struct AcceptEncodingTests {
    @Test("the chosen coding for each header value", arguments: [
        (nil, "identity"),
        ("", "identity"),
        ("gzip", "gzip"),
        ("GZIP, deflate", "gzip"),
        ("x-gzip", "gzip"),
        ("gzip;q=0", "identity"),
        ("gzip; q=0.000", "identity"),
        ("deflate, br", "identity"),
        ("*", "gzip"),
        ("*;q=0", nil),
        ("*;q=0, gzip", "gzip"),
        ("gzip;q=0, *", "identity"),
        ("identity;q=0", nil),
        ("identity;q=0, gzip;q=0.1", "gzip"),
        ("gzip;q=0.4, identity;q=0.5", "identity"),
        ("gzip;q=0.5, identity;q=0.5", "gzip"),
        ("*;q=0, identity", "identity"),
        ("gzip;q=2", "identity"),
        ("gzip;q=1.5", "identity"),
        ("gzip;q=0.5000", "identity"),
        ("gzip;q=abc", "identity"),
    ] as [(String?, String?)])
    func choice(header: String?, expected: String?) {
        var headers = HTTPFields()
        if let header { headers[.acceptEncoding] = header }
        #expect(AcceptEncoding(headers).choice() == expected, "Accept-Encoding: \(header ?? "(none)")")
    }

    @Test("several Accept-Encoding fields are read as one list")
    func severalFields() {
        var headers = HTTPFields()
        headers.append(HTTPField(name: .acceptEncoding, value: "identity;q=0"))
        headers.append(HTTPField(name: .acceptEncoding, value: "gzip"))
        #expect(AcceptEncoding(headers).choice() == "gzip")
    }
}
