/// Every HTML page of the sandbox goes through this one layout: the doctype, the
/// language, a mobile viewport (without it a phone lays a page out 980 px wide), the
/// title, and the style every page shares before its own.
///
/// The shared style keeps any page inside a 390 px phone screen and easy to tap: boxes
/// include their padding, long words (ids, URLs, tokens) break rather than widen the
/// page, preformatted text wraps, and every button, select, and link is a touch target
/// at least 44 px high (Apple's and WCAG's minimum).
enum PageLayout {
    static let sharedStyle = """
    *,*::before,*::after{box-sizing:border-box} html{-webkit-text-size-adjust:100%}
    body{overflow-wrap:anywhere} pre,code{white-space:pre-wrap;overflow-wrap:anywhere} img,svg,table{max-width:100%}
    button,select,input[type=submit]{min-height:44px} a{display:inline-flex;align-items:center;min-height:44px}

    """

    /// A page titled `title` (escaped here), with `style` after the shared one and `body`
    /// as given (its values escaped by the caller).
    static func page(title: String, style: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
        <title>\(PageLayout.escape(title))</title><style>\(sharedStyle)\(style)</style></head>
        <body>\(body)</body></html>
        """
    }

    /// `text` safe in an element's content and in a quoted attribute value: `&`, `<`,
    /// `>`, `"` and `'` as entities. Read by Unicode scalar, not by character: a quote
    /// followed by a combining mark is one `Character` that equals no quote, yet its
    /// first byte still ends the attribute.
    static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { entities[$0] != nil }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let entity = entities[scalar] { out.append(contentsOf: entity.unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    private static let entities: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"]
}
