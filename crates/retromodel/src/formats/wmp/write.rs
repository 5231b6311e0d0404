//! Writing WMP text (see [`write`]).

use std::fmt::Write as _;

use super::raw::*;

use crate::io::text::{is_forbidden, is_number, is_space};

const NL: &str = "\r\n";

/// A word as it must be written to read back as one word.
fn word(s: &str) -> String {
    if s.is_empty() {
        return "_".to_string();
    }
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii() && (is_space(c as u8) || is_symbol(c as u8) || is_forbidden(c as u8)) {
                '_'
            } else {
                c
            }
        })
        .collect();
    if out.starts_with('<') || out.starts_with('"') || out.starts_with("//") {
        out.replace_range(..1, "_");
    }
    out
}

/// A word that must read back as a keyword (starting with a letter or `_`).
fn keyword(s: &str) -> String {
    let w = word(s);
    if w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        w
    } else {
        format!("_{w}")
    }
}

fn path(s: &str) -> String {
    let body: String = s
        .chars()
        .map(|c| if c == '>' || c == '\n' { '_' } else { c })
        .collect();
    format!("<{body}>")
}

fn quoted(s: &str) -> String {
    let body: String = s
        .chars()
        .map(|c| match c {
            '"' => '\'',
            '\n' => ' ',
            c => c,
        })
        .collect();
    format!("\"{body}\"")
}

fn comment(out: &mut String, c: &str) {
    out.push_str("//");
    out.extend(c.chars().map(|c| if c == '\n' { ' ' } else { c }));
}

/// An atom's text as written.
pub(crate) fn atom_text(a: &Atom) -> String {
    match a {
        Atom::Word(w) => word(w),
        Atom::Path(p) => path(p),
        Atom::Quoted(q) => quoted(q),
        Atom::Symbol(c) => match c {
            '(' | ')' | ',' | ':' | ';' => c.to_string(),
            _ => "_".to_string(),
        },
    }
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push('\t');
    }
}

fn nums(out: &mut String, v: &[Num]) {
    for (i, n) in v.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(n.text());
    }
}

/// `( a b c )`
fn paren(out: &mut String, v: &[Num]) {
    out.push_str("( ");
    nums(out, v);
    out.push_str(" )");
}

/// Kept lines, one per entry; a group opens on its line and closes on a line of its own,
/// which the rest of the line follows.
fn lines(out: &mut String, lines: &Lines, depth: usize) {
    for line in lines {
        indent(out, depth);
        let mut first = true;
        for node in line {
            if !first {
                out.push(' ');
            }
            first = false;
            match node {
                Node::Atom(a) => out.push_str(&atom_text(a)),
                Node::Group(g) => {
                    out.push('{');
                    out.push_str(NL);
                    self::lines(out, g, depth + 1);
                    indent(out, depth);
                    out.push('}');
                }
            }
        }
        out.push_str(NL);
    }
}

/// `{`, the inner comments (the first on the same line) and the line end.
/// The last lines of a top-level statement's body, then its closing brace.
fn close(out: &mut String, rest: &Lines) {
    lines(out, rest, 1);
    out.push('}');
    out.push_str(NL);
}

fn open(out: &mut String, inner: &[String], depth: usize) {
    out.push('{');
    for (i, c) in inner.iter().enumerate() {
        if i == 0 {
            out.push_str("  ");
        } else {
            out.push_str(NL);
            indent(out, depth + 1);
        }
        comment(out, c);
    }
    out.push_str(NL);
}

fn generic(out: &mut String, g: &Generic, inner: &[String], depth: usize) {
    indent(out, depth);
    out.push_str(&keyword(&g.keyword));
    for a in &g.args {
        out.push(' ');
        out.push_str(&atom_text(a));
    }
    match &g.body {
        None => out.push_str(NL),
        Some(body) => {
            out.push(' ');
            open(out, inner, depth);
            lines(out, body, depth + 1);
            indent(out, depth);
            out.push('}');
            out.push_str(NL);
        }
    }
}

fn wed(out: &mut String, w: &Wed, inner: &[String]) {
    out.push_str("wed ");
    open(out, inner, 0);
    for (i, s) in w.sections.iter().enumerate() {
        if i > 0 {
            out.push_str(NL);
        }
        let mut section = |name: &str, body: &dyn Fn(&mut String)| {
            let _ = write!(out, "\t{name} {{{NL}");
            body(out);
            out.push_str("\t}");
            out.push_str(NL);
        };
        match s {
            WedSection::Palette(bytes) => section("palette", &|out| {
                for line in bytes.chunks(48) {
                    out.push_str("\t\t");
                    for (j, rgb) in line.chunks(3).enumerate() {
                        if j > 0 {
                            out.push_str("  ");
                        }
                        let hex: Vec<String> = rgb.iter().map(|b| format!("{b:02x}")).collect();
                        out.push_str(&hex.join(" "));
                    }
                    out.push_str(NL);
                }
            }),
            WedSection::Wad { values, files } => section("wad", &|out| {
                if !values.is_empty() {
                    out.push_str("\t\t");
                    nums(out, values);
                    out.push_str(NL);
                }
                for f in files {
                    let _ = write!(out, "\t\t{} {}{NL}", path(&f.path), f.value.text());
                }
            }),
            WedSection::Bookmark(lists) => section("bookmark", &|out| {
                let mut tokens = Vec::new();
                for (j, l) in lists.iter().enumerate() {
                    if j > 0 {
                        tokens.push(";".to_string());
                    }
                    tokens.extend(l.iter().map(|w| word(w)));
                }
                if !tokens.is_empty() {
                    let _ = write!(out, "\t\t{}{NL}", tokens.join(" "));
                }
            }),
            WedSection::View(windows) => section("view", &|out| {
                for w in windows {
                    let mut name = word(&w.name);
                    if is_number(name.as_bytes()) {
                        name.insert(0, '_');
                    }
                    let _ = write!(out, "\t\t{name}");
                    for v in &w.values {
                        out.push(' ');
                        out.push_str(v.text());
                    }
                    out.push_str(NL);
                }
            }),
            WedSection::Other(g) => generic(out, g, &[], 1),
        }
    }
    out.push('}');
    out.push_str(NL);
}

/// A face's surface from the texture name to the extra words.
fn surface(out: &mut String, s: &Surface) {
    out.push_str(&word(&s.texture));
    if let Some(axes) = &s.axes {
        for a in axes {
            out.push(' ');
            paren(out, a);
        }
    }
    out.push(' ');
    nums(out, &s.offset);
    out.push(' ');
    out.push_str(s.angle.text());
    out.push(' ');
    nums(out, &s.scale);
    let _ = write!(
        out,
        " : {} {} {}",
        word(&s.flags),
        s.ambient.text(),
        s.albedo.text()
    );
    for e in &s.extra {
        out.push(' ');
        out.push_str(&word(e));
    }
}

fn block(out: &mut String, b: &Block, inner: &[String]) {
    let _ = write!(out, "block {} ", b.index);
    open(out, inner, 0);
    match &b.shape {
        Shape::Planes(faces) => {
            for f in faces {
                out.push('\t');
                for p in &f.points {
                    paren(out, p);
                    out.push(' ');
                }
                surface(out, &f.surface);
                out.push_str(NL);
            }
        }
        Shape::Polyhedron { vertices, faces } => {
            let _ = write!(
                out,
                "\tvertices {}{NL}\tfaces {}{NL}",
                vertices.len(),
                faces.len()
            );
            for line in vertices.chunks(3) {
                out.push('\t');
                for (i, v) in line.iter().enumerate() {
                    if i > 0 {
                        out.push_str("   ");
                    }
                    nums(out, v);
                }
                out.push_str(NL);
            }
            for f in faces {
                let _ = write!(out, "\t{} ", f.vertices.len());
                for i in &f.vertices {
                    let _ = write!(out, " {i}");
                }
                out.push_str(" : ");
                surface(out, &f.surface);
                out.push_str(NL);
            }
        }
    }
    if let Some(props) = &b.properties {
        let _ = write!(out, "\t{{{NL}");
        for p in props {
            let _ = write!(out, "\t\t{}{NL}", word(p));
        }
        let _ = write!(out, "\t}}{NL}");
    }
    out.push('}');
    out.push_str(NL);
}

fn level(out: &mut String, l: &Level, inner: &[String]) {
    let _ = write!(out, "level {} ", l.index);
    open(out, inner, 0);
    for p in [&l.wad, &l.palette] {
        let _ = write!(out, "\t{}{NL}", path(p));
    }
    for n in [&l.nexus, &l.azimuth, &l.elevation] {
        let _ = write!(out, "\t{}{NL}", n.text());
    }
    let _ = write!(out, "\t{}{NL}", path(&l.script));
    for v in l.fog.iter().chain([&l.sun, &l.ambient]) {
        out.push('\t');
        nums(out, v);
        out.push_str(NL);
    }
    close(out, &l.rest);
}

fn light(out: &mut String, l: &Light, inner: &[String]) {
    let _ = write!(out, "light {} ", l.index);
    open(out, inner, 0);
    out.push('\t');
    nums(out, &l.color);
    let _ = write!(out, " {}{NL}", l.range.text());
    close(out, &l.rest);
}

fn object(out: &mut String, o: &Object, inner: &[String]) {
    let _ = write!(out, "object {} ", o.index);
    open(out, inner, 0);
    out.push('\t');
    for (i, v) in [&o.position, &o.angles, &o.scale].into_iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push('(');
        nums(out, v);
        out.push(')');
    }
    out.push_str(NL);
    for m in &o.members {
        let _ = write!(out, "\t{} ", keyword(&m.kind));
        let indices: Vec<String> = m.indices.iter().map(u32::to_string).collect();
        out.push_str(&indices.join(", "));
        out.push_str(NL);
    }
    out.push('}');
    out.push_str(NL);
}

fn indexed(out: &mut String, name: &str, i: &Indexed, inner: &[String]) {
    let _ = write!(out, "{name} {} ", i.index);
    open(out, inner, 0);
    close(out, &i.body);
}

/// Writes a WMP file. Comments are written where they were kept: before their statement,
/// and after its opening brace.
///
/// The layout is WED's: CRLF line endings, tabs, one face per line, version-710 vertices
/// three to a line, the palette sixteen colours to a line.
///
/// Every number is written with the text it was read with ([`Num::text`]), every word, file
/// name and comment as stored, so an unmodified file writes back with the same tokens (and
/// the same kept comments); only whitespace changes. Indices are written in decimal and
/// palette bytes as two lowercase hex digits (the parser warns where the input differed).
///
/// What a token cannot hold is changed, not refused: in words, whitespace, the symbols
/// `{ } ( ) , : ;` and control bytes become `_`, as do a leading `<`, `"` or `//` and an
/// empty word; a member kind or statement keyword that does not start with a letter or `_`,
/// and a view window name that reads as a number, get a `_` in front; in file names `>` and
/// line feeds become `_`; in quoted strings `"` becomes `'` and a line feed a space; in
/// comments a line feed becomes a space. The writer does not check indices or face sizes: a
/// hand-made file with a face of two vertices writes, but does not read back, and a hand-made
/// [`Generic`] setting whose arguments include a word starting with a letter reads back as
/// several statements.
pub fn write(file: &WmpFile) -> String {
    let mut out = String::new();
    let mut previous_setting = None;
    for s in &file.statements {
        let setting = matches!(&s.item, Item::Other(g) if g.body.is_none());
        if previous_setting.is_some() && !(setting && previous_setting == Some(true)) {
            out.push_str(NL);
        }
        for c in &s.comments {
            comment(&mut out, c);
            out.push_str(NL);
        }
        if previous_setting.is_none() && !s.comments.is_empty() {
            out.push_str(NL);
        }
        previous_setting = Some(setting);
        let inner = &s.inner_comments[..];
        match &s.item {
            Item::Wed(w) => wed(&mut out, w, inner),
            Item::Block(b) => block(&mut out, b, inner),
            Item::Level(l) => level(&mut out, l, inner),
            Item::Light(l) => light(&mut out, l, inner),
            Item::Object(o) => object(&mut out, o, inner),
            Item::Entity(i) => indexed(&mut out, "entity", i, inner),
            Item::Sound(i) => indexed(&mut out, "sound", i, inner),
            Item::Path(i) => indexed(&mut out, "path", i, inner),
            Item::Other(g) => generic(&mut out, g, inner, 0),
        }
    }
    if !file.trailing_comments.is_empty() && !file.statements.is_empty() {
        out.push_str(NL);
    }
    for c in &file.trailing_comments {
        comment(&mut out, c);
        out.push_str(NL);
    }
    out
}
