//! Estimating the size of a search tree by random probes.
//!
//! Knuth, "Estimating the efficiency of backtrack programs" (Math. Comp. 29,
//! 1975): walk from the root choosing a child uniformly at random at each level
//! and note the number of children d₁, d₂, … met on the way. Then
//! 1 + d₁ + d₁d₂ + … is an unbiased estimate of the number of nodes, and d₁d₂…dₖ
//! (when the walk ends in a solution, times the solution's weight) an unbiased
//! estimate of the number of solutions. Averaging many probes narrows the
//! estimate; the spread of backtrack trees is heavy-tailed, so the standard
//! error reported here understates the real uncertainty when probes are few.

use crate::{NoSuchNode, NodeKind, Tree};

/// The mean of a sample and its standard error.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Figure {
    /// The sample mean.
    pub mean: f64,
    /// The standard error of the mean (sample standard deviation / √n).
    pub std_error: f64,
}

impl Figure {
    fn of(sum: f64, sum_sq: f64, n: u64) -> Figure {
        if n == 0 {
            return Figure::default();
        }
        let nf = n as f64;
        let mean = sum / nf;
        let var = if n > 1 {
            ((sum_sq - nf * mean * mean) / (nf - 1.0)).max(0.0)
        } else {
            0.0
        };
        Figure {
            mean,
            std_error: (var / nf).sqrt(),
        }
    }

    /// A rough 95% interval, mean ± 1.96 standard errors, clamped at zero.
    pub fn interval(&self) -> (f64, f64) {
        let half = 1.96 * self.std_error;
        ((self.mean - half).max(0.0), self.mean + half)
    }
}

/// What the probes say about the tree.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Estimate {
    /// Number of probes made.
    pub probes: u64,
    /// Estimated number of nodes, the root included.
    pub nodes: Figure,
    /// Estimated number of solutions as the engine reports them (weighted by
    /// the unique count: one per symmetry class when symmetry is broken).
    pub solutions: Figure,
    /// Estimated number of raw solutions.
    pub raw_solutions: Figure,
    /// Estimated nodes at each depth, from the root.
    pub nodes_per_depth: Vec<f64>,
    /// Probes that ended in a solution.
    pub probes_reaching_a_solution: u64,
}

/// A small deterministic random number generator (SplitMix64), so that an
/// estimate is repeatable for a given seed.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0), without modulo bias worth mentioning.
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }

    /// Puts `items` in a random order (Fisher-Yates: every order equally
    /// likely, one draw per item).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// Makes `probes` random probes of `tree` and averages them.
pub fn estimate<T: Tree + ?Sized>(
    tree: &mut T,
    probes: u64,
    rng: &mut SplitMix64,
) -> Result<Estimate, NoSuchNode> {
    estimate_until(tree, probes, rng, &|| false)
}

/// [`estimate`], asking `stop` before each probe: when it says yes, the
/// estimate is made of the probes walked so far (`probes` in the result says
/// how many; it may be 0, and then the figures are 0).
pub fn estimate_until<T: Tree + ?Sized>(
    tree: &mut T,
    probes: u64,
    rng: &mut SplitMix64,
    stop: &dyn Fn() -> bool,
) -> Result<Estimate, NoSuchNode> {
    let mut est = Estimate::default();
    let (mut n_sum, mut n_sq, mut s_sum, mut s_sq, mut r_sum, mut r_sq) =
        (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    let mut per_depth: Vec<f64> = Vec::new();
    let mut walked = 0u64;
    for _ in 0..probes {
        if stop() {
            break;
        }
        walked += 1;
        let probe = tree.probe(&mut |d| rng.below(d))?;
        let mut product = 1.0;
        let mut nodes = 1.0;
        if per_depth.is_empty() {
            per_depth.push(0.0);
        }
        per_depth[0] += 1.0;
        for (level, &d) in probe.degrees.iter().enumerate() {
            product *= d as f64;
            nodes += product;
            if per_depth.len() <= level + 1 {
                per_depth.resize(level + 2, 0.0);
            }
            per_depth[level + 1] += product;
        }
        let (solutions, raw) = match probe.leaf {
            NodeKind::Solution(w) => {
                est.probes_reaching_a_solution += 1;
                (product * w.unique as f64, product * w.raw as f64)
            }
            _ => (0.0, 0.0),
        };
        n_sum += nodes;
        n_sq += nodes * nodes;
        s_sum += solutions;
        s_sq += solutions * solutions;
        r_sum += raw;
        r_sq += raw * raw;
    }
    let probes = walked;
    est.probes = probes;
    est.nodes = Figure::of(n_sum, n_sq, probes);
    est.solutions = Figure::of(s_sum, s_sq, probes);
    est.raw_solutions = Figure::of(r_sum, r_sq, probes);
    est.nodes_per_depth = per_depth
        .into_iter()
        .map(|x| if probes > 0 { x / probes as f64 } else { 0.0 })
        .collect();
    Ok(est)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drive::tests::Toy;

    #[test]
    fn uniform_tree_is_estimated_exactly() {
        // Every probe of a uniform tree sees the same degrees, so the node
        // estimate is exact and its standard error zero.
        let mut toy = Toy {
            depth: 4,
            fanout: 3,
        };
        let est = estimate(&mut toy, 50, &mut SplitMix64::new(7)).unwrap();
        assert_eq!(est.nodes.mean, (1 + 3 + 9 + 27 + 81) as f64);
        assert_eq!(est.nodes.std_error, 0.0);
        assert_eq!(est.nodes_per_depth, vec![1.0, 3.0, 9.0, 27.0, 81.0]);
        // 27 of the 81 leaves have a path sum divisible by 3.
        let (lo, hi) = est.solutions.interval();
        assert!(lo <= 27.0 && 27.0 <= hi + 1e-9, "{lo}..{hi}");
    }

    #[test]
    fn a_stop_ends_the_probes_early() {
        let mut toy = Toy {
            depth: 4,
            fanout: 3,
        };
        let asked = std::cell::Cell::new(0);
        let est = estimate_until(&mut toy, 50, &mut SplitMix64::new(7), &|| {
            asked.set(asked.get() + 1);
            asked.get() > 10
        })
        .unwrap();
        assert_eq!(est.probes, 10);
        assert_eq!(est.nodes.mean, (1 + 3 + 9 + 27 + 81) as f64);
        let none = estimate_until(&mut toy, 50, &mut SplitMix64::new(7), &|| true).unwrap();
        assert_eq!(none.probes, 0);
        assert_eq!(none.nodes.mean, 0.0);
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = SplitMix64::new(1);
        for n in [1, 2, 3, 1000] {
            for _ in 0..1000 {
                assert!(rng.below(n) < n);
            }
        }
    }

    #[test]
    fn shuffle_gives_every_order_alike() {
        // Each of the 24 orders of four items about 1/24 of the time, and
        // always the same four items.
        let mut rng = SplitMix64::new(3);
        let mut seen = std::collections::HashMap::new();
        for _ in 0..24_000 {
            let mut items = [0, 1, 2, 3];
            rng.shuffle(&mut items);
            *seen.entry(items).or_insert(0) += 1;
        }
        assert_eq!(seen.len(), 24);
        for (order, times) in seen {
            let mut sorted = order;
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3]);
            assert!((800..1200).contains(&times), "{order:?}: {times}");
        }
        // Too short to move: nothing drawn, nothing changed.
        let mut one = [7];
        rng.shuffle(&mut one);
        rng.shuffle(&mut [0u8; 0]);
        assert_eq!(one, [7]);
    }
}
