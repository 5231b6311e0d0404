//! QC text: [`Qc::parse`] (studiomdl's syntax through the shared lexer; a command's
//! arguments on its line, blocks in `{ }` across lines) and [`Qc::write`].

use std::fmt::Write as _;

use super::*;
use crate::error::{ErrorKind, Result};
use crate::io::text::{self, Kind, Parser, Syntax, Token, Words};
use crate::limits::Limits;

static SYNTAX: Syntax = Syntax {
    line_comments: true,
    block_comments: true,
    keep_comments: false,
    quotes: &[text::STRING],
    punct: b"{}",
    words: Words::Free,
};

/// The commands of Valve's studiomdl that this compiler does not take.
const UNSUPPORTED: &[&str] = &[
    "$root",
    "$pivot",
    "$sequencegroup",
    "$mirrorbone",
    "$gamma",
    "$hgroup",
    "$renamebone",
    "$cliptotextures",
];

struct P<'a> {
    p: Parser<'a>,
}

impl<'a> P<'a> {
    /// Whether another token follows on the line of the last one taken.
    fn same_line(&mut self) -> Result<bool> {
        let t = self.p.peek()?;
        Ok(t.kind != Kind::Eof && !self.p.line_break_between(self.p.consumed(), t.offset()))
    }

    fn missing(&self, what: &str, cmd: &str) -> crate::error::Error {
        self.p.error_at(
            self.p.consumed(),
            ErrorKind::Truncated,
            format!("missing {what} after {cmd}"),
        )
    }

    /// The next token on this line, else "missing `what` after `cmd`".
    fn arg(&mut self, what: &str, cmd: &str) -> Result<Token> {
        if !self.same_line()? {
            return Err(self.missing(what, cmd));
        }
        self.p.next_token()
    }

    /// A name or quoted text on this line.
    fn name(&mut self, what: &str, cmd: &str) -> Result<String> {
        let t = self.arg(what, cmd)?;
        self.text_of(&t, what)
    }

    fn text_of(&mut self, t: &Token, what: &str) -> Result<String> {
        match t.kind {
            Kind::Word | Kind::Quoted(_) => Ok(self.p.decode(t)),
            _ => Err(self.p.unexpected(t, what)),
        }
    }

    fn file(&mut self, what: &str, cmd: &str) -> Result<FileRef> {
        let t = self.arg(what, cmd)?;
        self.file_of(&t, what)
    }

    fn file_of(&mut self, t: &Token, what: &str) -> Result<FileRef> {
        let name = self.text_of(t, what)?;
        Ok(FileRef {
            name,
            at: Some(self.p.line_col(t.offset())),
        })
    }

    fn number<T: std::str::FromStr>(&mut self, what: &str, cmd: &str) -> Result<T> {
        let t = self.arg(what, cmd)?;
        let s = self.p.str(&t);
        match (t.kind, s.parse::<T>()) {
            (Kind::Word, Ok(v)) => Ok(v),
            _ => Err(self.p.error(
                &t,
                ErrorKind::InvalidValue,
                format!("bad number {} for {what} of {cmd}", self.p.describe(&t)),
            )),
        }
    }

    fn f32(&mut self, what: &str, cmd: &str) -> Result<f32> {
        self.number(what, cmd)
    }

    fn i32(&mut self, what: &str, cmd: &str) -> Result<i32> {
        self.number(what, cmd)
    }

    fn vec3(&mut self, what: &str, cmd: &str) -> Result<[f32; 3]> {
        Ok([
            self.f32(&format!("{what} x"), cmd)?,
            self.f32(&format!("{what} y"), cmd)?,
            self.f32(&format!("{what} z"), cmd)?,
        ])
    }

    fn control(&mut self, what: &str, cmd: &str) -> Result<i32> {
        let t = self.arg(what, cmd)?;
        let s = self.text_of(&t, what)?;
        control_bits(&s).ok_or_else(|| {
            self.p.error(
                &t,
                ErrorKind::InvalidValue,
                format!(
                    "unknown {what} {} of {cmd} (X, Y, Z, XR, YR, ZR, LX, ...)",
                    self.p.describe(&t)
                ),
            )
        })
    }

    /// The next token of a block, across lines; the end of the file is "unclosed".
    fn in_block(&mut self, open: &Token, cmd: &str) -> Result<Token> {
        let t = self.p.next_token()?;
        if t.kind == Kind::Eof {
            return Err(self.p.error(
                open,
                ErrorKind::Truncated,
                format!("unclosed '{{' of {cmd}"),
            ));
        }
        Ok(t)
    }

    fn word_is(&self, t: &Token, w: &str) -> bool {
        t.kind == Kind::Word && self.p.str(t).eq_ignore_ascii_case(w)
    }
}

impl Qc {
    /// Reads QC text; errors are `qc: ... at line L:C` (unknown or unsupported commands,
    /// missing or bad arguments, unclosed blocks).
    pub fn parse(src: &[u8], limits: &Limits) -> Result<Qc> {
        let mut p = P {
            p: Parser::new(src, &SYNTAX, FORMAT, limits),
        };
        let mut q = Qc::default();
        loop {
            let t = p.p.next_token()?;
            if t.kind == Kind::Eof {
                return Ok(q);
            }
            let cmd = p.p.str(&t);
            if t.kind != Kind::Word || !cmd.starts_with('$') {
                return Err(p.p.unexpected(&t, "a $command"));
            }
            command(&mut p, &mut q, &t, cmd)?;
            if p.same_line()? {
                let extra = p.p.next_token()?;
                return Err(p
                    .p
                    .unexpected(&extra, &format!("the end of the line after {cmd}")));
            }
        }
    }
}

fn command(p: &mut P, q: &mut Qc, t: &Token, cmd: &str) -> Result<()> {
    match cmd {
        "$modelname" => q.model_name = Some(p.name("a file name", cmd)?),
        "$cd" => q.cd = Some(p.name("a folder", cmd)?),
        "$cdtexture" => q.cd_texture = Some(p.name("a folder", cmd)?),
        "$scale" => q.scale = Some(p.f32("a scale", cmd)?),
        "$origin" => {
            let o = p.vec3("the origin", cmd)?;
            let angle = if p.same_line()? {
                Some(p.f32("an angle", cmd)?)
            } else {
                None
            };
            q.origin = Some((o, angle));
        }
        "$eyeposition" => q.eye_position = Some(p.vec3("the eye position", cmd)?),
        "$flags" => q.flags = Some(p.i32("the flags", cmd)?),
        "$bbox" => q.bbox = Some([p.vec3("the minimum", cmd)?, p.vec3("the maximum", cmd)?]),
        "$cbox" => q.cbox = Some([p.vec3("the minimum", cmd)?, p.vec3("the maximum", cmd)?]),
        "$externaltextures" => q.external_textures = true,
        "$sequencegroupsize" => q.sequence_group_size = Some(p.i32("a size", cmd)?),
        "$body" => {
            let name = p.name("a name", cmd)?;
            let file = p.file("a reference SMD", cmd)?;
            q.body_groups.push(BodyGroup {
                name,
                models: vec![Some(file)],
            });
        }
        "$bodygroup" => q.body_groups.push(body_group(p, cmd)?),
        "$texturegroup" => q.texture_groups.push(texture_group(p, cmd)?),
        "$texrendermode" => {
            let tex = p.name("a texture name", cmd)?;
            let mt = p.arg("a render mode", cmd)?;
            let mode = p.text_of(&mt, "a render mode")?;
            if !RENDER_MODES.iter().any(|(n, _)| *n == mode) {
                return Err(p.p.error(
                    &mt,
                    ErrorKind::InvalidValue,
                    format!(
                        "unknown render mode {} of {cmd} (masked, additive, flatshade, chrome, \
                         fullbright, nomips, alpha)",
                        p.p.describe(&mt)
                    ),
                ));
            }
            q.render_modes.push((tex, mode));
        }
        "$hbox" => q.hitboxes.push(HitBox {
            group: p.i32("a hit group", cmd)?,
            bone: p.name("a bone name", cmd)?,
            min: p.vec3("the minimum", cmd)?,
            max: p.vec3("the maximum", cmd)?,
        }),
        "$attachment" => q.attachments.push(Attachment {
            index: p.i32("an index", cmd)?,
            bone: p.name("a bone name", cmd)?,
            org: p.vec3("the point", cmd)?,
        }),
        "$controller" => {
            let index = if p.same_line()? && p.p.at_word("mouth")? {
                p.p.next_token()?;
                4
            } else {
                p.i32("an index", cmd)?
            };
            q.controllers.push(Controller {
                index,
                bone: p.name("a bone name", cmd)?,
                kind: p.control("controller type", cmd)?,
                start: p.f32("a start", cmd)?,
                end: p.f32("an end", cmd)?,
            });
        }
        "$sequence" => q.sequences.push(sequence(p, cmd)?),
        _ if UNSUPPORTED.contains(&cmd) => {
            return Err(p.p.error(
                t,
                ErrorKind::Unsupported,
                format!("unsupported command {cmd}"),
            ))
        }
        _ => {
            return Err(p
                .p
                .error(t, ErrorKind::InvalidValue, format!("unknown command {cmd}")))
        }
    }
    Ok(())
}

fn body_group(p: &mut P, cmd: &str) -> Result<BodyGroup> {
    let name = p.name("a name", cmd)?;
    let open = p.p.next_token()?;
    if open.kind != Kind::Punct(b'{') {
        return Err(p
            .p
            .unexpected(&open, &format!("'{{' after {cmd} \"{name}\"")));
    }
    let mut g = BodyGroup {
        name,
        models: Vec::new(),
    };
    loop {
        let t = p.in_block(&open, cmd)?;
        if t.kind == Kind::Punct(b'}') {
            return Ok(g);
        } else if p.word_is(&t, "studio") {
            g.models.push(Some(p.file("a reference SMD", "studio")?));
            if p.same_line()? {
                let o = p.p.next_token()?;
                return Err(p.p.error(
                    &o,
                    ErrorKind::Unsupported,
                    format!("unsupported studio option {}", p.p.describe(&o)),
                ));
            }
        } else if p.word_is(&t, "blank") {
            g.models.push(None);
        } else {
            return Err(p
                .p
                .unexpected(&t, &format!("studio, blank or '}}' in {cmd}")));
        }
    }
}

fn texture_group(p: &mut P, cmd: &str) -> Result<TextureGroup> {
    let name = p.name("a name", cmd)?;
    let open = p.p.next_token()?;
    if open.kind != Kind::Punct(b'{') {
        return Err(p
            .p
            .unexpected(&open, &format!("'{{' after {cmd} \"{name}\"")));
    }
    let mut g = TextureGroup {
        name,
        skins: Vec::new(),
    };
    loop {
        let t = p.in_block(&open, cmd)?;
        match t.kind {
            Kind::Punct(b'}') => return Ok(g),
            Kind::Punct(b'{') => {
                let mut row = Vec::new();
                loop {
                    let n = p.in_block(&open, cmd)?;
                    if n.kind == Kind::Punct(b'}') {
                        break;
                    }
                    row.push(p.text_of(&n, "a texture name or '}'")?);
                }
                g.skins.push(row);
            }
            _ => return Err(p.p.unexpected(&t, &format!("'{{' or '}}' in {cmd}"))),
        }
    }
}

fn sequence(p: &mut P, cmd: &str) -> Result<super::Sequence> {
    let mut s = super::Sequence {
        name: p.name("a name", cmd)?,
        ..Default::default()
    };
    let mut depth = 0usize;
    let mut open: Option<Token> = None;
    loop {
        let t = match open {
            Some(o) if depth > 0 => p.in_block(&o, cmd)?,
            _ => {
                if !p.same_line()? {
                    break;
                }
                p.p.next_token()?
            }
        };
        match t.kind {
            Kind::Punct(b'{') => {
                if depth == 0 {
                    open = Some(t);
                }
                depth += 1;
            }
            Kind::Punct(b'}') => {
                if depth == 0 {
                    return Err(p.p.unexpected(&t, "a sequence option"));
                }
                depth -= 1;
            }
            Kind::Quoted(_) => s.files.push(p.file_of(&t, "an animation SMD")?),
            _ => option(p, &mut s, &t)?,
        }
    }
    Ok(s)
}

fn option(p: &mut P, s: &mut super::Sequence, t: &Token) -> Result<()> {
    let word = p.p.str(t).to_ascii_lowercase();
    let o = word.as_str();
    match o {
        "event" => {
            let event = p.i32("an event number", o)?;
            let frame = p.i32("a frame", o)?;
            let options = if p.same_line()? && p.p.peek_kind()? != Kind::Punct(b'}') {
                Some(p.name("options", o)?)
            } else {
                None
            };
            s.events.push(Event {
                event,
                frame,
                options,
            });
        }
        "fps" => s.fps = Some(p.f32("a rate", o)?),
        "loop" => s.looping = true,
        "frame" => s.frames = Some((p.i32("a first frame", o)?, p.i32("a last frame", o)?)),
        "blend" => {
            s.blend = Some((
                p.control("blend type", o)?,
                p.f32("a start", o)?,
                p.f32("an end", o)?,
            ))
        }
        "node" => {
            let n = p.i32("a node", o)?;
            s.nodes = Some((n, n, false));
        }
        "transition" | "rtransition" => {
            s.nodes = Some((
                p.i32("an entry node", o)?,
                p.i32("an exit node", o)?,
                o == "rtransition",
            ))
        }
        "animation" => s.files.push(p.file("an animation SMD", o)?),
        "deform" | "pivot" | "origin" | "rotate" | "scale" => {
            return Err(p.p.error(
                t,
                ErrorKind::Unsupported,
                format!("unsupported sequence option {o}"),
            ))
        }
        _ => {
            let name = p.p.decode(t);
            if let Some(bits) = control_bits(&name) {
                s.motion |= bits;
            } else if let Some(act) = activity_number(&name) {
                s.activity = Some((act, p.i32("an activity weight", &name)?));
            } else {
                s.files.push(p.file_of(t, "an animation SMD")?);
            }
        }
    }
    Ok(())
}

/// `s` quoted, or bare when it holds a quote and reads back as one word (a word read from a
/// QC: no space, not opening with a quote, a comment or a brace). A QC string has no
/// escapes, so any other name with a quote or a control byte (a model file's name field
/// may hold anything) is written with `_` for each of those.
fn quoted(s: &str) -> String {
    let word = !s.starts_with(['"', '{', '}'])
        && !s.starts_with("//")
        && !s.starts_with("/*")
        && !s.contains(['{', '}'])
        && !s.chars().any(|c| c.is_whitespace() || c.is_control());
    if s.contains('"') && word {
        return s.to_string();
    }
    format!("\"{}\"", crate::formats::goldsrc::from_model::clean_name(s))
}

fn v3(v: [f32; 3]) -> String {
    format!("{} {} {}", v[0], v[1], v[2])
}

impl Qc {
    /// The QC text (reads back to an equal [`Qc`]), in the order Crowbar lays a decompiled
    /// QC out.
    pub fn write(&self) -> Vec<u8> {
        let mut o = String::new();
        let mut line = |s: String| {
            o.push_str(&s);
            o.push('\n');
        };
        let opt =
            |name: &str, v: &Option<String>| v.as_ref().map(|v| format!("{name} {}", quoted(v)));
        for l in [
            opt("$modelname", &self.model_name),
            opt("$cd", &self.cd),
            opt("$cdtexture", &self.cd_texture),
        ]
        .into_iter()
        .flatten()
        {
            line(l);
        }
        if let Some(s) = self.scale {
            line(format!("$scale {s}"));
        }
        if let Some((v, a)) = self.origin {
            line(match a {
                Some(a) => format!("$origin {} {a}", v3(v)),
                None => format!("$origin {}", v3(v)),
            });
        }
        if let Some(v) = self.eye_position {
            line(format!("$eyeposition {}", v3(v)));
        }
        if let Some(f) = self.flags {
            line(format!("$flags {f}"));
        }
        if let Some([a, b]) = self.bbox {
            line(format!("$bbox {} {}", v3(a), v3(b)));
        }
        if let Some([a, b]) = self.cbox {
            line(format!("$cbox {} {}", v3(a), v3(b)));
        }
        if self.external_textures {
            line("$externaltextures".into());
        }
        if let Some(s) = self.sequence_group_size {
            line(format!("$sequencegroupsize {s}"));
        }
        for g in &self.body_groups {
            let mut s = format!("\n$bodygroup {}\n{{\n", quoted(&g.name));
            for m in &g.models {
                match m {
                    Some(f) => writeln!(s, "\tstudio {}", quoted(&f.name)).unwrap(),
                    None => s.push_str("\tblank\n"),
                }
            }
            s.push('}');
            line(s);
        }
        for g in &self.texture_groups {
            let mut s = format!("\n$texturegroup {}\n{{\n", quoted(&g.name));
            for row in &g.skins {
                s.push_str("\t{");
                for n in row {
                    write!(s, " {}", quoted(n)).unwrap();
                }
                s.push_str(" }\n");
            }
            s.push('}');
            line(s);
        }
        for (t, m) in &self.render_modes {
            line(format!("$texrendermode {} {m}", quoted(t)));
        }
        for a in &self.attachments {
            line(format!(
                "$attachment {} {} {}",
                a.index,
                quoted(&a.bone),
                v3(a.org)
            ));
        }
        for c in &self.controllers {
            let kind = control_names(c.kind & !RLOOP);
            line(format!(
                "$controller {} {} {} {} {}",
                c.index,
                quoted(&c.bone),
                kind.first().copied().unwrap_or("XR"),
                c.start,
                c.end
            ));
        }
        for h in &self.hitboxes {
            line(format!(
                "$hbox {} {} {} {}",
                h.group,
                quoted(&h.bone),
                v3(h.min),
                v3(h.max)
            ));
        }
        for s in &self.sequences {
            line(write_sequence(s));
        }
        o.into_bytes()
    }
}

fn write_sequence(s: &super::Sequence) -> String {
    let mut o = format!("\n$sequence {} {{\n", quoted(&s.name));
    for f in &s.files {
        writeln!(o, "\t{}", quoted(&f.name)).unwrap();
    }
    if let Some(f) = s.fps {
        writeln!(o, "\tfps {f}").unwrap();
    }
    if s.looping {
        o.push_str("\tloop\n");
    }
    if let Some((a, b)) = s.frames {
        writeln!(o, "\tframe {a} {b}").unwrap();
    }
    if let Some((act, w)) = s.activity {
        writeln!(o, "\t{} {w}", activity_name(act)).unwrap();
    }
    let motion = control_names(s.motion);
    if !motion.is_empty() {
        writeln!(o, "\t{}", motion.join(" ")).unwrap();
    }
    if let Some((t, a, b)) = s.blend {
        let n = control_names(t);
        writeln!(o, "\tblend {} {a} {b}", n.first().copied().unwrap_or("XR")).unwrap();
    }
    match s.nodes {
        Some((a, b, false)) if a == b => writeln!(o, "\tnode {a}").unwrap(),
        Some((a, b, r)) => {
            let w = if r { "rtransition" } else { "transition" };
            writeln!(o, "\t{w} {a} {b}").unwrap()
        }
        None => {}
    }
    for e in &s.events {
        match &e.options {
            Some(opt) => writeln!(o, "\t{{ event {} {} {} }}", e.event, e.frame, quoted(opt)),
            None => writeln!(o, "\t{{ event {} {} }}", e.event, e.frame),
        }
        .unwrap();
    }
    o.push('}');
    o
}
