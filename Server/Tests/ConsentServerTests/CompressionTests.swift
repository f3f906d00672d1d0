@testable import ConsentServer
import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// Response compression (``CompressionMiddleware``): one mechanism for every answer, gzip when the
/// client takes it and the body is large enough to gain from it.
@Suite("Response compression")
struct CompressionTests {
    static func session(_ client: some TestClientProtocol, key: String, region: String, acceptEncoding: String?) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "text/plain;charset=UTF-8"]
        if let acceptEncoding { headers[.acceptEncoding] = acceptEncoding }
        return try await client.send(.post, "/v1/web/session", json: #"{"credential":"\#(key)","debugRegion":"\#(region)","language":"en"}"#,
                                     headers: headers)
    }

    @Test("a page view's answer with the notice is gzipped for a client that accepts gzip, and reads as the same JSON")
    func sessionAnswerIsGzipped() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let plain = try await Self.session(client, key: key, region: "eea", acceptEncoding: nil)
            let zipped = try await Self.session(client, key: key, region: "eea", acceptEncoding: "gzip, deflate, br")
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(zipped.headers[.contentEncoding] == "gzip")
            #expect(zipped.headers[values: .vary].contains("Accept-Encoding") && plain.headers[values: .vary].contains("Accept-Encoding"))
            #expect(zipped.body.readableBytes < plain.body.readableBytes / 3)
            var body = zipped.body
            let unzipped = try body.decompress(with: .gzip())
            let sent = try #require(try JSONSerialization.jsonObject(with: Data(unzipped.readableBytesView)) as? [String: Any])
            let expected = try #require(try JSONSerialization.jsonObject(with: Data(plain.body.readableBytesView)) as? [String: Any])
            #expect(sent["document"] as? NSDictionary == expected["document"] as? NSDictionary)
        }
    }

    @Test("an answer under 1 KiB is sent as it is, even to a client that accepts gzip")
    func tinyAnswerIsNotCompressed() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let outside = try await Self.session(client, key: key, region: "not_eea", acceptEncoding: "gzip")
            #expect(outside.status == .ok && outside.body.readableBytes < 1024)
            #expect(outside.headers[.contentEncoding] == nil)
        }
    }

    @Test("a client that refuses gzip (q=0) gets the answer as it is")
    func refusedGzipIsRespected() async throws {
        let server = try await TestServer.make()
        try await server.test { client async throws in
            let key = try await server.consentd.demoSite.key(server.consentd.keys)
            let answer = try await Self.session(client, key: key, region: "eea", acceptEncoding: "gzip;q=0, identity")
            #expect(answer.status == .ok && answer.headers[.contentEncoding] == nil)
            #expect(try JSONSerialization.jsonObject(with: Data(answer.body.readableBytesView)) is [String: Any])
        }
    }

    @Test("media types: text, JSON and JavaScript are compressed; images and octet streams are not")
    func compressibleMediaTypes() {
        for type in ["application/json; charset=utf-8", "text/html; charset=utf-8", "text/javascript", "text/css", "application/problem+json"] {
            #expect(CompressionMiddleware<ConsentdContext>.isCompressible(type), "\(type)")
        }
        for type in ["image/png", "application/octet-stream", "font/woff2"] {
            #expect(!CompressionMiddleware<ConsentdContext>.isCompressible(type), "\(type)")
        }
        #expect(!CompressionMiddleware<ConsentdContext>.isCompressible(nil))
    }
}
