//! The weights file: its header, reading and writing a network, and
//! reading a file without blocking or reading more than it declares.

use super::*;

/// The (layout, inputs, outputs) of every network this build reads.
pub(super) fn known_kind(layout: u32, inputs: usize, outputs: usize) -> bool {
    let hit = (
        HIT_LAYOUT,
        crate::eval::hitnet::INPUTS,
        crate::eval::hitnet::OUTPUTS,
    );
    let kind = (layout, inputs, outputs);
    let hit_contact = (
        HIT_CONTACT_LAYOUT,
        crate::eval::hitnet::CONTACT_INPUTS,
        crate::eval::hitnet::OUTPUTS,
    );
    let hit_gnubg = (
        HIT_GNUBG_LAYOUT,
        crate::eval::hitnet::GNUBG_INPUTS,
        crate::eval::hitnet::OUTPUTS,
    );
    kind == hit_contact
        || kind == hit_gnubg
        || kind == (LAYOUT_VERSION, INPUTS, OUTPUTS)
        || kind == (LONG_LAYOUT, LONG_INPUTS, OUTPUTS)
        || kind
            == (
                block_inputs::RUN_BLOCK_LAYOUT,
                block_inputs::RUN_BLOCK_INPUTS,
                OUTPUTS,
            )
        || kind == (BLOCK_LAYOUT, BLOCK_INPUTS, OUTPUTS)
        || kind == (MOBILITY_LAYOUT, MOBILITY_INPUTS, OUTPUTS)
        || kind == hit
        || kind
            == (
                pin_inputs::PIN_LAYOUT,
                pin_inputs::PIN_INPUTS,
                crate::eval::hitnet::OUTPUTS,
            )
}

/// A malformed weights file, or one of another game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// Too short for the header, or without the magic.
    #[error("bad weights file: not a gulbara weights file (magic GBNN missing)")]
    NotWeights,
    /// Another version of the format.
    #[error(
        "bad weights file: format version {0}, expected {FORMAT_VERSION} (one hidden layer) or {FORMAT_VERSION_TWO_LAYERS} (two)"
    )]
    FormatVersion(u32),
    /// A network this build does not read.
    #[error(
        "bad weights file: input layout {layout} with {inputs} inputs and {outputs} outputs; this build reads layout {LAYOUT_VERSION} ({INPUTS} inputs, {OUTPUTS} outputs: Gul bara) and layout {HIT_LAYOUT} ({} inputs, {} outputs: backgammon and short nardy; layout {HIT_CONTACT_LAYOUT} has {} inputs, layout {HIT_GNUBG_LAYOUT} {})",
        crate::eval::hitnet::INPUTS,
        crate::eval::hitnet::OUTPUTS,
        crate::eval::hitnet::CONTACT_INPUTS,
        crate::eval::hitnet::GNUBG_INPUTS
    )]
    UnknownKind {
        /// The input layout.
        layout: u32,
        /// The number of inputs.
        inputs: usize,
        /// The number of outputs.
        outputs: usize,
    },
    /// No hidden unit, or too many.
    #[error("bad weights file: {0} hidden units")]
    HiddenUnits(usize),
    /// A second hidden layer of no unit, or of too many.
    #[error("bad weights file: a second hidden layer of {0} units")]
    SecondLayerUnits(usize),
    /// A description too long.
    #[error("bad weights file: a description of {0} bytes (at most {MAX_DESCRIPTION})")]
    LongDescription(usize),
    /// Not the length the header declares.
    #[error("bad weights file: {len} bytes, expected {expected}")]
    Length {
        /// The file's length.
        len: u64,
        /// The length its header declares.
        expected: u64,
    },
    /// A network with another number of outputs than the reader's.
    #[error(
        "bad weights file: a network of {outputs} outputs (input layout {layout}) where one of {wanted} is needed: weights of another game"
    )]
    Outputs {
        /// The file's outputs.
        outputs: usize,
        /// Its input layout.
        layout: u32,
        /// The outputs needed.
        wanted: usize,
    },
    /// A NaN or an infinity.
    #[error("bad weights file: non-finite weight")]
    NonFinite,
    /// A weight no training makes.
    #[error("bad weights file: a weight beyond ±{MAX_WEIGHT} (not a trained network)")]
    TooLarge,
    /// A phase network for a game whose one network judges every phase.
    #[error(
        "{0} has one network for every phase: phase networks (engine.race_weights, engine.crashed_weights) are the hitting games' (backgammon, short nardy, Portes, Tabla)"
    )]
    NoPhaseNetworks(crate::rules::Variant),
    /// A network that is not the one the game's table row names (its
    /// evaluator family's outputs and input layouts, [`NetShape`]).
    #[error(
        "bad weights file: a network of input layout {layout} with {outputs} outputs where {variant} needs {wanted}: weights of another game"
    )]
    OtherGame {
        /// The file's input layout.
        layout: u32,
        /// The file's outputs.
        outputs: usize,
        /// The game.
        variant: crate::rules::Variant,
        /// What the game's network is.
        wanted: NetShape,
    },
}

/// A game's network as its table row says ([`crate::rules::VariantSpec::eval`],
/// the evaluator family): how many outputs it has and the input layouts
/// its family reads. [`crate::eval::GameNet::load`] refuses any other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetShape {
    /// The outputs: 3 (win, win mars, lose mars) or 5 (and the backgammons).
    pub outputs: usize,
    /// The input layouts, in the order they came.
    pub layouts: &'static [u32],
}

impl NetShape {
    /// The network of the evaluator family `family`.
    pub const fn of(family: crate::rules::EvalFamily) -> NetShape {
        use crate::rules::EvalFamily;
        match family {
            EvalFamily::GulBara => NetShape {
                outputs: OUTPUTS,
                layouts: &[LAYOUT_VERSION, BLOCK_LAYOUT, MOBILITY_LAYOUT],
            },
            EvalFamily::LongNardy => NetShape {
                outputs: OUTPUTS,
                layouts: &[LONG_LAYOUT, block_inputs::RUN_BLOCK_LAYOUT],
            },
            EvalFamily::Hitting => NetShape {
                outputs: crate::eval::hitnet::OUTPUTS,
                layouts: &[HIT_LAYOUT, HIT_CONTACT_LAYOUT, HIT_GNUBG_LAYOUT],
            },
            EvalFamily::Pinning => NetShape {
                outputs: crate::eval::hitnet::OUTPUTS,
                layouts: &[HIT_LAYOUT, pin_inputs::PIN_LAYOUT],
            },
        }
    }

    /// Whether a network of input `layout` and `outputs` outputs is this
    /// one; the error names the file's shape, `variant` and this shape.
    pub fn check(
        self,
        variant: crate::rules::Variant,
        layout: u32,
        outputs: usize,
    ) -> Result<(), WeightsError> {
        if outputs == self.outputs && self.layouts.contains(&layout) {
            Ok(())
        } else {
            Err(WeightsError::OtherGame {
                layout,
                outputs,
                variant,
                wanted: self,
            })
        }
    }
}

impl std::fmt::Display for NetShape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} outputs and input layout ", self.outputs)?;
        let n = self.layouts.len();
        for (i, l) in self.layouts.iter().enumerate() {
            let sep = match i {
                0 => "",
                _ if i + 1 == n => " or ",
                _ => ", ",
            };
            write!(f, "{sep}{l}")?;
        }
        Ok(())
    }
}

/// The input layout and the outputs of the network in the weights-file
/// bytes `data`, from its header (checked as [`NetOf::from_bytes`] checks
/// it), without reading the weights.
pub fn file_shape(data: &[u8]) -> Result<(u32, usize), WeightsError> {
    let h = Header::read(data)?;
    Ok((h.layout, h.outputs))
}

/// Length of the fixed header: magic and six u32s.
pub(super) const HEADER_LEN: usize = 28;
/// Length of format 2's header: format 1's and the second hidden layer's
/// units.
pub(super) const HEADER_LEN_TWO_LAYERS: usize = HEADER_LEN + 4;
/// Longest description a weights file may carry.
pub(super) const MAX_DESCRIPTION: usize = 1 << 16;
/// The largest weights file ever read (far above any network this build
/// accepts: 4,096 hidden units make about 3.3 MB).
pub const MAX_WEIGHTS_FILE: u64 = 16 << 20;

/// The checked fixed header of a weights file.
pub(super) struct Header {
    layout: u32,
    inputs: usize,
    hidden: usize,
    outputs: usize,
    desc_len: usize,
    /// The second hidden layer's units (0: none, format 1).
    hidden2: usize,
}

/// A file too short for the header, or without the magic.
pub(super) fn not_weights() -> WeightsError {
    WeightsError::NotWeights
}

/// The header's length for the format version in the first
/// [`HEADER_LEN`] bytes `h` (a format this build does not read: format 1's,
/// for [`Header::read`] to refuse).
pub(super) fn header_len(h: &[u8; HEADER_LEN]) -> usize {
    if u32::from_le_bytes([h[4], h[5], h[6], h[7]]) == FORMAT_VERSION_TWO_LAYERS {
        HEADER_LEN_TWO_LAYERS
    } else {
        HEADER_LEN
    }
}

impl Header {
    /// The header at the start of `h`: [`HEADER_LEN`] bytes, or
    /// [`HEADER_LEN_TWO_LAYERS`] for format 2 ([`header_len`]).
    fn read(full: &[u8]) -> Result<Header, WeightsError> {
        let h = full.get(..HEADER_LEN).ok_or_else(not_weights)?;
        if &h[..4] != MAGIC {
            return Err(not_weights());
        }
        let u = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
        let (format, layout, inputs, hidden, outputs, desc_len) = (
            u(4),
            u(8),
            u(12) as usize,
            u(16) as usize,
            u(20) as usize,
            u(24) as usize,
        );
        if format != FORMAT_VERSION && format != FORMAT_VERSION_TWO_LAYERS {
            return Err(WeightsError::FormatVersion(format));
        }
        let hidden2 = if format == FORMAT_VERSION_TWO_LAYERS {
            let x = full
                .get(HEADER_LEN..HEADER_LEN_TWO_LAYERS)
                .ok_or_else(not_weights)?;
            let hidden2 = u32::from_le_bytes([x[0], x[1], x[2], x[3]]) as usize;
            if hidden2 == 0 || hidden2 > 4096 {
                return Err(WeightsError::SecondLayerUnits(hidden2));
            }
            hidden2
        } else {
            0
        };
        if !known_kind(layout, inputs, outputs) {
            return Err(WeightsError::UnknownKind {
                layout,
                inputs,
                outputs,
            });
        }
        if hidden == 0 || hidden > 4096 {
            return Err(WeightsError::HiddenUnits(hidden));
        }
        if desc_len > MAX_DESCRIPTION {
            return Err(WeightsError::LongDescription(desc_len));
        }
        Ok(Header {
            layout,
            inputs,
            hidden,
            outputs,
            desc_len,
            hidden2,
        })
    }

    /// The header's length.
    fn len(&self) -> usize {
        if self.hidden2 > 0 {
            HEADER_LEN_TWO_LAYERS
        } else {
            HEADER_LEN
        }
    }

    /// The units the outputs read: the second hidden layer's, else the
    /// first's.
    fn top(&self) -> usize {
        if self.hidden2 > 0 {
            self.hidden2
        } else {
            self.hidden
        }
    }

    /// The file length the header declares.
    fn file_len(&self) -> u64 {
        let floats = self.inputs * self.hidden
            + self.hidden
            + self.hidden2 * self.hidden
            + self.hidden2
            + self.outputs * self.top()
            + self.outputs;
        (self.len() + self.desc_len + 4 * floats) as u64
    }
}

impl<const OUT: usize> NetOf<OUT> {
    /// Serializes to the weights file format (version 1 for a network of
    /// one hidden layer, 2 for one of two).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        let two = self.hidden2 > 0;
        for v in [
            if two {
                FORMAT_VERSION_TWO_LAYERS
            } else {
                FORMAT_VERSION
            },
            self.layout,
            self.inputs as u32,
            self.hidden as u32,
            OUT as u32,
            self.description.len() as u32,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        if two {
            b.extend_from_slice(&(self.hidden2 as u32).to_le_bytes());
        }
        b.extend_from_slice(self.description.as_bytes());
        for v in self
            .w1
            .iter()
            .chain(&self.b1)
            .chain(&self.w_mid)
            .chain(&self.b_mid)
            .chain(&self.w2)
            .chain(&self.b2)
        {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b
    }

    /// Reads the weights file format.
    pub fn from_bytes(data: &[u8]) -> Result<NetOf<OUT>, WeightsError> {
        let layout = Header::read(data)?;
        let start = layout.len() + layout.desc_len;
        if data.len() as u64 != layout.file_len() {
            return Err(WeightsError::Length {
                len: data.len() as u64,
                expected: layout.file_len(),
            });
        }
        if layout.outputs != OUT {
            return Err(WeightsError::Outputs {
                outputs: layout.outputs,
                layout: layout.layout,
                wanted: OUT,
            });
        }
        let (inputs, hidden, outputs) = (layout.inputs, layout.hidden, OUT);
        let description = String::from_utf8_lossy(&data[layout.len()..start]).into_owned();
        let mut vals = data[start..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let mut take = |n: usize| -> Vec<f32> { vals.by_ref().take(n).collect() };
        let w1 = take(inputs * hidden);
        let b1 = take(hidden);
        let hidden2 = layout.hidden2;
        let w_mid = take(hidden2 * hidden);
        let b_mid = take(hidden2);
        let w2 = take(outputs * layout.top());
        let b2 = take(outputs);
        if [&w1, &b1, &w_mid, &b_mid, &w2, &b2]
            .iter()
            .any(|v| v.iter().any(|x| !x.is_finite()))
        {
            return Err(WeightsError::NonFinite);
        }
        // Far above any trained weight (the shipped ones stay below 8), and
        // small enough that no sum of a forward pass can overflow to infinity.
        if [&w1, &b1, &w_mid, &b_mid, &w2, &b2]
            .iter()
            .any(|v| v.iter().any(|x| x.abs() > MAX_WEIGHT))
        {
            return Err(WeightsError::TooLarge);
        }
        Ok(NetOf {
            layout: layout.layout,
            inputs,
            hidden,
            w1,
            b1,
            hidden2,
            w_mid,
            b_mid,
            w2,
            b2,
            description,
            rows: RowTable::default(),
        })
    }
}

/// Why a weights file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be opened or read, or is not a regular file of a
    /// sane size. The text names file-system details: show it only to the
    /// local user.
    #[error("{path}: {source}")]
    File {
        /// The file as the user named it.
        path: String,
        /// What the system said, or what is wrong with the file.
        #[source]
        source: std::io::Error,
    },
    /// The bytes are not a valid weights file.
    #[error(transparent)]
    Format(#[from] WeightsError),
}

/// Reads a weights file without ever blocking or reading more than the
/// header declares: the file is opened non-blocking (a FIFO or a device
/// neither stalls nor streams), it must be a regular file of at most
/// [`MAX_WEIGHTS_FILE`] bytes, and exactly the declared length is read.
/// With `no_follow`, a symbolic link as the last component is refused.
pub fn read_weights_file(path: &std::path::Path, no_follow: bool) -> Result<Vec<u8>, LoadError> {
    use std::io::Read;
    let shown = path.display();
    let io = |source: std::io::Error| LoadError::File {
        path: shown.to_string(),
        source,
    };
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let mut flags = libc::O_NONBLOCK | libc::O_NOCTTY;
        if no_follow {
            flags |= libc::O_NOFOLLOW;
        }
        open.custom_flags(flags);
    }
    #[cfg(not(unix))]
    let _ = no_follow;
    let file = open.open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(io(std::io::Error::other("not a regular file")));
    }
    if meta.len() > MAX_WEIGHTS_FILE {
        return Err(io(std::io::Error::other(format!(
            "{} bytes, more than the {MAX_WEIGHTS_FILE} a weights file may have",
            meta.len()
        ))));
    }
    let mut first = [0u8; HEADER_LEN];
    let mut reader = file.take(MAX_WEIGHTS_FILE + 1);
    reader
        .read_exact(&mut first)
        .map_err(|_| LoadError::Format(not_weights()))?;
    let mut header = first.to_vec();
    header.resize(header_len(&first), 0);
    reader
        .read_exact(&mut header[HEADER_LEN..])
        .map_err(|_| LoadError::Format(not_weights()))?;
    let declared = Header::read(&header)?.file_len();
    if declared != meta.len() {
        return Err(LoadError::Format(WeightsError::Length {
            len: meta.len(),
            expected: declared,
        }));
    }
    // `declared` is at most MAX_WEIGHTS_FILE here: `meta.len()` was checked.
    let mut bytes = Vec::with_capacity(declared as usize);
    bytes.extend_from_slice(&header);
    reader.set_limit(declared.saturating_sub(header.len() as u64) + 1);
    reader.read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 != declared {
        return Err(io(std::io::Error::other("changed while it was read")));
    }
    Ok(bytes)
}
