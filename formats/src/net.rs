//! `email` (RFC 5321 `Mailbox`) and `uri` (RFC 3986 `URI`), ASCII only as those grammars
//! are (`idn-email` and `iri` are other formats). No allocation.

use std::net::Ipv6Addr;

/// RFC 5322 `atext`: the characters of a dot-string atom.
fn is_atext(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&c)
}

/// `Dot-string = Atom *("." Atom)`.
fn dot_string(b: &[u8]) -> bool {
    b.split(|&c| c == b'.')
        .all(|atom| !atom.is_empty() && atom.iter().all(|&c| is_atext(c)))
}

/// `Quoted-string`: the index just past its closing quote, if `b` starts with one.
fn quoted_string(b: &[u8]) -> Option<usize> {
    let mut i = 1;
    if b.first() != Some(&b'"') {
        return None;
    }
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => return Some(i + 1),
            // quoted-pairSMTP: a backslash and any printable ASCII character.
            b'\\' if b.get(i + 1).is_some_and(|n| (32..=126).contains(n)) => i += 2,
            32..=126 if c != b'\\' => i += 1,
            _ => return None,
        }
    }
    None
}

/// `Domain`: dot-separated labels of letters, digits and inner hyphens (63 at most each).
fn domain(b: &[u8]) -> bool {
    b.len() <= 255
        && b.split(|&c| c == b'.').all(|label| {
            (1..=63).contains(&label.len())
                && label
                    .iter()
                    .all(|&c| c.is_ascii_alphanumeric() || c == b'-')
                && label[0] != b'-'
                && label[label.len() - 1] != b'-'
        })
}

/// RFC 5321 `IPv4-address-literal`: four `Snum`s of 1 to 3 digits, each at most 255.
fn ipv4_snums(b: &[u8]) -> bool {
    let mut parts = 0;
    let all = b.split(|&c| c == b'.').all(|n| {
        parts += 1;
        (1..=3).contains(&n.len())
            && n.iter().all(u8::is_ascii_digit)
            && n.iter().fold(0u32, |a, d| a * 10 + u32::from(d - b'0')) <= 255
    });
    all && parts == 4
}

fn ipv6(b: &[u8]) -> bool {
    std::str::from_utf8(b).is_ok_and(|s| s.parse::<Ipv6Addr>().is_ok())
}

/// `address-literal`: `[IPv4]`, `[IPv6:…]` or `[tag:content]`.
fn address_literal(b: &[u8]) -> bool {
    let [b'[', inner @ .., b']'] = b else {
        return false;
    };
    if let Some(v6) = inner.strip_prefix(b"IPv6:") {
        return ipv6(v6);
    }
    if ipv4_snums(inner) {
        return true;
    }
    // General-address-literal = Standardized-tag ":" 1*dcontent
    let Some(colon) = inner.iter().position(|&c| c == b':') else {
        return false;
    };
    let (tag, content) = (&inner[..colon], &inner[colon + 1..]);
    domain(tag)
        && !tag.contains(&b'.')
        && !content.is_empty()
        && content.iter().all(|&c| matches!(c, 33..=90 | 94..=126))
}

/// RFC 5321 `Mailbox`: `Local-part "@" ( Domain / address-literal )`, the local part a
/// dot-string or a quoted string of at most 64 octets.
pub fn is_email(s: &str) -> bool {
    let b = s.as_bytes();
    let at = if b.first() == Some(&b'"') {
        match quoted_string(b) {
            Some(end) => end,
            None => return false,
        }
    } else {
        match b.iter().position(|&c| c == b'@') {
            Some(at) if dot_string(&b[..at]) => at,
            _ => return false,
        }
    };
    let (local, rest) = b.split_at(at);
    let Some(host) = rest.strip_prefix(b"@") else {
        return false;
    };
    local.len() <= 64 && (domain(host) || address_literal(host))
}

fn is_unreserved(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~')
}

fn is_sub_delim(c: u8) -> bool {
    b"!$&'()*+,;=".contains(&c)
}

/// Every byte is `unreserved`, `sub-delims`, one of `extra`, or a `pct-encoded` triplet.
fn encoded(b: &[u8], extra: &[u8]) -> bool {
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            let hex = |j: usize| b.get(j).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return false;
            }
            i += 3;
        } else if is_unreserved(c) || is_sub_delim(c) || extra.contains(&c) {
            i += 1;
        } else {
            return false;
        }
    }
    true
}

/// `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
fn ipv_future(b: &[u8]) -> bool {
    let [b'v' | b'V', rest @ ..] = b else {
        return false;
    };
    let Some(dot) = rest.iter().position(|&c| c == b'.') else {
        return false;
    };
    let (version, text) = (&rest[..dot], &rest[dot + 1..]);
    !version.is_empty()
        && version.iter().all(u8::is_ascii_hexdigit)
        && !text.is_empty()
        && text
            .iter()
            .all(|&c| is_unreserved(c) || is_sub_delim(c) || c == b':')
}

/// `authority = [ userinfo "@" ] host [ ":" port ]`; an IPv4 address is also a `reg-name`.
fn authority(b: &[u8]) -> bool {
    let (userinfo, hostport) = match b.iter().position(|&c| c == b'@') {
        Some(at) => (Some(&b[..at]), &b[at + 1..]),
        None => (None, b),
    };
    if userinfo.is_some_and(|u| !encoded(u, b":")) {
        return false;
    }
    let (host_ok, port) = if let Some(inner) = hostport.strip_prefix(b"[") {
        let Some(close) = inner.iter().position(|&c| c == b']') else {
            return false;
        };
        let literal = &inner[..close];
        (ipv6(literal) || ipv_future(literal), &inner[close + 1..])
    } else {
        let end = hostport
            .iter()
            .position(|&c| c == b':')
            .unwrap_or(hostport.len());
        (encoded(&hostport[..end], b""), &hostport[end..])
    };
    let port_ok = match port {
        [] => true,
        [b':', digits @ ..] => digits.iter().all(u8::is_ascii_digit),
        _ => false,
    };
    host_ok && port_ok
}

/// RFC 3986 `URI`: `scheme ":" hier-part [ "?" query ] [ "#" fragment ]` (absolute, so a
/// relative reference such as `/a` or `//host/a` is not one).
pub fn is_uri(s: &str) -> bool {
    let b = s.as_bytes();
    let Some(colon) = b.iter().position(|&c| c == b':') else {
        return false;
    };
    let scheme = &b[..colon];
    let scheme_ok = scheme.first().is_some_and(u8::is_ascii_alphabetic)
        && scheme
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'));
    if !scheme_ok {
        return false;
    }
    let rest = &b[colon + 1..];
    let (rest, fragment) = match rest.iter().position(|&c| c == b'#') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (hier, query) = match rest.iter().position(|&c| c == b'?') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    // query and fragment: *( pchar / "/" / "?" ); pchar adds ":" and "@".
    let tail_ok = |t: Option<&[u8]>| t.is_none_or(|t| encoded(t, b":@/?"));
    if !(tail_ok(query) && tail_ok(fragment)) {
        return false;
    }
    // "//" authority path-abempty, or a path: segments of pchars separated by "/".
    let path = match hier.strip_prefix(b"//") {
        Some(after) => {
            let end = after.iter().position(|&c| c == b'/').unwrap_or(after.len());
            if !authority(&after[..end]) {
                return false;
            }
            &after[end..]
        }
        None => hier,
    };
    encoded(path, b":@/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mailboxes() {
        for ok in [
            "a@b",
            "ada@example.org",
            "a.b+c@x-y.example",
            "\"a b\"@example.org",
            "\"a\\\"b\"@example.org",
            "a@[127.0.0.1]",
            "a@[IPv6:2001:db8::1]",
        ] {
            assert!(is_email(ok), "{ok}");
        }
        for bad in [
            "",
            "a",
            "@b",
            "a@",
            "a@@b",
            "a..b@c",
            ".a@c",
            "a.@c",
            "a b@c",
            "a@-b.c",
            "a@b-.c",
            "a@b..c",
            "a@b_c",
            "josé@example.org",
            "\"a\"b@c",
            "\"a@c",
            "a@[1.2.3.256]",
            "a@[IPv6:::g]",
            "a@[1.2.3.4",
        ] {
            assert!(!is_email(bad), "{bad}");
        }
    }

    #[test]
    fn uris() {
        for ok in [
            "a:",
            "urn:isbn:0451450523",
            "https://example.org/a?b=c#d",
            "http://u:p@[::1]:8080/x",
            "http://[v7.abc:d]/",
            "file:///etc/hosts",
            "mailto:a@b.c",
        ] {
            assert!(is_uri(ok), "{ok}");
        }
        for bad in [
            "",
            ":a",
            "1a:b",
            "a_b:c",
            "/a",
            "//host/a",
            "http://a b",
            "http://a/%zz",
            "http://a/%4",
            "http://a:8x/",
            "http://[::1/",
            "http://[::g]/",
            "http://a@b@c/",
            "http://a/é",
            "http://a/#b#c",
        ] {
            assert!(!is_uri(bad), "{bad}");
        }
    }
}
