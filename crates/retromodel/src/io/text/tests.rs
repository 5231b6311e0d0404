//! The tokenizer's and the parser helpers' tests, and the token listing other formats'
//! tests use ([`tokens`], [`check`]).

use super::*;
use crate::error::Result;
use crate::limits::Limits;

/// A token with the line and column it is reported at.
pub(crate) type Tok = (Kind, String, u32, u32);

/// The tokens of `src` up to the end, or the first error with its line and column.
pub(crate) fn tokens(syntax: &Syntax, src: &[u8]) -> Result<Vec<Tok>, (LexError, u32, u32)> {
    let p = Parser::new(src, syntax, "test", &Limits::default());
    let mut lx = Lexer::new(src, syntax);
    let mut out = Vec::new();
    loop {
        let t = lx.next_token().map_err(|e| {
            let (l, c) = p.line_col(e.start);
            (e, l, c)
        })?;
        let (l, c) = p.line_col(t.offset());
        let text = String::from_utf8_lossy(t.bytes(src)).into_owned();
        out.push((t.kind, text, l, c));
        if t.kind == Kind::Eof {
            return Ok(out);
        }
    }
}

/// Asserts that `got` are the tokens `want`.
pub(crate) fn check(got: &[Tok], want: &[(Kind, &str, u32, u32)]) {
    let got: Vec<_> = got.iter().map(|t| (t.0, t.1.as_str(), t.2, t.3)).collect();
    assert_eq!(got, want);
}

const FILE_NAME: Quote = Quote {
    open: b'<',
    close: b'>',
    name: "file name",
};

/// Comments kept, `<file names>`, and either kind of words.
fn syntax(words: Words) -> Syntax {
    Syntax {
        line_comments: true,
        block_comments: true,
        keep_comments: true,
        quotes: &[FILE_NAME],
        punct: b"{}(",
        words,
    }
}

/// The numbers [`Parser::take_number`] reads in place: the same tokens as the lexer, and
/// the same values as `str::parse`, bit for bit, whenever [`Number::to_f32`] computes one.
#[test]
fn direct_numbers_match_the_lexer_and_str_parse() {
    let mut texts: Vec<String> = [
        "0",
        "-0",
        "+0",
        "-0.000000",
        "0.839150",
        "3.",
        ".5",
        "-.5",
        "1e5",
        "1E-5",
        "16777217",
        "16777217.0",
        "33554431",
        "8388609.5",
        "0.1",
        "3.4028235e38",
        "3.4028236e38",
        "1e38",
        "1e39",
        "1.17549435e-38",
        "1e-40",
        "1e-45",
        "9007199254740993",
        "9999999999999999999",
        "99999999999999999999",
        "0.00000000000000000001",
        "123456789012.3456789",
        "1e999999999999",
        "-1e-99999",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    for _ in 0..20_000 {
        let mut t = ["", "-", "+"][next(3) as usize].to_string();
        let int_digits = next(13);
        let frac_digits = next(13);
        for _ in 0..int_digits {
            t.push(char::from(b'0' + next(10) as u8));
        }
        if frac_digits > 0 || next(4) == 0 || int_digits == 0 {
            t.push('.');
            for _ in 0..frac_digits.max(u64::from(int_digits == 0)) {
                t.push(char::from(b'0' + next(10) as u8));
            }
        }
        if next(3) == 0 {
            t.push_str(["e", "E-", "e+", "e-"][next(4) as usize]);
            t.push_str(&next(46).to_string());
        }
        texts.push(t);
    }
    let separators = [" ", "\n", "\t", "(", ")", "\r\n"];
    let mut src = String::new();
    for (i, t) in texts.iter().enumerate() {
        src.push_str(t);
        src.push_str(separators[i % separators.len()]);
    }
    let syntax = Syntax {
        line_comments: true,
        block_comments: false,
        keep_comments: false,
        quotes: &[STRING],
        punct: b"()",
        words: Words::NamesAndNumbers,
    };
    let mut p = Parser::new(src.as_bytes(), &syntax, "test", &Limits::default());
    let mut lx = Lexer::new(src.as_bytes(), &syntax);
    let (mut direct, mut computed) = (0, 0);
    loop {
        let want = lx.next_token().unwrap();
        // The cursor's own readers take the same token, with the same value.
        if let Some(mut c) = p.cursor() {
            let text = want.bytes(src.as_bytes());
            let text = std::str::from_utf8(text).unwrap();
            if let Some(v) = c.f32() {
                assert_eq!((c.last, c.end), (want.start, want.end), "{text}");
                assert_eq!(Ok(v.to_bits()), text.parse::<f32>().map(f32::to_bits));
            }
            if let Some(mut c) = p.cursor() {
                if let Some(v) = c.int() {
                    assert_eq!((c.last, c.end), (want.start, want.end), "{text}");
                    assert_eq!(want.kind, Kind::Int);
                    assert_eq!(Ok(v), text.parse::<i64>(), "{text}");
                }
            }
        }
        let got = match p.take_number() {
            Some((t, n)) => {
                direct += 1;
                let text = p.str(&t);
                if let Some(v) = n.to_f32() {
                    computed += 1;
                    let parsed: f32 = text.parse().unwrap();
                    assert_eq!(v.to_bits(), parsed.to_bits(), "{text}");
                }
                if let Some(v) = n.to_i64() {
                    assert_eq!(Ok(v), text.parse::<i64>(), "{text}");
                }
                t
            }
            None => p.next_token().unwrap(),
        };
        assert_eq!(got, want);
        if want.kind == Kind::Eof {
            break;
        }
    }
    // Nearly all are read in place, and most values computed without parsing.
    assert!(direct > texts.len() * 9 / 10, "{direct} of {}", texts.len());
    assert!(computed > texts.len() / 2, "{computed} of {}", texts.len());
    // What the lexer would not end where a number ends is left to it.
    for declined in ["1.5f", "1.#IND", "2//c", "1-2", "-", ".", "1e", "0x10"] {
        let mut p = Parser::new(declined.as_bytes(), &syntax, "test", &Limits::default());
        assert!(p.take_number().is_none(), "{declined}");
    }
}

/// Every value MD5 exporters write with six decimals below 2 (and a sample above) gets
/// the bits `str::parse` gives, through the reciprocal and the division paths alike.
#[test]
fn six_decimals_match_str_parse() {
    // Each text alone and followed by a space (the eight-byte path needs the byte after).
    let check = |text: &str| {
        let want: f32 = text.parse().unwrap();
        let mut read = false;
        for src in [text.to_string(), format!("{text} ")] {
            let p = Parser::new(src.as_bytes(), &MD5_LIKE, "test", &Limits::default());
            let v = p
                .cursor()
                .and_then(|mut c| c.f32().map(|v| (v, c.offset())));
            if let Some((v, end)) = v {
                assert_eq!(v.to_bits(), want.to_bits(), "{text}");
                assert_eq!(end, text.len(), "{text}");
                read = true;
            }
        }
        read
    };
    let mut computed = 0;
    for n in 0..2_000_000u32 {
        computed += usize::from(check(&format!("{}.{:06}", n / 1_000_000, n % 1_000_000)));
    }
    for n in (0..2_000_000_000u64).step_by(997) {
        computed += usize::from(check(&format!("-{}.{:06}", n / 1_000_000, n % 1_000_000)));
        computed += usize::from(check(&format!("{}.{:010}", n / 10_000_000, n % 10_000_000)));
    }
    assert!(computed > 2_000_000, "{computed}");
    // Up to four digits before the point go the eight-byte way; other shapes, and text
    // that ends early, go to the general path with the same result.
    for text in [
        "1234",
        "123",
        "9999.999999",
        "0512.500000",
        "12345.000000",
        "-4096.000001",
        "1234.",
        "1234.12345",
        "1234.1234567",
        "7.",
        "-0.000000",
        "0000.000000",
    ] {
        check(text);
    }
    let at_end = Parser::new(b"1234", &MD5_LIKE, "test", &Limits::default());
    let v = at_end.cursor().and_then(|mut c| c.f32());
    assert_eq!(v, Some(1234.0));
}

/// MD5's syntax, for number tests.
const MD5_LIKE: Syntax = Syntax {
    line_comments: true,
    block_comments: true,
    keep_comments: false,
    quotes: &[STRING],
    punct: b"(){}",
    words: Words::NamesAndNumbers,
};

#[test]
fn numbers() {
    for good in [
        "0",
        "-0.000000",
        "1.00",
        "+2",
        ".5",
        "3.",
        "1e-05",
        "00000000",
    ] {
        assert!(is_number(good.as_bytes()), "{good}");
    }
    assert_eq!(number_kind(b"+2"), Some(Kind::Int));
    assert_eq!(number_kind(b"2e3"), Some(Kind::Float));
    for bad in [
        "", "-", ".", "1e", "0f", "3d.1", "inf", "nan", "1..2", "--1", "ndef",
    ] {
        assert!(!is_number(bad.as_bytes()), "{bad}");
    }
}

#[test]
fn bom_and_empty() {
    for syntax in [syntax(Words::Free), syntax(Words::NamesAndNumbers)] {
        check(&tokens(&syntax, b"").unwrap(), &[(Kind::Eof, "", 1, 1)]);
        let t = tokens(&syntax, b"\xef\xbb\xbfx\n y").unwrap();
        assert_eq!((t[0].1.as_str(), t[0].2, t[0].3), ("x", 1, 1));
        assert_eq!((t[1].1.as_str(), t[1].2, t[1].3), ("y", 2, 2));
    }
}

#[test]
fn line_col_in_any_order() {
    let src = b"ab\ncd\r\n\tef\rgh";
    let syntax = syntax(Words::Free);
    let p = Parser::new(src, &syntax, "test", &Limits::default());
    assert_eq!(p.line_col(8), (3, 2));
    assert_eq!(p.line_col(1), (1, 2));
    assert_eq!(p.line_col(11), (3, 5));
    assert_eq!(p.line_col(3), (2, 1));
    assert_eq!(p.line_col(99), (3, 7));
}

#[test]
fn parser_helpers() {
    let src = b"// a\nx // b\n{ 7 } <f\xe9> ";
    let syntax = syntax(Words::Free);
    let mut p = Parser::new(src, &syntax, "wmp", &Limits::default());
    assert_eq!(p.take_comments().unwrap(), [" a"]);
    assert!(p.at_word("x").unwrap());
    p.next_token().unwrap();
    p.punct(b'{').unwrap();
    assert_eq!(
        p.dropped_comments,
        Tally {
            count: 1,
            first: Some(7)
        }
    );
    let t = p.next_token().unwrap();
    let e = p.count(&t, 7, 100, 1, format_args!("n = 7")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "wmp: n = 7 needs at least 700 bytes but only 8 are left at line 3:3"
    );
    let e = p.punct(b'(').unwrap_err();
    assert_eq!(e.to_string(), "wmp: expected '(', found '}' at line 3:5");
    let t = p.next_token().unwrap();
    assert_eq!(p.describe(&t), "<f\u{fffd}>");
    assert_eq!(p.decode(&t), "f\u{e9}");
    assert_eq!(
        p.latin1,
        Tally {
            count: 1,
            first: Some(t.offset())
        }
    );
    p.expect_end().unwrap();
}
