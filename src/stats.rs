//! Means and their standard errors: what every measurement here reports
//! (points per game ± se, rollout equities ± se).

/// Mean and standard error of the mean of `xs` (0 when fewer than two).
pub fn mean_se(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    (mean, (sample_variance(xs, mean) / n).sqrt())
}

/// The sample variance of `xs` (n − 1 in the denominator) about `mean`;
/// `xs` has at least two values.
pub fn sample_variance(xs: &[f64], mean: f64) -> f64 {
    xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (xs.len() as f64 - 1.0)
}

/// Mean and standard error of the mean of `n` values from their running
/// sum and sum of squares (for tallies that keep no values).
pub fn mean_se_of_sums(n: u64, sum: f64, sum2: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let nf = n as f64;
    let mean = sum / nf;
    if n < 2 {
        return (mean, 0.0);
    }
    let var = ((sum2 - sum * sum / nf) / (nf - 1.0)).max(0.0);
    (mean, (var / nf).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_agree_by_hand() {
        let xs = [1.0, 2.0, 4.0, -1.0];
        let (m, se) = mean_se(&xs);
        // mean 1.5; squared deviations 0.25 + 0.25 + 6.25 + 6.25 = 13; var 13/3.
        assert!((m - 1.5).abs() < 1e-12);
        assert!((se - (13.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-12);
        let sum: f64 = xs.iter().sum();
        let sum2: f64 = xs.iter().map(|x| x * x).sum();
        let (m2, se2) = mean_se_of_sums(4, sum, sum2);
        assert!((m - m2).abs() < 1e-12 && (se - se2).abs() < 1e-12);
        assert_eq!(mean_se(&[]), (0.0, 0.0));
        assert_eq!(mean_se_of_sums(1, 3.0, 9.0), (3.0, 0.0));
    }
}
