//! Value parsers for the numeric flags of the training commands. A NaN or an
//! infinite rate, weight or time would not fail where it is given: it would
//! turn a network's weights to NaN, or panic or run without end later, so
//! such values are refused as the command line is read.

use std::str::FromStr;

/// A number that is finite, as `T` (`f32` or `f64`).
fn finite<T>(s: &str) -> Result<T, String>
where
    T: FromStr + Copy + Into<f64>,
{
    let v: T = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number"))?;
    if v.into().is_finite() {
        Ok(v)
    } else {
        Err(format!("`{s}`: a finite number is needed"))
    }
}

/// A finite number that also passes `ok`; else `need` says what is
/// needed.
fn finite_where<T>(s: &str, ok: impl Fn(T) -> bool, need: &str) -> Result<T, String>
where
    T: FromStr + Copy + Into<f64> + std::fmt::Display,
{
    let v: T = finite(s)?;
    if ok(v) {
        Ok(v)
    } else {
        Err(format!("{v}: {need} is needed"))
    }
}

/// A finite `f32` of 0 or more (weights, decays, thresholds).
pub fn non_negative_f32(s: &str) -> Result<f32, String> {
    finite_where(s, |v: f32| v >= 0.0, "0 or more")
}

/// A finite `f64` of 0 or more (shares, minutes).
pub fn non_negative_f64(s: &str) -> Result<f64, String> {
    finite_where(s, |v: f64| v >= 0.0, "0 or more")
}

/// A finite `f32` above 0 (learning rates).
pub fn positive_f32(s: &str) -> Result<f32, String> {
    finite_where(s, |v: f32| v > 0.0, "a number above 0")
}

/// An `f32` from 0 to 1 (λ, mixes).
pub fn unit_f32(s: &str) -> Result<f32, String> {
    finite_where(s, |v: f32| (0.0..=1.0).contains(&v), "a number from 0 to 1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_would_poison_training() {
        assert_eq!(positive_f32("1e-4"), Ok(1e-4));
        assert_eq!(non_negative_f32(" 0 "), Ok(0.0));
        assert_eq!(non_negative_f64("0.5"), Ok(0.5));
        assert_eq!(unit_f32("1"), Ok(1.0));
        for bad in ["nan", "NaN", "inf", "-inf", "1e39", "x", ""] {
            assert!(positive_f32(bad).is_err(), "{bad}");
            assert!(non_negative_f32(bad).is_err(), "{bad}");
            assert!(unit_f32(bad).is_err(), "{bad}");
        }
        assert!(non_negative_f64("1e309").is_err());
        assert!(positive_f32("0").is_err());
        assert!(non_negative_f32("-0.1").is_err());
        assert!(non_negative_f64("-1").is_err());
        assert!(unit_f32("1.5").is_err());
        // The messages, each number as it was read.
        assert_eq!(
            non_negative_f32("-0.1"),
            Err("-0.1: 0 or more is needed".to_string())
        );
        assert_eq!(
            non_negative_f64("-1"),
            Err("-1: 0 or more is needed".to_string())
        );
        assert_eq!(
            positive_f32("0"),
            Err("0: a number above 0 is needed".to_string())
        );
        assert_eq!(
            unit_f32("1.5"),
            Err("1.5: a number from 0 to 1 is needed".to_string())
        );
    }
}
