import Foundation
import TestSupport
import Testing

/// `If-None-Match` on a rendered output (RFC 9110 13.1.2): `*`, or a list of entity tags
/// compared weakly; 304 when one matches, the file when none does or the field is not a list
/// of entity tags.
@Suite(.serialized) struct ConditionalGetTests {
    @Test(arguments: RenderStoreTests.Backend.available)
    func ifNoneMatchTakesAListOfTagsWeakOrStrongOrAStar(_ backend: RenderStoreTests.Backend) async throws {
        try await LiveService.with(backend) { live in
            let id = try await live.renderAsAlice()
            let output = "/v1/renders/\(id)/output", owner = LiveService.auth(live.alice)
            let whole = try await live.http.request("GET", output, fields: [owner])
            let etag = try #require(whole.header("ETag"))
            #expect(whole.status == 200 && etag.hasPrefix("\"") && etag.count == 66)
            let other = "\"" + String(repeating: "0", count: 64) + "\""
            let matching = [[etag], ["W/" + etag], ["\(other), \(etag)"], ["\(other),W/\(etag)"], ["W/\"x\" , \t\(etag) ,"], ["*"],
                            [other, etag], ["\(other), W/\(etag)", "\"y\""]]
            for fields in matching {
                for range in [nil, "Range: bytes=0-99"] {
                    let answer = try await live.http.request("GET", output, fields: [owner] + fields.map { "If-None-Match: \($0)" } + (range.map { [$0] } ?? []))
                    #expect(answer.status == 304 && answer.body.isEmpty, "\(fields) \(range ?? ""): \(answer.status)")
                    #expect(answer.header("ETag") == etag, "\(fields)")
                }
            }
            let unmatched = [[other], ["W/\(other), \"x\""], [String(etag.dropFirst().dropLast())], [String(etag.dropLast())], ["\(etag) junk"],
                             ["* , \(etag)".replacingOccurrences(of: etag, with: other)], [""]]
            for fields in unmatched {
                let answer = try await live.http.request("GET", output, fields: [owner] + fields.map { "If-None-Match: \($0)" })
                #expect(answer.status == 200 && answer.body == whole.body, "\(fields): \(answer.status)")
            }
        }
    }
}
