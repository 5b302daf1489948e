//! NeuQuant, Anthony Dekker's neural-net colour quantiser (1994: "Kohonen
//! neural networks for optimal colour quantization", Network: Computation
//! in Neural Systems 5, 351–367), in his integer form: a chain of 255
//! neurons, each a colour, trained on a sample of pixels. For each pixel
//! a contest finds the neuron nearest to it less a bias (neurons that win
//! often are handicapped, so rarely used ones move in too), and that
//! neuron and its neighbours along the chain move towards the pixel, by a
//! step and over a radius that shrink as learning goes on.
//!
//! The schedule is the `color_quant` crate's (1.1, MIT: 127 cycles for
//! 255 neurons, the step of the learning rate and the radius
//! decreasing by a thirtieth each cycle, a prime stride through the
//! sample), the neighbours' weights and the arithmetic Dekker's (frequency
//! and bias in 16-bit fixed point) with colours kept to 1/256th of a level
//! rather than his 1/16th: late in learning, when a neuron moves by about
//! 1 % of its distance to a pixel, 1/16th would stop it some 5 levels
//! short (`color_quant` works in `f64`). The neurons are kept as
//! lanes of `i32` (one array per channel, 256 long with one idle lane), so
//! the contest over every neuron for every pixel and the move of a
//! neighbourhood are plain loops the compiler turns into vector code
//! (AVX2 with the workspace's `x86-64-v3`).
//!
//! Unlike `color_quant`, there is no alpha channel (every sampled pixel is
//! opaque).

/// Neurons, each a palette colour.
pub(super) const NEURONS: usize = 255;
/// Lanes of the neuron arrays: the neurons and one idle lane, which is far
/// from every colour and never moves.
const LANES: usize = 256;

/// Fraction bits of a neuron's colour.
const COLOUR_SHIFT: i32 = 8;
/// Fixed-point unit of frequencies and biases.
const INT_BIAS_SHIFT: i32 = 16;
const INT_BIAS: i32 = 1 << INT_BIAS_SHIFT;
/// The frequency decays by 2^-BETA_SHIFT each contest.
const BETA_SHIFT: i32 = 10;
const BETA: i32 = INT_BIAS >> BETA_SHIFT;
/// The bias gained per unit of frequency: gamma = 2^GAMMA_SHIFT.
const GAMMA_SHIFT: i32 = 10;

/// The learning rate, 1.0 at `1 << ALPHA_SHIFT`.
const ALPHA_SHIFT: i32 = 10;
const INIT_ALPHA: i32 = 1 << ALPHA_SHIFT;
/// Fraction bits the neighbourhood weights add to the learning rate's
/// (a weight times a colour difference, below 2^17, fits in an `i32`).
const RAD_BIAS_SHIFT: i32 = 2;
/// The radius, in 1/64ths.
const RADIUS_SHIFT: i32 = 6;
/// The radius and the learning rate's step shrink by 1/30th each cycle.
const RADIUS_DEC: i32 = 30;
/// One contest for every `SAMPLE_FACTOR`th pixel of the sample: every
/// one. `color_quant` was called with 3; vectorised, all the contests cost
/// less than its third did, and a third left `triggered`'s 8×8 blocks
/// further off (`gif_quality`: 1.28 levels on average against 1.16) and
/// the gradient of `gradients_do_not_band` too (4.1 levels at worst).
const SAMPLE_FACTOR: usize = 1;
/// Primes near 500 for the stride through the sample: the first that does
/// not divide its length.
const PRIMES: [usize; 4] = [499, 491, 478, 503];

/// Each lane's number.
const LANE_INDEX: [i32; LANES] = {
    let mut lanes = [0; LANES];
    let mut i = 0;
    while i < LANES {
        lanes[i] = i as i32;
        i += 1;
    }
    lanes
};

/// The neurons, one lane each, and their contest statistics.
struct Network {
    /// Red, green and blue, with `COLOUR_SHIFT` fraction bits.
    r: [i32; LANES],
    g: [i32; LANES],
    b: [i32; LANES],
    /// How often each neuron wins (a running mean), in `INT_BIAS` units.
    /// Dekker's handicap in the contest (his `bias`, in the same units)
    /// is not kept: each contest's decay adds to the bias what it takes
    /// from the frequency times `2^GAMMA_SHIFT`, and a win takes from it
    /// what it adds, so the bias is always `START_FREQ - freq` times
    /// `2^GAMMA_SHIFT` (both start at the same point for every neuron),
    /// which [`Network::contest`] works out from the frequency.
    freq: [i32; LANES],
}

/// Every neuron's frequency to start with (Dekker's `1/netsize`), with no
/// handicap.
const START_FREQ: i32 = INT_BIAS / NEURONS as i32;

impl Network {
    /// A grey ramp from black to white; the idle lane far from any colour.
    fn new() -> Self {
        let mut net = Self {
            r: [0; LANES],
            g: [0; LANES],
            b: [0; LANES],
            freq: [START_FREQ; LANES],
        };
        for i in 0..NEURONS {
            let v = ((i as i32) << (COLOUR_SHIFT + 8)) / NEURONS as i32;
            (net.r[i], net.g[i], net.b[i]) = (v, v, v);
        }
        // Far enough never to win (a distance of 3 × 2^20 shifted by 8
        // still fits in an `i32`), with no frequency, so it never changes.
        let far = 1 << 20;
        (net.r[NEURONS], net.g[NEURONS], net.b[NEURONS]) = (far, far, far);
        net.freq[NEURONS] = 0;
        net
    }

    /// The contest for a pixel (`COLOUR_SHIFT` fraction bits): the index
    /// of the neuron nearest to it (city-block distance) less its bias, the
    /// first of equals. The nearest one without bias gains frequency; every
    /// neuron's frequency decays towards its bias.
    ///
    /// Each distance (below 2^18, a bias moving it by less than 2^20) is
    /// kept with its lane in the low 8 bits, so one minimum finds both.
    /// The bias in colour units is `(START_FREQ - freq) << GAMMA_SHIFT`
    /// shifted down by `INT_BIAS_SHIFT - COLOUR_SHIFT`: a multiple of
    /// `2^GAMMA_SHIFT` shifted by less, so exactly `(START_FREQ - freq)`
    /// times `2^(GAMMA_SHIFT - INT_BIAS_SHIFT + COLOUR_SHIFT)`. (The idle
    /// lane's is off by a constant; it never wins either way.)
    /// The search and the decay are two loops: each alone is vectorised
    /// (16 lanes a turn), together they are not.
    fn contest(&mut self, r: i32, g: i32, b: i32) -> usize {
        const BIAS_SHIFT: i32 = GAMMA_SHIFT - (INT_BIAS_SHIFT - COLOUR_SHIFT);
        const _: () = assert!(BIAS_SHIFT >= 0);
        let (mut best, mut best_biased) = (i32::MAX, i32::MAX);
        let lanes = (self.r.iter().zip(&self.g).zip(&self.b))
            .zip(&self.freq)
            .zip(&LANE_INDEX);
        for ((((&nr, &ng), &nb), &freq), &lane) in lanes {
            let dist = (nr - r).abs() + (ng - g).abs() + (nb - b).abs();
            best = best.min(dist << 8 | lane);
            let biased = dist - ((START_FREQ - freq) << BIAS_SHIFT);
            best_biased = best_biased.min(biased << 8 | lane);
        }
        for f in &mut self.freq {
            *f -= *f >> BETA_SHIFT;
        }
        let nearest = (best & 0xff) as usize;
        self.freq[nearest] += BETA;
        (best_biased & 0xff) as usize
    }

    /// Moves the neurons `centre - reach ..= centre + reach` (within the
    /// chain) towards the pixel, each by its weight in `weights` (centred on
    /// `reach`) over `2^(ALPHA_SHIFT + RAD_BIAS_SHIFT)`.
    fn alter(&mut self, centre: usize, weights: &[i32], reach: usize, pixel: [i32; 3]) {
        let lo = centre.saturating_sub(reach);
        let hi = (centre + reach + 1).min(NEURONS);
        let weights = &weights[lo + reach - centre..hi + reach - centre];
        for (lanes, v) in [&mut self.r, &mut self.g, &mut self.b]
            .into_iter()
            .zip(pixel)
        {
            for (n, &w) in lanes[lo..hi].iter_mut().zip(weights) {
                *n -= (w * (*n - v)) / (1 << (ALPHA_SHIFT + RAD_BIAS_SHIFT));
            }
        }
    }
}

/// The neighbourhood weights for `alpha` and radius `rad` (0, or at least
/// 2), with `RAD_BIAS_SHIFT` more fraction bits, laid out from
/// `-(rad - 1)` to `rad - 1`: Dekker's `alpha × (1 − m²/rad²)` for neurons
/// `m` away, `alpha` for the winner. (`color_quant` gives `m − 1` for `m`,
/// pulling neighbours harder: its `gif_quality` figures came out a little
/// better, but a smooth two-dimensional gradient (`gradients_do_not_band`)
/// had 8×8 blocks 4.8 levels off against 2.9 with these.) Returns
/// `rad - 1`, how far they reach.
fn neighbourhood(alpha: i32, rad: i32, weights: &mut Vec<i32>) -> usize {
    weights.clear();
    if rad == 0 {
        weights.push(alpha << RAD_BIAS_SHIFT);
        return 0;
    }
    let reach = rad - 1;
    let rad2 = rad * rad;
    weights.extend((-reach..=reach).map(|m| ((alpha * (rad2 - m * m)) << RAD_BIAS_SHIFT) / rad2));
    reach as usize
}

/// A palette of [`NEURONS`] colours trained on `sample`, in the chain's
/// order (so similar colours are near each other). An empty sample leaves
/// the initial grey ramp.
pub(super) fn palette(sample: &[[u8; 3]]) -> Vec<[u8; 3]> {
    let mut net = Network::new();
    let len = sample.len();
    let contests = len / SAMPLE_FACTOR;
    let cycles = (NEURONS >> 1).max(100);
    let delta = (contests / cycles).max(1);
    let alpha_dec = 30 + (SAMPLE_FACTOR as i32 - 1) / 3;
    let mut alpha = INIT_ALPHA;
    let mut radius = ((NEURONS >> 3) as i32) << RADIUS_SHIFT;
    let rad_of = |radius: i32| match radius >> RADIUS_SHIFT {
        r if r <= 1 => 0,
        r => r,
    };
    let mut weights = Vec::with_capacity(NEURONS);
    let mut reach = neighbourhood(alpha, rad_of(radius), &mut weights);
    let stride = PRIMES
        .into_iter()
        .find(|&p| !len.is_multiple_of(p))
        .unwrap_or(PRIMES[3]);
    let mut at = 0;
    for i in 1..=contests {
        let [r, g, b] = sample[at].map(|c| i32::from(c) << COLOUR_SHIFT);
        let winner = net.contest(r, g, b);
        net.alter(winner, &weights, reach, [r, g, b]);
        at = (at + stride) % len;
        if i.is_multiple_of(delta) {
            alpha -= alpha / alpha_dec;
            radius -= radius / RADIUS_DEC;
            reach = neighbourhood(alpha, rad_of(radius), &mut weights);
        }
    }
    let unbias = |v: i32| ((v + (1 << (COLOUR_SHIFT - 1))) >> COLOUR_SHIFT).clamp(0, 255) as u8;
    (0..NEURONS)
        .map(|i| [unbias(net.r[i]), unbias(net.g[i]), unbias(net.b[i])])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{NEURONS, palette};

    fn xorshift(mut seed: u32) -> impl FnMut() -> u32 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        }
    }

    fn nearest_gap(colours: &[[u8; 3]], c: [u8; 3]) -> u8 {
        colours
            .iter()
            .map(|p| (0..3).map(|i| p[i].abs_diff(c[i])).max().unwrap())
            .min()
            .unwrap()
    }

    /// A picture of six colours, shuffled: each gets a neuron within a
    /// level or two of it.
    #[test]
    fn few_colours_are_found() {
        let colours = [
            [12, 200, 40],
            [250, 250, 250],
            [0, 0, 0],
            [200, 30, 90],
            [90, 90, 200],
            [255, 160, 0],
        ];
        let mut next = xorshift(0x1357_9BDF);
        let sample: Vec<[u8; 3]> = (0..30_000)
            .map(|_| colours[(next() % 6) as usize])
            .collect();
        let got = palette(&sample);
        assert_eq!(got.len(), NEURONS);
        for c in colours {
            assert!(nearest_gap(&got, c) <= 2, "{c:?}");
        }
    }

    /// A smooth picture of many colours is covered: every pixel has a
    /// neuron near it, and the palette is the same every time.
    #[test]
    fn many_colours_are_covered_the_same_way_each_time() {
        let mut next = xorshift(0x2468_ACE1);
        let sample: Vec<[u8; 3]> = (0..48 * 1024)
            .map(|_| {
                let (x, y) = (next() % 256, next() % 256);
                [x as u8, y as u8, ((x + y) / 2) as u8]
            })
            .collect();
        let got = palette(&sample);
        assert!(got == palette(&sample));
        let worst = sample
            .iter()
            .step_by(7)
            .map(|&c| nearest_gap(&got, c))
            .max()
            .unwrap();
        assert!(worst <= 24, "{worst}");
    }

    /// No sample leaves the grey ramp; a one-colour sample gets that colour.
    #[test]
    fn empty_and_one_colour_samples() {
        let ramp = palette(&[]);
        assert_eq!(ramp.len(), NEURONS);
        assert_eq!((ramp[0], ramp[NEURONS - 1]), ([0; 3], [255; 3]));
        for c in [[0, 0, 0], [255, 255, 255], [37, 140, 201]] {
            assert_eq!(nearest_gap(&palette(&vec![c; 5000]), c), 0, "{c:?}");
            assert_eq!(palette(&[c]).len(), NEURONS);
        }
    }
}
