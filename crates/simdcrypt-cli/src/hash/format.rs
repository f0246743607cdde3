//! The text formats of GNU coreutils' `sha256sum` family (coreutils 9.1,
//! `src/digest.c`): output lines with their `\` escape, the parsing of
//! checksum lines for `--check`, and the shell-style quoting (`quotef`) of
//! file names in messages.

use std::borrow::Cow;

/// Whether a name needs the escaped form: it holds `\`, a newline or a
/// carriage return (`problematic_chars`).
pub fn needs_escape(name: &[u8]) -> bool {
    name.iter().any(|&b| matches!(b, b'\\' | b'\n' | b'\r'))
}

/// Appends `name`, with `\\`, `\n` and `\r` written as escapes when
/// `escape` (`print_filename`).
pub fn push_name(out: &mut Vec<u8>, name: &[u8], escape: bool) {
    if !escape {
        out.extend_from_slice(name);
        return;
    }
    for &b in name {
        match b {
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\\' => out.extend_from_slice(b"\\\\"),
            _ => out.push(b),
        }
    }
}

/// Appends `bytes` in lower-case hex.
pub fn push_hex(out: &mut Vec<u8>, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)]);
        out.push(DIGITS[usize::from(b & 15)]);
    }
}

/// How a digest line is written.
#[derive(Clone, Copy, Debug)]
pub struct LineStyle<'t> {
    /// BSD style `TAG (NAME) = HEX` (`--tag`).
    pub tag: Option<&'t str>,
    /// `*` before the name: binary mode (`-b`).
    pub binary: bool,
    /// NUL line ends and no escaping (`-z`).
    pub zero: bool,
}

/// Appends one output line for `name` (`output_file`).
pub fn push_line(out: &mut Vec<u8>, style: LineStyle<'_>, name: &[u8], digest: &[u8]) {
    let escape = !style.zero && needs_escape(name);
    if escape {
        out.push(b'\\');
    }
    match style.tag {
        Some(tag) => {
            out.extend_from_slice(tag.as_bytes());
            out.extend_from_slice(b" (");
            push_name(out, name, escape);
            out.extend_from_slice(b") = ");
            push_hex(out, digest);
        }
        None => {
            push_hex(out, digest);
            out.push(b' ');
            out.push(if style.binary { b'*' } else { b' ' });
            push_name(out, name, escape);
        }
    }
    out.push(if style.zero { 0 } else { b'\n' });
}

/// Undoes [`push_name`]'s escapes; `None` for a lone `\` at the end, a `\`
/// before anything but `n`, `r` or `\`, or a NUL (`filename_unescape`).
fn unescape(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    let mut bytes = s.iter();
    while let Some(&b) = bytes.next() {
        match b {
            b'\\' => out.push(match bytes.next()? {
                b'n' => b'\n',
                b'r' => b'\r',
                b'\\' => b'\\',
                _ => return None,
            }),
            0 => return None,
            _ => out.push(b),
        }
    }
    Some(out)
}

/// A C string's view of `s`: up to its first NUL.
fn c_str(s: &[u8]) -> &[u8] {
    s.iter().position(|&b| b == 0).map_or(s, |n| &s[..n])
}

fn is_white(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// One well-formed checksum line.
#[derive(Debug, PartialEq, Eq)]
pub struct CheckLine<'a> {
    /// The hex digest as written (either case).
    pub hex: &'a [u8],
    /// The file name, unescaped.
    pub name: Cow<'a, [u8]>,
}

/// Parses checksum lines as `sha256sum -c` does (`split_3`): GNU lines
/// `HEX  NAME` / `HEX *NAME`, BSD lines `TAG (NAME) = HEX`, and the "BSD
/// reversed" `HEX NAME`, which may not be mixed with GNU lines (the choice
/// is made by the first such line and kept, as coreutils keeps it for the
/// whole run).
#[derive(Debug)]
pub struct LineParser<'t> {
    /// The BSD tag, e.g. `SHA256`.
    tag: &'t str,
    /// Hex digits of a digest.
    hex_len: usize,
    /// `None` until a GNU or reversed line decides.
    bsd_reversed: Option<bool>,
}

impl<'t> LineParser<'t> {
    /// A parser for digests of `digest_len` bytes tagged `tag`.
    pub fn new(tag: &'t str, digest_len: usize) -> LineParser<'t> {
        LineParser {
            tag,
            hex_len: 2 * digest_len,
            bsd_reversed: None,
        }
    }

    fn valid_hex(&self, s: &[u8]) -> bool {
        s.len() == self.hex_len && s.iter().all(u8::is_ascii_hexdigit)
    }

    /// The line without its line end, or `None` when it is improperly
    /// formatted.
    pub fn parse<'a>(&mut self, s: &'a [u8]) -> Option<CheckLine<'a>> {
        let mut i = s.iter().take_while(|&&b| is_white(b)).count();
        let escaped = s.get(i) == Some(&b'\\');
        if escaped {
            i += 1;
        }
        let rest = &s[i..];
        if let Some(after) = rest.strip_prefix(self.tag.as_bytes()) {
            let after = after.strip_prefix(b" ").unwrap_or(after);
            return self.parse_bsd(after.strip_prefix(b"(")?, escaped);
        }
        // HEX, one blank, then at least one byte of name.
        if rest.len() < self.hex_len + 2 {
            return None;
        }
        let hex_end = rest
            .iter()
            .position(|&b| b == 0 || is_white(b))
            .unwrap_or(rest.len());
        // (A NUL ends the digest like a blank, as in C.)
        if hex_end == rest.len() {
            return None;
        }
        let hex = &rest[..hex_end];
        if !self.valid_hex(hex) {
            return None;
        }
        let mut name = &rest[hex_end + 1..];
        if name.len() == 1 || !matches!(name.first(), Some(b' ' | b'*')) {
            // "BSD reversed": `HEX NAME`.
            if self.bsd_reversed == Some(false) {
                return None;
            }
            self.bsd_reversed = Some(true);
        } else if self.bsd_reversed != Some(true) {
            self.bsd_reversed = Some(false);
            name = &name[1..];
        }
        let name = if escaped {
            Cow::Owned(unescape(name)?)
        } else {
            Cow::Borrowed(c_str(name))
        };
        Some(CheckLine { hex, name })
    }

    /// The part of a BSD line after `TAG (` (`bsd_split_3`).
    fn parse_bsd<'a>(&self, s: &'a [u8], escaped: bool) -> Option<CheckLine<'a>> {
        let close = s.iter().rposition(|&b| b == b')')?;
        let name = &s[..close];
        let mut rest = &s[close + 1..];
        rest = &rest[rest.iter().take_while(|&&b| is_white(b)).count()..];
        rest = rest.strip_prefix(b"=")?;
        rest = &rest[rest.iter().take_while(|&&b| is_white(b)).count()..];
        if !self.valid_hex(rest) {
            return None;
        }
        let hex = rest;
        let name = if escaped {
            Cow::Owned(unescape(name)?)
        } else {
            Cow::Borrowed(c_str(name))
        };
        Some(CheckLine { hex, name })
    }
}

/// Whether the hex digest `hex` (either case) spells `digest`.
pub fn hex_matches(hex: &[u8], digest: &[u8]) -> bool {
    let mut want = Vec::with_capacity(2 * digest.len());
    push_hex(&mut want, digest);
    hex.eq_ignore_ascii_case(&want)
}

/// A message of `std::io::Error` as `strerror` writes it, without Rust's
/// ` (os error N)`.
pub fn strerror(e: &std::io::Error) -> String {
    let text = e.to_string();
    match e.raw_os_error() {
        Some(code) => text
            .strip_suffix(&format!(" (os error {code})"))
            .map_or_else(|| text.clone(), str::to_owned),
        None => text,
    }
}

/// What [`decode`] finds at the start of a byte string.
enum Decoded {
    /// A character and its length in bytes.
    Char(char, usize),
    /// An invalid sequence: one byte is taken.
    Invalid,
    /// A sequence cut short by the end: the rest is taken.
    Incomplete,
}

fn decode(s: &[u8]) -> Decoded {
    let head = &s[..s.len().min(4)];
    let valid = match std::str::from_utf8(head) {
        Ok(text) => text,
        Err(e) if e.valid_up_to() > 0 => {
            std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(e) if e.error_len().is_none() && head.len() == s.len() => {
            return Decoded::Incomplete;
        }
        Err(_) => return Decoded::Invalid,
    };
    match valid.chars().next() {
        Some(c) => Decoded::Char(c, c.len_utf8()),
        None => Decoded::Invalid,
    }
}

/// Whether glibc's `iswprint` holds, near enough: not a control character.
fn printable(c: char) -> bool {
    !c.is_control()
}

/// A file name quoted for a message as coreutils' `quotef` does (gnulib's
/// `shell_escape_quoting_style` with `:` quoted too, in a UTF-8 locale):
/// bare when harmless, else in single quotes with `$'\n'`-style escapes, or
/// in double quotes when the only trouble is an apostrophe.
pub fn quotef(name: &[u8]) -> String {
    let out = if needs_quotes(name) {
        shell_always(name)
    } else {
        name.to_vec()
    };
    String::from_utf8_lossy(&out).into_owned()
}

/// The elided-quotes pass of gnulib's `quotearg_buffer_restyled`: whether
/// anything forces the outer quotes.
fn needs_quotes(s: &[u8]) -> bool {
    if s.is_empty() {
        return true;
    }
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        let forces = match c {
            b'{' | b'}' => s.len() == 1,
            b'#' | b'~' => i == 0,
            b' ' | b'!' | b'"' | b'$' | b'&' | b'(' | b')' | b'*' | b';' | b'<' | b'=' | b'>'
            | b'[' | b'^' | b'`' | b'|' | b'\'' | b'?' | b'\\' | b':' => true,
            0x80.. => match decode(&s[i..]) {
                Decoded::Char(ch, len) => {
                    i += len - 1;
                    !printable(ch)
                }
                Decoded::Invalid | Decoded::Incomplete => true,
            },
            _ => !(0x20..0x7f).contains(&c),
        };
        if forces {
            return true;
        }
        i += 1;
    }
    false
}

/// The forced pass (`shell_escape_always_quoting_style`), as coreutils 9.1's
/// gnulib runs it: on an apostrophe it first only measures; if something
/// else needs an escape it writes the string again, without resetting
/// whether a `$'…'` part is open (so `a'b\n` gives `'''a'\''b'$'\n'`).
fn shell_always(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len() + 8);
    // An unclosed `'$'…` escape part.
    let mut pending = false;
    let mut encountered_quote = false;
    let mut all_compatible = true;
    let mut reprocessed = false;
    loop {
        out.clear();
        out.push(b'\'');
        let mut i = 0;
        while i < s.len() {
            let c = s[i];
            let escape = match c {
                b'\n' => Some(b'n'),
                b'\r' => Some(b'r'),
                b'\t' => Some(b't'),
                0x07 => Some(b'a'),
                0x08 => Some(b'b'),
                0x0c => Some(b'f'),
                0x0b => Some(b'v'),
                _ => None,
            };
            let mut start_escape = |out: &mut Vec<u8>| {
                if !pending {
                    out.extend_from_slice(b"'$'");
                    pending = true;
                }
                out.push(b'\\');
            };
            if let Some(e) = escape {
                start_escape(&mut out);
                out.push(e);
                all_compatible = false;
                i += 1;
                continue;
            }
            // Bytes written as octal escapes: controls, invalid sequences.
            let octal = match c {
                b'\'' => {
                    encountered_quote = true;
                    out.extend_from_slice(b"'\\''");
                    pending = false;
                    i += 1;
                    continue;
                }
                0x80.. => match decode(&s[i..]) {
                    Decoded::Char(ch, len) if printable(ch) => {
                        close_escape(&mut out, &mut pending);
                        out.extend_from_slice(&s[i..i + len]);
                        i += len;
                        continue;
                    }
                    Decoded::Char(_, len) => len,
                    Decoded::Invalid => 1,
                    Decoded::Incomplete => s.len() - i,
                },
                0x20..=0x7e => {
                    all_compatible &= shell_and_c_compatible(s, i);
                    close_escape(&mut out, &mut pending);
                    out.push(c);
                    i += 1;
                    continue;
                }
                _ => 1,
            };
            for &b in &s[i..i + octal] {
                start_escape(&mut out);
                out.extend_from_slice(&[b'0' + (b >> 6), b'0' + ((b >> 3) & 7), b'0' + (b & 7)]);
            }
            all_compatible = false;
            i += octal;
        }
        if encountered_quote {
            if all_compatible {
                // Only apostrophes (and harmless bytes): C-style quotes.
                let mut quoted = Vec::with_capacity(s.len() + 2);
                quoted.push(b'"');
                quoted.extend_from_slice(s);
                quoted.push(b'"');
                return quoted;
            }
            if !reprocessed {
                reprocessed = true;
                continue;
            }
        }
        out.push(b'\'');
        return out;
    }
}

/// Closes an open `$'…'` part before a plain byte (`END_ESC`).
fn close_escape(out: &mut Vec<u8>, pending: &mut bool) {
    if *pending {
        out.extend_from_slice(b"''");
        *pending = false;
    }
}

/// Whether the printable ASCII byte at `s[i]` reads the same inside C's
/// double quotes as inside the shell's single quotes (gnulib's
/// `c_and_shell_quote_compat`).
fn shell_and_c_compatible(s: &[u8], i: usize) -> bool {
    match s[i] {
        b'{' | b'}' => s.len() == 1,
        b'#' | b'~' => i == 0,
        b'!' | b'"' | b'$' | b'&' | b'(' | b')' | b'*' | b';' | b'<' | b'=' | b'>' | b'['
        | b'^' | b'`' | b'|' | b'?' | b'\\' => false,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotef_as_coreutils_9_1() {
        // Each pair as `sha256sum` 9.1 printed it in a C.UTF-8 locale.
        let cases: &[(&[u8], &str)] = &[
            (b"nofile", "nofile"),
            (b"no file", "'no file'"),
            (b"x\ny", "'x'$'\\n''y'"),
            (b"it's", "\"it's\""),
            ("é".as_bytes(), "é"),
            (b"\x01", "''$'\\001'"),
            (b"a$b", "'a$b'"),
            (b"a:b", "'a:b'"),
            (b"~a", "'~a'"),
            (b"a~b", "a~b"),
            (b"a#b", "a#b"),
            (b"#a", "'#a'"),
            (b"a\tb", "'a'$'\\t''b'"),
            (b"", "''"),
            (b"a'b$c", "'a'\\''b$c'"),
            (b"a'b\n", "'''a'\\''b'$'\\n'"),
            (b"'\n", "''\\'''$'\\n'"),
            (b"\n'", "''$'\\n'\\'''"),
            (b"x'\ty", "'x'\\'''$'\\t''y'"),
            (b"a'b\\c", "'a'\\''b\\c'"),
            (b"a'b c", "\"a'b c\""),
            (b"a'b\x01", "'''a'\\''b'$'\\001'"),
            (b"''", "\"''\""),
            (b"a\\b", "'a\\b'"),
            (b"standard input", "'standard input'"),
        ];
        for (name, want) in cases {
            assert_eq!(quotef(name), *want, "{:?}", String::from_utf8_lossy(name));
        }
    }

    #[test]
    fn escapes_round_trip() {
        let name = b"a\\b\nc\rd";
        let mut out = Vec::new();
        push_name(&mut out, name, true);
        assert_eq!(out, b"a\\\\b\\nc\\rd");
        assert_eq!(unescape(&out).as_deref(), Some(&name[..]));
        assert_eq!(unescape(b"a\\"), None);
        assert_eq!(unescape(b"a\\t"), None);
    }

    #[test]
    fn check_lines() {
        let hex = "ab".repeat(32);
        let mut p = LineParser::new("SHA256", 32);
        let line = format!("{hex}  a b");
        let got = p.parse(line.as_bytes()).unwrap();
        assert_eq!(&*got.name, b"a b");
        let line = format!("{hex} *x");
        assert_eq!(&*p.parse(line.as_bytes()).unwrap().name, b"x");
        let line = format!("\\{hex}  a\\nb");
        assert_eq!(&*p.parse(line.as_bytes()).unwrap().name, b"a\nb");
        let line = format!("SHA256 (a) b) = {hex}");
        assert_eq!(&*p.parse(line.as_bytes()).unwrap().name, b"a) b");
        let line = format!("SHA256(x)={hex}");
        assert_eq!(&*p.parse(line.as_bytes()).unwrap().name, b"x");
        // Reversed after GNU lines: refused.
        let line = format!("{hex} x");
        assert!(p.parse(line.as_bytes()).is_none());
        assert!(p.parse(b"zz  x").is_none());
        assert!(p.parse(hex.as_bytes()).is_none());
    }
}
