@testable import CitconSandbox
import Foundation
import Testing

/// Checks on a create's path that no longer ask Foundation's `CharacterSet` (slow on
/// Linux) give exactly what they gave when they did.
@Suite("Foundation shortcuts: bearer credentials and redirect schemes as before")
struct FoundationShortcutTests {
    /// What the header gave before the fast path: Foundation's trimming of the rest.
    static func reference(_ header: String?) -> String? {
        guard let header, header.hasPrefix("Bearer ") else { return nil }
        let value = String(header.dropFirst("Bearer ".count)).trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }

    @Test("chosen headers: tokens, spaces and tabs around them, Unicode spaces, other schemes, nothing")
    func chosenHeaders() {
        let headers: [String?] = [
            nil, "", "Bearer", "Bearer ", "Bearer  ", "Bearer st_abc", "Bearer  st_abc", "Bearer st_abc ",
            "Bearer \tst_abc\t", "Bearer st abc", "Bearer \u{00A0}st_abc\u{3000}", "Bearer st_abc\u{2003}",
            "Bearer \u{00A0}", "Bearer é", "Bearer x", "Bearer ~", "Bearer !", "bearer st_abc", "Basic st_abc",
            "Bearer\tst_abc", "Bearer st_abc\n", "Bearer \nst_abc", "Bearer \u{7F}st_abc", "Bearer st_abc\u{1F}",
        ]
        for header in headers {
            #expect(SandboxAPI.bearer(header) == Self.reference(header), "\(String(describing: header))")
        }
    }

    @Test("random headers: any mix of ASCII, spaces of every kind and other characters")
    func randomHeaders() {
        var random = ChargeRecordDocumentTests.Random(state: 0x5EED_BEAE)
        let pool: [Character] = (0x00..<0x80).map { Character(Unicode.Scalar(UInt8($0))) }
            + ["\u{00A0}", "\u{1680}", "\u{2000}", "\u{2009}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{85}", "\u{2028}", "é", "😀"]
        for _ in 0..<20_000 {
            let rest = String((0..<random.below(8)).map { _ in pool[random.below(pool.count)] })
            let header = (random.below(8) == 0 ? "Basic " : "Bearer ") + rest
            #expect(SandboxAPI.bearer(header) == Self.reference(header), "\(header.unicodeScalars.map { $0.value })")
        }
    }

    /// What `isSafeRedirect` answered when it asked `CharacterSet`.
    static func safeRedirectReference(_ url: String) -> Bool {
        guard let colon = url.firstIndex(of: ":") else { return false }
        let scheme = url[..<colon].lowercased()
        guard let first = scheme.unicodeScalars.first, first.isASCII, CharacterSet.letters.contains(first),
              scheme.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "+-.".unicodeScalars.contains($0)) })
        else { return false }
        if scheme == "http" || scheme == "https" { return url.dropFirst(scheme.count).hasPrefix("://") }
        return !["javascript", "data", "vbscript", "file", "blob", "about", "filesystem", "view-source"].contains(scheme)
    }

    @Test("redirect URLs: chosen schemes and random ones give what the CharacterSet version gave")
    func redirectSchemes() {
        let urls = ["https://shop.example/ok", "http://x", "HTTPS://x", "http:/x", "my-app://paid", "my.app+1://x",
                    "1app://x", "javascript:alert(1)", "JavaScript:x", "data:text/html,x", "a:", ":x", "", "no colon",
                    "é://x", "aé://x", "a_b://x", "[a]://x", "ａ://x", "a\u{0}://x", "view-source:x", "blob:x", "@://x"]
        for url in urls {
            #expect(SandboxAPI.isSafeRedirect(url) == Self.safeRedirectReference(url), "\(url)")
        }
        var random = ChargeRecordDocumentTests.Random(state: 0xFEED_FACE)
        let pool: [Character] = (0x20..<0x80).map { Character(Unicode.Scalar(UInt8($0))) } + ["é", "ß", "ａ", "١", "Ⅻ", "\u{301}"]
        for _ in 0..<20_000 {
            let scheme = String((0..<random.below(7)).map { _ in pool[random.below(pool.count)] })
            let url = scheme + (random.chance() ? "://host/path" : ":rest")
            #expect(SandboxAPI.isSafeRedirect(url) == Self.safeRedirectReference(url), "\(url.unicodeScalars.map { $0.value })")
        }
    }
}
