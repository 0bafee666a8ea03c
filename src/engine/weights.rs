//! Loading a game's network from the weights `engine.weights` names, under
//! a file-access policy: the one loader the protocol, the in-process
//! players, the gnubg bridge and `analyse` use.

use std::path::{Path, PathBuf};

use super::settings::Weights;
use crate::eval::GameNet;
use crate::eval::net::{LoadError, WeightsError, read_weights_file};
use crate::eval::phase::Phase;
use crate::rules::Variant;

/// What an engine may do with the machine's files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum FileAccess {
    /// The user runs the engine themselves (stdio, the command line): any
    /// path they name is read (still bounded, never blocking), and errors
    /// say what failed.
    #[default]
    Local,
    /// A remote client: no file is read unless the server names a weights
    /// directory, and then only regular files inside it. Errors name no
    /// file-system detail.
    Remote {
        /// The canonical weights directory, if the server has one.
        weights_dir: Option<PathBuf>,
    },
}

/// Why a network could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadNetError {
    /// The file could not be read (a local user's file: the text names it).
    #[error(transparent)]
    Read(#[from] LoadError),
    /// The bytes are not a network of the game.
    #[error(transparent)]
    Format(#[from] WeightsError),
    /// A remote client named a file, and the server reads none.
    #[error(
        "this server reads no weights files (it was started without --weights-dir); only shipped"
    )]
    NoWeightsDir,
    /// A remote client named a file that is not a readable one inside the
    /// weights directory. Deliberately without its cause: every failure
    /// reads the same, so a client learns nothing about the server's files.
    #[error("no readable weights file of that name in the weights directory")]
    NotInWeightsDir,
}

/// The network of `variant` from the weights `weights` names, read under
/// the `files` policy: the shipped one, or a file that must hold that
/// game's network.
pub fn load_net(
    variant: Variant,
    weights: &Weights,
    files: &FileAccess,
) -> Result<GameNet, LoadNetError> {
    let bytes = file_bytes(weights, files)?;
    Ok(GameNet::load(variant, bytes.as_deref())?)
}

/// `net` (the network of `variant`) with `phase`'s own network read from
/// the weights `weights` names, under the `files` policy: `shipped` is the
/// shipped one of that phase, and none is shipped yet, so the phase goes
/// back to the contact network.
pub fn with_phase_net(
    net: GameNet,
    variant: Variant,
    phase: Phase,
    weights: &Weights,
    files: &FileAccess,
) -> Result<GameNet, LoadNetError> {
    let bytes = file_bytes(weights, files)?;
    Ok(net.with_phase(variant, phase, bytes.as_deref())?)
}

/// The bytes of the file `weights` names under the `files` policy; `None`
/// for the shipped network.
fn file_bytes(weights: &Weights, files: &FileAccess) -> Result<Option<Vec<u8>>, LoadNetError> {
    match weights {
        Weights::Shipped => Ok(None),
        Weights::File(path) => read_file(path, files).map(Some),
    }
}

/// The bytes of the weights file `named` under the `files` policy.
fn read_file(named: &Path, files: &FileAccess) -> Result<Vec<u8>, LoadNetError> {
    match files {
        FileAccess::Local => Ok(read_weights_file(named, false)?),
        FileAccess::Remote { weights_dir: None } => Err(LoadNetError::NoWeightsDir),
        FileAccess::Remote {
            weights_dir: Some(dir),
        } => {
            let path = if named.is_absolute() {
                named.to_path_buf()
            } else {
                dir.join(named)
            };
            // Canonical: no `..` and no symbolic link leads out of the directory.
            let real = path
                .canonicalize()
                .map_err(|_| LoadNetError::NotInWeightsDir)?;
            if !real.starts_with(dir) || real == *dir {
                return Err(LoadNetError::NotInWeightsDir);
            }
            read_weights_file(&real, true).map_err(|e| match e {
                LoadError::File { .. } => LoadNetError::NotInWeightsDir,
                LoadError::Format(f) => LoadNetError::Format(f),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_fails_is_an_error_never_the_baseline() {
        let missing = Weights::File("/nonexistent/gulbara/weights.gbnn".into());
        let local = load_net(Variant::GulBara, &missing, &FileAccess::Local);
        assert!(
            matches!(local, Err(LoadNetError::Read(_))),
            "{:?}",
            local.err()
        );
        let remote = FileAccess::Remote { weights_dir: None };
        assert!(matches!(
            load_net(Variant::GulBara, &missing, &remote),
            Err(LoadNetError::NoWeightsDir)
        ));
        let dir = std::env::temp_dir();
        let remote = FileAccess::Remote {
            weights_dir: Some(dir.canonicalize().unwrap()),
        };
        assert!(matches!(
            load_net(Variant::GulBara, &missing, &remote),
            Err(LoadNetError::NotInWeightsDir)
        ));
        for v in Variant::ALL {
            assert!(load_net(v, &Weights::Shipped, &FileAccess::Local).is_ok());
        }
    }
}
