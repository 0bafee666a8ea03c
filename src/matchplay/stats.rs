//! Match statistics: points per game over mirrored pairs, standard error,
//! and a sequential probability ratio test.

pub use crate::stats::mean_se;

/// Why an `--sprt` value was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SprtError {
    /// A value is not a number.
    #[error("bad number '{text}' in --sprt")]
    Number {
        /// The text.
        text: String,
        /// Why it is not one.
        #[source]
        source: std::num::ParseFloatError,
    },
    /// Not two or four values.
    #[error("--sprt takes p0,p1 or p0,p1,alpha,beta")]
    Arity,
    /// The values are out of range.
    #[error("--sprt needs p0 < p1 and 0 < alpha, beta < 0.5")]
    Range,
}

/// Settings of an SPRT on points per game: H0 ppg = `p0` against H1 ppg = `p1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Points per game under H0.
    pub p0: f64,
    /// Points per game under H1.
    pub p1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Keep playing.
    Continue,
    /// H1 accepted.
    AcceptH1,
    /// H0 accepted.
    AcceptH0,
}

impl Sprt {
    /// Parses `p0,p1[,alpha,beta]`.
    pub fn parse(s: &str) -> Result<Sprt, SprtError> {
        let v: Vec<f64> = s
            .split(',')
            .map(|t| {
                t.trim().parse::<f64>().map_err(|source| SprtError::Number {
                    text: t.to_string(),
                    source,
                })
            })
            .collect::<Result<_, _>>()?;
        let (p0, p1, alpha, beta) = match v.as_slice() {
            [a, b] => (*a, *b, 0.05, 0.05),
            [a, b, c, d] => (*a, *b, *c, *d),
            _ => return Err(SprtError::Arity),
        };
        if p0 >= p1
            || !(0.0..0.5).contains(&alpha)
            || !(0.0..0.5).contains(&beta)
            || alpha == 0.0
            || beta == 0.0
        {
            return Err(SprtError::Range);
        }
        Ok(Sprt {
            p0,
            p1,
            alpha,
            beta,
        })
    }

    /// Log-likelihood ratio of the pair scores under a normal model with
    /// the sample variance.
    pub fn llr(&self, pairs: &[f64]) -> f64 {
        if pairs.len() < 2 {
            return 0.0;
        }
        let n = pairs.len() as f64;
        let mean = pairs.iter().sum::<f64>() / n;
        let var = crate::stats::sample_variance(pairs, mean).max(1e-9);
        (self.p1 - self.p0) / var * (pairs.iter().sum::<f64>() - n * (self.p0 + self.p1) / 2.0)
    }

    /// The decision after these pair scores.
    pub fn state(&self, pairs: &[f64]) -> SprtState {
        if pairs.len() < 8 {
            return SprtState::Continue;
        }
        let llr = self.llr(pairs);
        let lower = (self.beta / (1.0 - self.alpha)).ln();
        let upper = ((1.0 - self.beta) / self.alpha).ln();
        if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_se_by_hand() {
        let (m, se) = mean_se(&[1.0, -1.0, 1.0, -1.0]);
        assert_eq!(m, 0.0);
        // sample variance 4/3, se = sqrt(4/3/4)
        assert!((se - (1.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!(mean_se(&[]), (0.0, 0.0));
    }

    #[test]
    fn sprt_decides_clear_cases() {
        let s = Sprt::parse("0,0.5").unwrap();
        let good: Vec<f64> = (0..200)
            .map(|i| if i % 4 == 0 { -1.0 } else { 1.5 })
            .collect();
        assert_eq!(s.state(&good), SprtState::AcceptH1);
        let bad: Vec<f64> = (0..200)
            .map(|i| if i % 2 == 0 { -1.0 } else { 0.8 })
            .collect();
        assert_eq!(s.state(&bad), SprtState::AcceptH0);
        assert!(Sprt::parse("0.5,0").is_err());
        assert!(Sprt::parse("x,1").is_err());
    }
}
