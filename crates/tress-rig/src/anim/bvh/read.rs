//! The BVH text reader: `HIERARCHY` (ROOT / JOINT / End Site, OFFSET,
//! CHANNELS) and `MOTION` (Frames, Frame Time, one row of numbers per
//! frame). Never panics; memory stays proportional to the bytes given
//! (a declared frame count is checked against the rows present, never
//! allocated up front).

use core::fmt;

use glam::Vec3;

use super::euler::Axis;

/// One channel of a joint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    /// `Xposition`, `Yposition`, `Zposition`.
    Position(Axis),
    /// `Xrotation`, `Yrotation`, `Zrotation` (degrees).
    Rotation(Axis),
}

impl Channel {
    fn parse(s: &str) -> Option<Self> {
        let axis = match s.as_bytes().first()? {
            b'X' | b'x' => Axis::X,
            b'Y' | b'y' => Axis::Y,
            b'Z' | b'z' => Axis::Z,
            _ => return None,
        };
        match s[1..].to_ascii_lowercase().as_str() {
            "position" => Some(Self::Position(axis)),
            "rotation" => Some(Self::Rotation(axis)),
            _ => None,
        }
    }

    /// The name as BVH writes it (`Zrotation`).
    #[must_use]
    pub fn name(self) -> String {
        match self {
            Self::Position(a) => format!("{}position", a.letter()),
            Self::Rotation(a) => format!("{}rotation", a.letter()),
        }
    }
}

/// A joint, or an `End Site` (no channels).
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// Name; an end site is `<parent> End Site`.
    pub name: String,
    /// Parent joint, `None` for a `ROOT`.
    pub parent: Option<usize>,
    /// `OFFSET` from the parent, file units.
    pub offset: Vec3,
    /// Channels in file order.
    pub channels: Vec<Channel>,
    /// Column of the first channel in a frame row.
    pub first_column: usize,
    /// Whether this is an `End Site`.
    pub end_site: bool,
    /// Line of its `ROOT` / `JOINT` / `End Site` keyword (1-based).
    pub line: usize,
}

/// A read BVH file.
#[derive(Debug, Clone, PartialEq)]
pub struct Bvh {
    /// Joints and end sites, parents before children.
    pub joints: Vec<Joint>,
    /// Seconds per frame (> 0).
    pub frame_time: f32,
    /// Number of frames.
    pub frames: usize,
    /// Channel values, `frames × channels`, row by row.
    pub values: Vec<f32>,
    /// Total channels over all joints (the length of a row).
    pub channels: usize,
}

impl Bvh {
    /// Frame `f`'s row.
    #[must_use]
    pub fn row(&self, f: usize) -> &[f32] {
        &self.values[f * self.channels..(f + 1) * self.channels]
    }
}

/// What is wrong with a BVH file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BvhErrorKind {
    /// Not UTF-8 / ASCII text.
    NotText,
    /// A keyword, brace or number was expected and something else found.
    Expected,
    /// A `CHANNELS` count that does not match the names after it.
    ChannelCount,
    /// A channel name that is none of the six.
    UnknownChannel,
    /// A frame row with the wrong number of values.
    RowLength,
    /// A NaN or infinite number.
    NonFinite,
    /// `Frame Time` zero or negative.
    FrameTime,
    /// The file ends early (inside the hierarchy, or fewer rows than `Frames`).
    Truncated,
    /// More rows than `Frames` declares.
    ExtraRows,
}

/// A BVH read error: the line (1-based), the joint and channel concerned
/// where there is one, and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BvhError {
    /// Category.
    pub kind: BvhErrorKind,
    /// Line number, 1-based (0: the file as a whole).
    pub line: usize,
    /// The joint concerned.
    pub joint: Option<String>,
    /// The channel concerned (`Zrotation`).
    pub channel: Option<String>,
    /// What is wrong and what was expected.
    pub message: String,
}

impl fmt::Display for BvhError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}", self.line)?;
        if let Some(j) = &self.joint {
            write!(f, ", joint `{j}`")?;
        }
        if let Some(c) = &self.channel {
            write!(f, ", channel `{c}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl core::error::Error for BvhError {}

fn err(kind: BvhErrorKind, line: usize, message: impl Into<String>) -> BvhError {
    BvhError {
        kind,
        line,
        joint: None,
        channel: None,
        message: message.into(),
    }
}

/// Tokens of the text with their 1-based line, read lazily.
struct Tokens<'a> {
    lines: core::iter::Enumerate<core::str::Lines<'a>>,
    current: Option<(usize, core::str::SplitWhitespace<'a>)>,
    last_line: usize,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            lines: text.lines().enumerate(),
            current: None,
            last_line: 1,
        }
    }

    fn next(&mut self) -> Option<(usize, &'a str)> {
        loop {
            if let Some((line, words)) = &mut self.current
                && let Some(w) = words.next()
            {
                self.last_line = *line;
                return Some((*line, w));
            }
            let (i, l) = self.lines.next()?;
            self.current = Some((i + 1, l.split_whitespace()));
        }
    }

    /// The next token, or a truncation error saying what was wanted.
    fn want(&mut self, what: &str) -> Result<(usize, &'a str), BvhError> {
        self.next().ok_or_else(|| {
            err(
                BvhErrorKind::Truncated,
                self.last_line,
                format!("the file ends where {what} was expected"),
            )
        })
    }

    /// The rest of the current line is dropped; rows start on the next.
    fn rest_lines(self) -> core::iter::Enumerate<core::str::Lines<'a>> {
        self.lines
    }
}

fn number(tok: (usize, &str), what: &str, joint: Option<&str>) -> Result<f32, BvhError> {
    let (line, s) = tok;
    let with_joint = |mut e: BvhError| {
        e.joint = joint.map(str::to_owned);
        e
    };
    let v: f32 = s.parse().map_err(|_| {
        with_joint(err(
            BvhErrorKind::Expected,
            line,
            format!("expected {what} (a number), found `{s}`"),
        ))
    })?;
    if !v.is_finite() {
        return Err(with_joint(err(
            BvhErrorKind::NonFinite,
            line,
            format!("{what} is `{s}`, not a finite number"),
        )));
    }
    Ok(v)
}

fn expect(tok: (usize, &str), want: &str, context: &str) -> Result<(), BvhError> {
    if tok.1 == want {
        Ok(())
    } else {
        Err(err(
            BvhErrorKind::Expected,
            tok.0,
            format!("expected `{want}` {context}, found `{}`", tok.1),
        ))
    }
}

/// Reads a BVH file from its bytes.
///
/// # Errors
/// [`BvhError`] naming the line, and the joint and channel where there is
/// one, and what was expected there.
pub fn read(bytes: &[u8]) -> Result<Bvh, BvhError> {
    let bytes = bytes.strip_prefix(&[0xef, 0xbb, 0xbf]).unwrap_or(bytes);
    let text = core::str::from_utf8(bytes).map_err(|e| {
        let line = 1 + bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        err(
            BvhErrorKind::NotText,
            line,
            "not a text file (invalid UTF-8)",
        )
    })?;
    let mut t = Tokens::new(text);
    expect(
        t.want("`HIERARCHY`")?,
        "HIERARCHY",
        "at the start of the file",
    )?;
    let mut joints: Vec<Joint> = Vec::new();
    // Open joints, innermost last; a joint is pushed at its `{`.
    let mut open: Vec<usize> = Vec::new();
    let mut columns = 0usize;
    let mut roots = 0usize;
    loop {
        let tok = t.want(if open.is_empty() {
            "`ROOT` or `MOTION`"
        } else {
            "`JOINT`, `End Site` or `}`"
        })?;
        let (line, word) = tok;
        match word {
            "MOTION" if open.is_empty() && roots > 0 => break,
            "}" if !open.is_empty() => {
                open.pop();
                continue;
            }
            "ROOT" if open.is_empty() => roots += 1,
            "JOINT" | "End" if !open.is_empty() => {}
            _ => {
                let wanted = if open.is_empty() {
                    if roots == 0 {
                        "`ROOT`"
                    } else {
                        "`ROOT` or `MOTION`"
                    }
                } else {
                    "`JOINT`, `End Site` or `}`"
                };
                let mut e = err(
                    BvhErrorKind::Expected,
                    line,
                    format!("expected {wanted}, found `{word}`"),
                );
                e.joint = open.last().map(|&j| joints[j].name.clone());
                return Err(e);
            }
        }
        let parent = open.last().copied();
        let end_site = word == "End";
        let name = if end_site {
            expect(t.want("`Site`")?, "Site", "after `End`")?;
            format!(
                "{} End Site",
                parent.map_or("", |p| joints[p].name.as_str())
            )
        } else {
            let (_, n) = t.want("a joint name")?;
            n.to_owned()
        };
        let brace = t.want("`{`")?;
        if brace.1 != "{" {
            let mut e = err(
                BvhErrorKind::Expected,
                brace.0,
                format!("expected `{{` after `{word} {name}`, found `{}`", brace.1),
            );
            e.joint = Some(name);
            return Err(e);
        }
        let off = t.want("`OFFSET`")?;
        if off.1 != "OFFSET" {
            let mut e = err(
                BvhErrorKind::Expected,
                off.0,
                format!("expected `OFFSET`, found `{}`", off.1),
            );
            e.joint = Some(name);
            return Err(e);
        }
        let mut o = [0.0f32; 3];
        for (i, v) in o.iter_mut().enumerate() {
            *v = number(
                t.want("an OFFSET value")?,
                &format!("OFFSET {}", ["x", "y", "z"][i]),
                Some(&name),
            )?;
        }
        let mut channels = Vec::new();
        if !end_site {
            let c = t.want("`CHANNELS`")?;
            if c.1 != "CHANNELS" {
                let mut e = err(
                    BvhErrorKind::Expected,
                    c.0,
                    format!("expected `CHANNELS`, found `{}`", c.1),
                );
                e.joint = Some(name);
                return Err(e);
            }
            let (cl, count) = t.want("the channel count")?;
            let n: usize = count.parse().ok().filter(|n| *n <= 6).ok_or_else(|| {
                let mut e = err(
                    BvhErrorKind::ChannelCount,
                    cl,
                    format!("expected a channel count from 0 to 6, found `{count}`"),
                );
                e.joint = Some(name.clone());
                e
            })?;
            for k in 0..n {
                let (chl, ch) = t.want("a channel name")?;
                let parsed = Channel::parse(ch).ok_or_else(|| {
                    let (kind, message) = if ch == "}" || ch == "JOINT" || ch == "End" {
                        (
                            BvhErrorKind::ChannelCount,
                            format!("CHANNELS says {n} but names only {k} before `{ch}`"),
                        )
                    } else {
                        (
                            BvhErrorKind::UnknownChannel,
                            "unknown channel name; expected Xposition, Yposition, Zposition, Xrotation, Yrotation or Zrotation".to_owned(),
                        )
                    };
                    BvhError {
                        kind,
                        line: chl,
                        joint: Some(name.clone()),
                        channel: (kind == BvhErrorKind::UnknownChannel).then(|| ch.to_owned()),
                        message,
                    }
                })?;
                if channels.contains(&parsed) {
                    return Err(BvhError {
                        kind: BvhErrorKind::UnknownChannel,
                        line: chl,
                        joint: Some(name.clone()),
                        channel: Some(ch.to_owned()),
                        message: "channel listed twice".to_owned(),
                    });
                }
                channels.push(parsed);
            }
        }
        joints.push(Joint {
            name,
            parent,
            offset: Vec3::from(o),
            first_column: columns,
            channels,
            end_site,
            line,
        });
        columns += joints.last().map_or(0, |j| j.channels.len());
        open.push(joints.len() - 1);
        if end_site {
            let close = t.want("`}` closing the End Site")?;
            if close.1 != "}" {
                let mut e = err(
                    BvhErrorKind::Expected,
                    close.0,
                    format!("expected `}}` closing the End Site, found `{}`", close.1),
                );
                e.joint = joints.last().map(|j| j.name.clone());
                return Err(e);
            }
            open.pop();
        }
    }
    expect(t.want("`Frames:`")?, "Frames:", "after `MOTION`")?;
    let (fl, fs) = t.want("the frame count")?;
    let frames: usize = fs.parse().map_err(|_| {
        err(
            BvhErrorKind::Expected,
            fl,
            format!("expected the frame count (a whole number), found `{fs}`"),
        )
    })?;
    expect(t.want("`Frame Time:`")?, "Frame", "after the frame count")?;
    expect(t.want("`Time:`")?, "Time:", "after `Frame`")?;
    let ft_tok = t.want("the frame time")?;
    let frame_time = number(ft_tok, "Frame Time", None)?;
    if frame_time <= 0.0 {
        return Err(err(
            BvhErrorKind::FrameTime,
            ft_tok.0,
            format!("Frame Time is {frame_time} s; it must be above zero"),
        ));
    }
    let time_line = ft_tok.0;
    // Rows are whole lines after the Frame Time line.
    let mut values: Vec<f32> = Vec::new();
    let mut rows = 0usize;
    let mut last = time_line;
    for (i, l) in t.rest_lines() {
        let line = i + 1;
        if line <= time_line {
            continue;
        }
        if l.trim().is_empty() {
            continue;
        }
        last = line;
        if rows == frames {
            return Err(err(
                BvhErrorKind::ExtraRows,
                line,
                format!("Frames says {frames}, but a row {} follows", frames + 1),
            ));
        }
        let start = values.len();
        for (c, w) in l.split_whitespace().enumerate() {
            let v = w.parse::<f32>().ok().filter(|v| v.is_finite());
            let Some(v) = v else {
                let owner = joints
                    .iter()
                    .find(|j| c >= j.first_column && c < j.first_column + j.channels.len());
                let kind = if w.parse::<f32>().is_ok() {
                    BvhErrorKind::NonFinite
                } else {
                    BvhErrorKind::Expected
                };
                return Err(BvhError {
                    kind,
                    line,
                    joint: owner.map(|j| j.name.clone()),
                    channel: owner.map(|j| j.channels[c - j.first_column].name()),
                    message: format!(
                        "frame {} value {} is `{w}`, not a finite number",
                        rows + 1,
                        c + 1
                    ),
                });
            };
            if c >= columns {
                values.truncate(start);
                return Err(err(
                    BvhErrorKind::RowLength,
                    line,
                    format!(
                        "frame {} has more than the {columns} values the hierarchy's channels need",
                        rows + 1
                    ),
                ));
            }
            values.push(v);
        }
        let got = values.len() - start;
        if got != columns {
            return Err(err(
                BvhErrorKind::RowLength,
                line,
                format!(
                    "frame {} has {got} values; the hierarchy's channels need {columns}",
                    rows + 1
                ),
            ));
        }
        rows += 1;
    }
    if rows < frames {
        return Err(err(
            BvhErrorKind::Truncated,
            last,
            format!("Frames says {frames}, but the file ends after {rows} rows"),
        ));
    }
    Ok(Bvh {
        joints,
        frame_time,
        frames,
        values,
        channels: columns,
    })
}
