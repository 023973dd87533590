//! The page around every report: viewport and shared style, the data block,
//! an error hook that writes script errors into the page (so a headless
//! browser's DOM dump shows them), and small DOM helpers for the mode scripts.

use crate::explain::json::Json;

/// Text safe inside HTML elements and quoted attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON that cannot end its `<script>` block: every `<` (only ever inside
/// strings) becomes `\u003c`, so neither `</script>` nor `<!--` can appear.
pub fn script_json(data: &Json) -> String {
    data.to_string().replace('<', "\\u003c")
}

const STYLE: &str = include_str!("page.css");
const PRELUDE: &str = include_str!("page.js");
/// Installed first, in its own script, so that it also reports a script that
/// fails to parse: errors go into html[data-errors] and the console.
const ERROR_HOOK: &str = "window.onerror = function (msg, src, line) { var r = document.documentElement; \
     r.setAttribute('data-errors', (r.getAttribute('data-errors') || '') + msg + ' (line ' + line + '); '); };";

/// One report page.
pub struct Page<'a> {
    pub title: &'a str,
    /// What the page shows, one line under the title (plain text).
    pub subtitle: &'a str,
    /// The mode's own style rules.
    pub style: &'a str,
    /// The body's markup (already escaped).
    pub body: &'a str,
    /// The mode's document, readable by the script as `DATA`.
    pub data: &'a Json,
    /// The mode's script, run after the body is parsed.
    pub script: &'a str,
}

impl Page<'_> {
    pub fn render(&self) -> String {
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <link rel=\"icon\" href=\"data:,\">\n<title>{title}</title>\n<style>\n{STYLE}{style}</style>\n</head>\n<body>\n\
             <header><h1>{title}</h1><p class=\"sub\">{subtitle}</p></header>\n<main>\n{body}</main>\n\
             <footer>tarpon explain</footer>\n\
             <script>{ERROR_HOOK}</script>\n\
             <script type=\"application/json\" id=\"data\">{data}</script>\n\
             <script>\n{PRELUDE}{script}\nready();\n</script>\n</body>\n</html>\n",
            title = escape(self.title),
            subtitle = escape(self.subtitle),
            style = self.style,
            body = self.body,
            data = script_json(self.data),
            script = self.script,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_cannot_close_its_script_block() {
        let data = Json::obj([("x", Json::str("</script><!-- & \"q\""))]);
        let text = script_json(&data);
        assert!(!text.contains('<'), "{text}");
        assert_eq!(text, r#"{"x":"\u003c/script>\u003c!-- & \"q\""}"#);
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
