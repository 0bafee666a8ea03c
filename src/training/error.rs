//! Why a training, labelling or refinement step failed.

use std::path::PathBuf;

use crate::eval::net::WeightsError;
use crate::notation::NotationError;
use crate::rules::Variant;

/// Why a training, labelling or refinement step failed: a file that cannot
/// be read or written, a file that does not say what it should, or a run
/// asked of a game it cannot train.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A file or folder cannot be read.
    #[error("cannot read {}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// A `.gz` file that is not gzip text.
    #[error("{} is not gzip text", .path.display())]
    NotGzip {
        /// The file.
        path: PathBuf,
        /// What the decoder said.
        #[source]
        source: std::io::Error,
    },
    /// A text file that is not UTF-8.
    #[error("{} is not UTF-8", .path.display())]
    NotUtf8 {
        /// The file.
        path: PathBuf,
        /// Where the text stops being UTF-8.
        #[source]
        source: std::string::FromUtf8Error,
    },
    /// A generation's folder without labels.
    #[error("{} has no labels (labels.txt.gz or labels/*.txt.gz)", .dir.display())]
    NoLabels {
        /// The folder.
        dir: PathBuf,
    },
    /// A `--labels-through` shard the folder does not hold.
    #[error("{} has no closed shard labels/{name}.txt.gz", .dir.display())]
    NoShard {
        /// The generation's folder.
        dir: PathBuf,
        /// The shard's name, without `.txt.gz`.
        name: String,
    },
    /// A label line that does not start with a position index.
    #[error("{} line {line}: {text:?}", .file.display())]
    LabelIndex {
        /// The labels file.
        file: PathBuf,
        /// Its 1-based line.
        line: usize,
        /// The line.
        text: String,
    },
    /// Two label lines for one position.
    #[error("{}: position {index} is labelled twice", .dir.display())]
    LabelledTwice {
        /// The generation's folder.
        dir: PathBuf,
        /// The position's index.
        index: usize,
    },
    /// A label line that is not an index and five chances of a known
    /// position.
    #[error("labels line {line}: {text:?}")]
    BadLabel {
        /// Its 1-based line among the generation's labels.
        line: usize,
        /// The line.
        text: String,
    },
    /// A positions file line whose kind is not known.
    #[error(
        "{name}:{line}: unknown kind {word:?} (best, played, middle, phase, discrepancy, turn or sibling)"
    )]
    UnknownKind {
        /// The positions file.
        name: String,
        /// Its 1-based line.
        line: usize,
        /// The word.
        word: String,
    },
    /// A positions file line that is not a position.
    #[error("{name}:{line}: not a position: {why}")]
    NotAPosition {
        /// The positions file.
        name: String,
        /// Its 1-based line.
        line: usize,
        /// Why not.
        why: NotationError,
    },
    /// The hitting games' trainer asked for a game of another network.
    #[error("{0} has no hitting-game network")]
    NoHittingNetwork(Variant),
    /// The running games' trainer asked for a hitting or pinning game.
    #[error("{0} trains in train_hitting")]
    TrainsInHitting(Variant),
    /// An input layout Gul bara has not.
    #[error("Gul bara has input layouts 1, {block} and {mobility}, not {layout}", block = crate::eval::net::BLOCK_LAYOUT, mobility = crate::eval::net::MOBILITY_LAYOUT)]
    Layout {
        /// The layout asked for.
        layout: u32,
    },
    /// A run's checkpoint of another game (its description says which).
    #[error("{} holds a network of another game: {description}", .path.display())]
    OtherGame {
        /// The checkpoint.
        path: PathBuf,
        /// Its description.
        description: String,
    },
    /// A run's checkpoint of another input layout.
    #[error("{} holds a network of another game (input layout {layout})", .path.display())]
    OtherLayout {
        /// The checkpoint.
        path: PathBuf,
        /// Its input layout.
        layout: u32,
    },
    /// A checkpoint that is not a network this build reads.
    #[error(transparent)]
    Weights(#[from] WeightsError),
    /// A file of the run's folder cannot be written (or read back).
    #[error(transparent)]
    Io(#[from] std::io::Error),
}
