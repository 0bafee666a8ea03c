//! A match's rule options as arguments: `--rule name=value` read into
//! options, and the settings every engine is sent for them.

#[allow(clippy::wildcard_imports)]
use super::*;

/// The settings every engine of a match is sent after its own options:
/// `game.variant` (left out for Gul bara, the protocol's default, so that
/// engines that know no other game keep working), then every `rules.*`
/// option of that variant. Setting the variant first matters: it puts the
/// rules back to the variant's defaults.
pub fn rule_settings(rules: &RuleOptions) -> Vec<(String, String)> {
    let variant = (rules.variant != Variant::default())
        .then(|| ("game.variant".to_string(), rules.variant.to_string()));
    variant
        .into_iter()
        .chain(
            rules
                .variant
                .options()
                .iter()
                .map(|o| (o.key.to_string(), rules.get(o.name).unwrap_or_default())),
        )
        .collect()
}

/// For the CLI: turns a rule option list `k=v` of `variant`'s options into
/// options (the variant's defaults for the rest).
pub fn parse_rules(variant: Variant, args: &[String]) -> Result<RuleOptions, RuleArgError> {
    let mut o = RuleOptions::for_variant(variant);
    for a in args {
        let (k, v) = a
            .split_once('=')
            .ok_or_else(|| RuleArgError::NotKeyValue(a.clone()))?;
        o.set(k, v)?;
    }
    Ok(o)
}

/// Why a `--rule` was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleArgError {
    /// Not `name=value`.
    #[error("--rule takes name=value, got '{0}'")]
    NotKeyValue(String),
    /// Not an option of the game, or not a value of it.
    #[error(transparent)]
    Option(#[from] crate::rules::options::OptionError),
}
