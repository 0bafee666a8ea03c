use super::*;

/// Units in the last place between `got` and the exact `want`.
fn ulps(got: f32, want: f64) -> f64 {
    let ulp = f64::from(f32::from_bits((want as f32).to_bits() + 1) - want as f32);
    (f64::from(got) - want).abs() / ulp
}

#[test]
fn exp_is_within_a_few_ulps_of_the_exact_value() {
    let mut worst: f64 = 0.0;
    let mut x = -87.0f32;
    while x <= 87.0 {
        worst = worst.max(ulps(exp(x), f64::from(x).exp()));
        x += 0.000_713;
    }
    assert!(worst <= 3.0, "worst error {worst} ulps");
    assert_eq!(exp(0.0), 1.0);
    // Clamped, finite and positive far out.
    assert!(exp(1e30).is_finite() && exp(-1e30) > 0.0);
    assert!(sigmoid(1e30) == 1.0 && sigmoid(-1e30) >= 0.0);
}

#[test]
fn sigmoid_is_within_a_few_ulps_and_symmetric() {
    let mut x = -30.0f32;
    while x <= 30.0 {
        let want = 1.0 / (1.0 + (-f64::from(x)).exp());
        assert!(ulps(sigmoid(x), want) <= 4.0, "sigmoid({x})");
        // σ(x) + σ(−x) = 1 up to rounding.
        assert!((sigmoid(x) + sigmoid(-x) - 1.0).abs() < 1e-6);
        x += 0.0173;
    }
}

#[test]
fn the_table_sigmoid_is_within_its_bound_everywhere() {
    let exact = |x: f32| 1.0 / (1.0 + (-f64::from(x)).exp());
    let mut worst: f64 = 0.0;
    let mut x = -40.0f32;
    while x <= 40.0 {
        worst = worst.max((f64::from(sigmoid_table(x)) - exact(x)).abs());
        x += 0.000_37;
    }
    // Every segment's ends, from both sides, and the far tails.
    for k in 0..=64 {
        let x = k as f32 / 2.0;
        for y in [x, -x, f32::from_bits(x.to_bits().saturating_sub(1))] {
            worst = worst.max((f64::from(sigmoid_table(y)) - exact(y)).abs());
        }
    }
    assert!(worst <= 1.5e-7, "worst error {worst}");
    assert!(sigmoid_table(1e30) > 0.999_999 && sigmoid_table(-1e30) < 1e-6);
    assert_eq!(sigmoid_table(f32::INFINITY), sigmoid_table(1e30));
    assert!(sigmoid_table(f32::NAN).is_finite());
    // In play's hidden layer's AVX-512 copy too (any length: whole
    // registers and the tail): no inputs, so each unit is its bias.
    let grid: Vec<f32> = (-3000..2999).map(|i| i as f32 * 0.011).collect();
    let units = vec![1f32; grid.len()];
    let rows = FixedRows {
        ints: &[],
        int_rows: 0,
        floats: &[],
        bias: &grid,
        units: &units,
    };
    let mut a = vec![0f32; grid.len()];
    hidden_layer_fixed(rows, &[], &mut a);
    for (x, y) in grid.iter().zip(&a) {
        assert_eq!(y.to_bits(), sigmoid_table(*x).to_bits(), "at {x}");
    }
}

#[test]
fn exp_of_known_values() {
    for (x, want) in [
        (1.0f32, std::f32::consts::E),
        (-1.0, 0.367_879_45),
        (10.0, 22_026.465),
    ] {
        assert!((exp(x) - want).abs() <= want * 3e-7, "exp({x})");
    }
}

/// FNV-1a over the bits of `f` on a grid of arguments.
fn grid_hash(f: impl Fn(f32) -> f32) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for i in -100_000..=100_000 {
        let x = i as f32 * 0.000_97;
        for b in f(x).to_bits().to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

#[test]
fn the_bits_are_the_same_on_every_machine() {
    // Pinned on the machine that wrote this: a CPU, a target or a
    // compiler that changed a single bit of the arithmetic fails here
    // (and would change what the shipped networks play).
    assert_eq!(grid_hash(exp), GRID_EXP);
    assert_eq!(grid_hash(sigmoid), GRID_SIGMOID);
    assert_eq!(grid_hash(sigmoid_table), GRID_SIGMOID_TABLE);
}
const GRID_SIGMOID_TABLE: u64 = 6642639490187167408;
const GRID_EXP: u64 = 2874575021511235777;
const GRID_SIGMOID: u64 = 15073779314324487337;

/// A small random network, its inputs and a reference computed in f64.
fn random_layers(hidden: usize, seed: u64) -> (Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>) {
    let mut s = seed;
    let mut r = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((s >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.6
    };
    let w1 = (0..200 * hidden).map(|_| r()).collect();
    let b1 = (0..hidden).map(|_| r()).collect();
    let w2 = (0..5 * hidden).map(|_| r()).collect();
    let b2 = (0..5).map(|_| r()).collect();
    (w1, b1, w2, b2)
}

#[test]
fn the_fixed_point_layer_is_the_same_on_every_copy_and_near_the_exact_sum() {
    for (hidden, seed) in [
        (64, 1),
        (128, 2),
        (256, 5),
        (37, 3),
        (8, 4),
        (400, 6),
        (416, 7),
        (200, 8),
    ] {
        let (w1, b1, _, _) = random_layers(hidden, seed);
        // The first 100 rows in fixed point, the others in f32.
        let int_rows = 100;
        let units: Vec<f32> = (0..hidden)
            .map(|j| 2f32.powi(-9 - (j % 4) as i32))
            .collect();
        let ints: Vec<i16> = w1[..int_rows * hidden]
            .iter()
            .enumerate()
            .map(|(k, w)| (w / units[k % hidden]).round() as i16)
            .collect();
        let rows = FixedRows {
            ints: &ints,
            int_rows,
            floats: &w1,
            bias: &b1,
            units: &units,
        };
        for n in 0..50u16 {
            let active: Vec<(u16, f32)> = (0..(n % 40 + 1))
                .map(|j| {
                    let i = (j * 5 + n) % 200;
                    (
                        i,
                        if i >= 100 && j % 3 == 0 {
                            0.37 * f32::from(j)
                        } else {
                            1.0
                        },
                    )
                })
                .collect();
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            let mut a = vec![0f32; hidden];
            let mut b = vec![0f32; hidden];
            hidden_layer_fixed(rows, &active, &mut a);
            hidden_layer_fixed_portable(rows, &active, &mut b);
            assert_eq!(bits(&a), bits(&b), "{hidden} hidden");
            // Blocks of any width: the bits of one unit at a time.
            let mut one = vec![0f32; hidden];
            hidden_layer_fixed_by_unit(rows, &active, &mut one);
            assert_eq!(bits(&a), bits(&one), "{hidden} hidden, by unit");
            let mut c = vec![0f32; hidden];
            if hidden_layer_fixed_avx2_only(rows, &active, &mut c).is_some() {
                assert_eq!(bits(&c), bits(&b), "AVX2 copy, {hidden} hidden");
            }
            // Each fixed-point row is within half a step of its weight.
            for (j, &got) in a.iter().enumerate() {
                let mut sum = f64::from(b1[j]);
                let mut slack = 1e-5;
                for &(i, v) in &active {
                    sum += f64::from(w1[i as usize * hidden + j]) * f64::from(v);
                    if (i as usize) < int_rows {
                        slack += 0.5 * f64::from(units[j]);
                    }
                }
                let want = 1.0 / (1.0 + (-sum).exp());
                // The sigmoid's slope is at most 1/4.
                assert!(
                    (f64::from(got) - want).abs() <= slack / 4.0 + 2e-7,
                    "{hidden}/{j}"
                );
            }
        }
    }
}

#[test]
fn the_avx2_and_avx512_copies_give_the_portable_bits() {
    for (hidden, seed) in [(64, 1), (128, 2), (256, 5), (37, 3), (8, 4)] {
        let (w1, b1, w2, b2) = random_layers(hidden, seed);
        for n in 0..50u16 {
            let active: Vec<(u16, f32)> = (0..(n % 40 + 1))
                .map(|j| {
                    (
                        (j * 5 + n) % 200,
                        if j % 3 == 0 { 0.37 * f32::from(j) } else { 1.0 },
                    )
                })
                .collect();
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            let mut a = vec![0f32; hidden];
            let mut b = vec![0f32; hidden];
            // The best copy this CPU runs (AVX-512 where it has it).
            hidden_layer(&w1, &b1, &active, &mut a);
            hidden_layer_portable(&w1, &b1, &active, &mut b);
            assert_eq!(bits(&a), bits(&b));
            let mut c = vec![0f32; hidden];
            if hidden_layer_avx2_only(&w1, &b1, &active, &mut c).is_some() {
                assert_eq!(bits(&c), bits(&b), "AVX2 copy");
            }
            let o: [f32; 5] = output_layer(&w2, &b2, &a);
            let p: [f32; 5] = output_layer_portable(&w2, &b2, &a);
            assert_eq!(o.map(f32::to_bits), p.map(f32::to_bits));
            let play: [f32; 5] = output_layer_play(&w2, &b2, &a);
            let portable: [f32; 5] = output_layer_play_portable(&w2, &b2, &a);
            assert_eq!(play.map(f32::to_bits), portable.map(f32::to_bits));
            for (x, y) in play.iter().zip(&o) {
                assert!((x - y).abs() < 1e-6, "play's output layer {x} vs {y}");
            }
            // And both agree with the plain sum in f64 to float precision.
            for (k, &ok) in o.iter().enumerate() {
                let s: f64 = (0..hidden)
                    .map(|j| f64::from(w2[k * hidden + j]) * f64::from(a[j]))
                    .sum::<f64>()
                    + f64::from(b2[k]);
                let want = 1.0 / (1.0 + (-s).exp());
                assert!((f64::from(ok) - want).abs() < 1e-5);
            }
        }
    }
}

#[test]
fn the_second_layers_vector_copies_have_the_plain_loops_bits() {
    // Sixteen units at a time through the output layers' copies, the rest
    // plain: the same bits as the plain loop over every unit, and near the
    // exact sums.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut r = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        ((state >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    };
    // Shapes with and without units left over, and 40 inputs, which the
    // AVX-512 copy leaves to the plain loop.
    for (h, units) in [
        (128usize, 32usize),
        (64, 37),
        (96, 5),
        (128, 64),
        (256, 64),
        (128, 16),
        (40, 20),
    ] {
        let w: Vec<f32> = (0..h * units).map(|_| r()).collect();
        let b: Vec<f32> = (0..units).map(|_| r()).collect();
        for _ in 0..20 {
            let hidden: Vec<f32> = (0..h).map(|_| (r() + 1.0) / 2.0).collect();
            let (mut play, mut plain_play) = (vec![0f32; units], vec![0f32; units]);
            middle_layer_play(&w, &b, &hidden, &mut play);
            middle_layer_lanes::<16>(&w, &b, &hidden, &mut plain_play, sum_lanes16, sigmoid_table);
            assert_eq!(play, plain_play);
            let mut portable = vec![0f32; units];
            middle_layer_play_portable(&w, &b, &hidden, &mut portable);
            assert_eq!(play, portable);
            let mut avx2 = vec![0f32; units];
            if middle_layer_play_avx2_only(&w, &b, &hidden, &mut avx2).is_some() {
                assert_eq!(play, avx2, "AVX2 copy");
            }
            let (mut train, mut plain_train) = (vec![0f32; units], vec![0f32; units]);
            middle_layer(&w, &b, &hidden, &mut train);
            middle_layer_lanes::<8>(&w, &b, &hidden, &mut plain_train, sum_lanes8, sigmoid);
            assert_eq!(train, plain_train);
            for m in 0..units {
                let s: f64 = f64::from(b[m])
                    + (0..h)
                        .map(|j| f64::from(w[m * h + j]) * f64::from(hidden[j]))
                        .sum::<f64>();
                let want = 1.0 / (1.0 + (-s).exp());
                assert!((f64::from(train[m]) - want).abs() < 1e-5, "{m}");
                assert!((f64::from(play[m]) - want).abs() < 1e-5, "{m}");
            }
        }
    }
}

/// Random numbers over 24 binades, so that adding them in another order
/// would change the bits of most sums.
fn wide_numbers(seed: u64, n: usize) -> Vec<f32> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let m = ((state >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0;
            m * f32::powi(2.0, ((state >> 20) % 24) as i32 - 14)
        })
        .collect()
}

/// Play's output layer of `N` outputs against the plain sums of its
/// sixteen lanes, bit for bit, and (on AVX-512) its dot products before
/// the bias and the sigmoid against [`lane_dot`] and [`sum_lanes16`].
fn check_play_outputs<const N: usize>(h: usize, seed: u64) {
    let w = wide_numbers(seed, N * h);
    let b = wide_numbers(seed ^ 1, N);
    // Sums of a few units in size, where the table sigmoid is not flat.
    let hidden: Vec<f32> = wide_numbers(seed ^ 2, h)
        .iter()
        .map(|x| x.abs().min(1.0) / (h as f32).sqrt())
        .collect();
    let play: [f32; N] = output_layer_play(&w, &b, &hidden);
    let plain: [f32; N] = output_layer_lanes::<N, 16>(&w, &b, &hidden, sum_lanes16, sigmoid_table);
    assert_eq!(play.map(f32::to_bits), plain.map(f32::to_bits), "{N} × {h}");
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") && h.is_multiple_of(16) {
        let mut lanes = [0f32; 16];
        // SAFETY: the CPU has AVX-512F; h is a multiple of 16 and `w`
        // holds N rows of h; `lanes` holds sixteen floats.
        unsafe {
            std::arch::x86_64::_mm512_storeu_ps(lanes.as_mut_ptr(), dots_zmm::<N>(&w, &hidden));
        }
        for (u, got) in lanes.iter().enumerate() {
            let want = if u < N {
                sum_lanes16(&lane_dot::<16>(&w[u * h..(u + 1) * h], &hidden))
            } else {
                0.0
            };
            assert_eq!(got.to_bits(), want.to_bits(), "unit {u} of {N} × {h}");
        }
    }
}

#[test]
fn plays_output_layer_of_any_size_has_the_plain_sums_bits() {
    // Every count of outputs a register holds (the reduction's sixteen
    // registers, the missing ones zero), over inputs of one register to
    // eight, and 40 (the plain loop).
    for (h, seed) in [(16usize, 1u64), (32, 2), (48, 3), (128, 4), (40, 5)] {
        for round in 0..10 {
            let seed = seed * 1000 + round;
            check_play_outputs::<1>(h, seed);
            check_play_outputs::<2>(h, seed);
            check_play_outputs::<3>(h, seed);
            check_play_outputs::<4>(h, seed);
            check_play_outputs::<5>(h, seed);
            check_play_outputs::<6>(h, seed);
            check_play_outputs::<7>(h, seed);
            check_play_outputs::<8>(h, seed);
            check_play_outputs::<9>(h, seed);
            check_play_outputs::<11>(h, seed);
            check_play_outputs::<13>(h, seed);
            check_play_outputs::<15>(h, seed);
            check_play_outputs::<16>(h, seed);
        }
    }
}
