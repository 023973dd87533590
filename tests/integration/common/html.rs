//! A small well-formedness check for the pages `tarpon explain --html` writes:
//! the elements they use are balanced, ids are unique, the embedded JSON
//! parses (into the crate's own `Json` value), and nothing refers to the
//! network. Not an HTML parser: it knows
//! the subset the reports emit (no unquoted `>` in attributes, no CDATA).

use std::collections::{BTreeMap, BTreeSet};

pub use tarpon::explain::json::Json;

/// Elements that never have a closing tag.
const VOID: [&str; 6] = ["meta", "input", "br", "img", "link", "hr"];
/// Elements whose content is raw text up to their closing tag.
const RAW_TEXT: [&str; 3] = ["script", "style", "title"];

struct JsonParser<'a> {
    text: &'a [u8],
    at: usize,
}

impl JsonParser<'_> {
    fn skip_space(&mut self) {
        while self.text.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        self.skip_space();
        if self.text.get(self.at) == Some(&byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(format!("expected '{}' at byte {}", byte as char, self.at))
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect(b'"')?;
        let mut out = Vec::new();
        loop {
            let b = *self.text.get(self.at).ok_or("unterminated string")?;
            self.at += 1;
            match b {
                b'"' => return String::from_utf8(out).map_err(|e| e.to_string()),
                b'\\' => {
                    let e = *self.text.get(self.at).ok_or("bad escape")?;
                    self.at += 1;
                    match e {
                        b'"' | b'\\' | b'/' => out.push(e),
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'b' | b'f' => out.push(b' '),
                        b'u' => {
                            let hex = self.text.get(self.at..self.at + 4).ok_or("bad \\u")?;
                            let code = u32::from_str_radix(std::str::from_utf8(hex).unwrap(), 16)
                                .map_err(|e| e.to_string())?;
                            self.at += 4;
                            let c = char::from_u32(code).unwrap_or('\u{fffd}');
                            out.extend_from_slice(c.to_string().as_bytes());
                        }
                        _ => return Err(format!("bad escape at byte {}", self.at)),
                    }
                }
                b if b < 0x20 => return Err(format!("control character in string at {}", self.at)),
                b => out.push(b),
            }
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        self.skip_space();
        let rest = &self.text[self.at..];
        for (word, value) in [
            ("null", Json::Null),
            ("true", Json::Bool(true)),
            ("false", Json::Bool(false)),
        ] {
            if rest.starts_with(word.as_bytes()) {
                self.at += word.len();
                return Ok(value);
            }
        }
        match rest.first() {
            Some(b'"') => self.string().map(Json::Str),
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                self.skip_space();
                if self.text.get(self.at) == Some(&b']') {
                    self.at += 1;
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value()?);
                    self.skip_space();
                    match self.text.get(self.at) {
                        Some(b',') => self.at += 1,
                        Some(b']') => {
                            self.at += 1;
                            return Ok(Json::Arr(items));
                        }
                        _ => return Err(format!("expected ',' or ']' at byte {}", self.at)),
                    }
                }
            }
            Some(b'{') => {
                self.at += 1;
                let mut fields = Vec::new();
                self.skip_space();
                if self.text.get(self.at) == Some(&b'}') {
                    self.at += 1;
                    return Ok(Json::Obj(fields));
                }
                loop {
                    let key = self.string()?;
                    self.expect(b':')?;
                    fields.push((key, self.value()?));
                    self.skip_space();
                    match self.text.get(self.at) {
                        Some(b',') => self.at += 1,
                        Some(b'}') => {
                            self.at += 1;
                            return Ok(Json::Obj(fields));
                        }
                        _ => return Err(format!("expected ',' or '}}' at byte {}", self.at)),
                    }
                }
            }
            _ => {
                let len = rest
                    .iter()
                    .take_while(|b| b.is_ascii_digit() || b"+-.eE".contains(b))
                    .count();
                let text = std::str::from_utf8(&rest[..len]).unwrap();
                self.at += len;
                text.parse()
                    .map(Json::Num)
                    .map_err(|_| format!("bad value at byte {}", self.at - len))
            }
        }
    }
}

pub fn parse_json(text: &str) -> Result<Json, String> {
    let mut p = JsonParser {
        text: text.as_bytes(),
        at: 0,
    };
    let value = p.value()?;
    p.skip_space();
    if p.at != text.len() {
        return Err(format!("trailing text at byte {}", p.at));
    }
    Ok(value)
}

/// What the check found in a page.
pub struct Page {
    pub ids: BTreeSet<String>,
    /// How often each element occurs.
    pub elements: BTreeMap<String, usize>,
    /// The `<script type="application/json" id="data">` document.
    pub data: Json,
}

fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    tag[start..].find('"').map(|end| &tag[start..start + end])
}

/// Checks a page and reports what is in it, or the first fault.
pub fn check(html: &str) -> Result<Page, String> {
    if !html.starts_with("<!DOCTYPE html>") {
        return Err("no <!DOCTYPE html>".into());
    }
    if !html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">") {
        return Err("no viewport meta".into());
    }
    for scheme in ["http://", "https://"] {
        let outside = html.replace("http://www.w3.org/2000/svg", "");
        if let Some(at) = outside.find(scheme) {
            return Err(format!(
                "network reference: {}",
                &outside[at..(at + 60).min(outside.len())]
            ));
        }
    }
    let mut stack: Vec<String> = Vec::new();
    let mut ids = BTreeSet::new();
    let mut elements = BTreeMap::new();
    let mut data = None;
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        rest = &rest[open..];
        if rest.starts_with("<!") {
            rest = &rest[rest.find('>').ok_or("unterminated <!")? + 1..];
            continue;
        }
        let end = rest.find('>').ok_or("unterminated tag")?;
        let tag = &rest[..=end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix("</") {
            let name = name.trim_end_matches('>').trim();
            match stack.pop() {
                Some(top) if top == name => continue,
                top => return Err(format!("</{name}> closes {top:?}")),
            }
        }
        let name: String = tag[1..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if name.is_empty() {
            return Err(format!("bad tag {tag}"));
        }
        *elements.entry(name.clone()).or_insert(0) += 1;
        if let Some(id) = attribute(tag, "id")
            && !ids.insert(id.to_string())
        {
            return Err(format!("duplicate id {id}"));
        }
        if tag.ends_with("/>") || VOID.contains(&name.as_str()) {
            continue;
        }
        if RAW_TEXT.contains(&name.as_str()) {
            let close = format!("</{name}>");
            let body_end = rest.find(&close).ok_or(format!("unclosed <{name}>"))?;
            if name == "script" && attribute(tag, "type") == Some("application/json") {
                data = Some(parse_json(&rest[..body_end]).map_err(|e| format!("data: {e}"))?);
            }
            rest = &rest[body_end + close.len()..];
            continue;
        }
        stack.push(name);
    }
    if !stack.is_empty() {
        return Err(format!("unclosed elements: {stack:?}"));
    }
    Ok(Page {
        ids,
        elements,
        data: data.ok_or("no application/json data block")?,
    })
}
