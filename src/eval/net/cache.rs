//! Networks shared once loaded: the shipped ones, and those read from
//! files, by their bytes.

use super::*;

/// How many networks read from files stay cached.
pub const CACHED_NETWORKS: usize = 4;

/// The shipped network, parsed once.
pub fn shipped_shared() -> Result<std::sync::Arc<Net>, WeightsError> {
    use std::sync::{Arc, OnceLock};
    static SHIPPED_NET: OnceLock<Result<Arc<Net>, WeightsError>> = OnceLock::new();
    SHIPPED_NET
        .get_or_init(|| Net::shipped().map(Arc::new))
        .clone()
}

/// The shipped long-nardy network, parsed once.
pub fn long_shipped_shared() -> Result<std::sync::Arc<Net>, WeightsError> {
    use std::sync::{Arc, OnceLock};
    static LONG: OnceLock<Result<Arc<Net>, WeightsError>> = OnceLock::new();
    LONG.get_or_init(|| Net::long_shipped().map(Arc::new))
        .clone()
}

/// The shipped Fevga network, parsed once.
pub fn fevga_shipped_shared() -> Result<std::sync::Arc<Net>, WeightsError> {
    use std::sync::{Arc, OnceLock};
    static FEVGA: OnceLock<Result<Arc<Net>, WeightsError>> = OnceLock::new();
    FEVGA
        .get_or_init(|| {
            Net::for_game(
                Net::from_bytes(super::FEVGA_SHIPPED)?,
                crate::rules::Variant::Fevga,
            )
            .map(Arc::new)
        })
        .clone()
}

/// The network of these weights-file bytes, parsed once per content: a
/// small cache keyed by the bytes' hash and length (whatever path they came
/// from), the least recently used entry evicted beyond [`CACHED_NETWORKS`].
pub fn from_bytes_cached(bytes: &[u8]) -> Result<std::sync::Arc<Net>, WeightsError> {
    use std::hash::{DefaultHasher, Hash, Hasher};
    use std::sync::{Arc, Mutex};
    type Key = (u64, usize);
    static CACHE: Mutex<Vec<(Key, Arc<Net>)>> = Mutex::new(Vec::new());
    // DefaultHasher::new() has fixed keys: the same bytes, the same key.
    let mut h = DefaultHasher::new();
    bytes.hash(&mut h);
    let key = (h.finish(), bytes.len());
    if let Ok(mut cache) = CACHE.lock()
        && let Some(i) = cache.iter().position(|(k, _)| *k == key)
    {
        let entry = cache.remove(i);
        let net = entry.1.clone();
        cache.push(entry);
        return Ok(net);
    }
    let net = Arc::new(Net::from_bytes(bytes)?);
    if let Ok(mut cache) = CACHE.lock() {
        if cache.len() >= CACHED_NETWORKS {
            cache.remove(0);
        }
        cache.push((key, net.clone()));
    }
    Ok(net)
}
