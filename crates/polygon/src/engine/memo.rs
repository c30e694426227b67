//! The memo of impossible regions (Lynning's test 3): an exact key made of
//! each polygon in canonical position and the remaining piece counts.
//!
//! One memo serves every thread of a search: a region one thread proves
//! impossible is cut by all the others, instead of each thread proving it
//! again. It is split into shards, each behind its own lock, chosen by the
//! key's hash, so that two threads rarely want the same lock (a lookup or an
//! insertion holds it for one hash-set operation, against tens of
//! microseconds of work per node).

use super::region::{Poly, FUZZ};
use super::solver::Solver;
use crate::geom::Pt;
use crate::num::Scalar;
use crate::symmetry::cmp_points;
use std::cmp::Ordering;
use std::collections::HashSet;
use std::fmt;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError};

/// The memo stops growing past this many bytes of keys.
pub(super) const MEMO_BYTES: usize = 256 << 20;

/// Shards of a shared memo: many more than threads, so that two threads
/// meet on one lock rarely.
const SHARDS: usize = 64;

/// A hasher for memo keys: 8 bytes a step (multiply and rotate, as in
/// rustc's FxHasher) and a final mix so that every bit of the result
/// depends on every byte. The keys are exact coordinates, not chosen by an
/// adversary, so SipHash's protection (the standard hasher) bought nothing
/// and cost 2.7% of the Stomachion's time.
#[derive(Default, Clone, Copy)]
pub(super) struct KeyHasher(u64);

impl KeyHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            // Zero-padded; the key's length, hashed first, tells apart
            // keys that differ only in trailing zeros.
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }

    #[inline]
    fn finish(&self) -> u64 {
        // MurmurHash3's 64-bit finaliser.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

type KeySet = HashSet<Box<[u8]>, BuildHasherDefault<KeyHasher>>;

/// A set of region keys shared by every thread of a search.
pub(super) struct SharedMemo {
    shards: Vec<Mutex<KeySet>>,
    bytes: AtomicUsize,
    /// Lock acquisitions that found the shard's lock taken (contention).
    contended: AtomicU64,
}

impl Default for SharedMemo {
    fn default() -> Self {
        SharedMemo {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            bytes: AtomicUsize::new(0),
            contended: AtomicU64::new(0),
        }
    }
}

impl fmt::Debug for SharedMemo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SharedMemo")
            .field("entries", &self.len())
            .field("bytes", &self.bytes.load(AtomicOrdering::Relaxed))
            .finish()
    }
}

impl SharedMemo {
    fn shard(&self, key: &[u8]) -> MutexGuard<'_, KeySet> {
        let mut h = KeyHasher::default();
        key.hash(&mut h);
        // The shard from middle bits of the hash the sets use too: their
        // buckets come from the low bits and their tags from the top 7.
        let lock = &self.shards[((h.finish() >> 32) % SHARDS as u64) as usize];
        match lock.try_lock() {
            Ok(guard) => guard,
            // A set of keys is valid after a panic elsewhere: keep using it.
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) => {
                self.contended.fetch_add(1, AtomicOrdering::Relaxed);
                lock.lock().unwrap_or_else(PoisonError::into_inner)
            }
        }
    }

    pub(super) fn contains(&self, key: &[u8]) -> bool {
        self.shard(key).contains(key)
    }

    /// Stores `key` unless the memo is full.
    pub(super) fn insert(&self, key: Box<[u8]>) {
        let size = key.len() + 32;
        if self.bytes.load(AtomicOrdering::Relaxed) >= MEMO_BYTES {
            return;
        }
        if self.shard(&key).insert(key) {
            self.bytes.fetch_add(size, AtomicOrdering::Relaxed);
        }
    }

    pub(super) fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(PoisonError::into_inner).len())
            .sum()
    }

    pub(super) fn contended(&self) -> u64 {
        self.contended.load(AtomicOrdering::Relaxed)
    }
}

impl<S: Scalar> Solver<S> {
    pub(super) fn memo_key(&self, region: &[Arc<Poly<S>>]) -> Box<[u8]> {
        let prep = &*self.prep;
        let flips = self
            .avail
            .iter()
            .enumerate()
            .all(|(t, &c)| c == 0 || prep.types[t].mirror == Some(t));
        let mut polys: Vec<Arc<[i128]>> = region.iter().map(|p| p.canonical_key(flips)).collect();
        polys.sort();
        encode(&self.avail, &polys)
    }
}

impl<S: Scalar> Poly<S> {
    /// The polygon's [`canonical`] image, computed once per polygon.
    fn canonical_key(&self, mirrors: bool) -> Arc<[i128]> {
        self.canon[mirrors as usize]
            .get_or_init(|| canonical(self, mirrors).into())
            .clone()
    }
}

impl<S: Scalar> Solver<S> {
    /// The key of the region where it lies (no motion applied) and the
    /// remaining piece counts: for subtrees where the symmetry-breaking
    /// piece was cut, whose outcome depends on the region's position.
    pub(super) fn placed_key(&self, region: &[Arc<Poly<S>>]) -> Box<[u8]> {
        let mut polys: Vec<Vec<i128>> = region
            .iter()
            .map(|p| {
                let n = p.v.len();
                let start = (1..n).fold(0, |best, i| {
                    if p.v[i].p.cmp_xy(&p.v[best].p) == Ordering::Less {
                        i
                    } else {
                        best
                    }
                });
                let mut out = Vec::with_capacity(4 * n);
                for j in 0..n {
                    let q = &p.v[(start + j) % n].p;
                    q.x.key(&mut out);
                    q.y.key(&mut out);
                }
                out
            })
            .collect();
        polys.sort();
        encode(&self.avail, &polys)
    }
}

fn encode<P: AsRef<[i128]>>(avail: &[u32], polys: &[P]) -> Box<[u8]> {
    let mut out = Vec::with_capacity(64);
    for c in avail {
        push_varint(&mut out, *c as i128);
    }
    // Each polygon is prefixed by its length, not ended by a marker byte: a
    // varint's own bytes can take any value, so a marker could be read as
    // part of a number and two different regions could share a key.
    for p in polys {
        let p = p.as_ref();
        push_varint(&mut out, p.len() as i128);
        for &x in p {
            push_varint(&mut out, x);
        }
    }
    out.into_boxed_slice()
}

fn push_varint(out: &mut Vec<u8>, x: i128) {
    // zig-zag, then 7 bits at a time
    let mut z = ((x << 1) ^ (x >> 127)) as u128;
    loop {
        let b = (z & 0x7F) as u8;
        z >>= 7;
        if z == 0 {
            out.push(b);
            break;
        }
        out.push(b | 0x80);
    }
}

/// The canonical exact image of a polygon: over every corner (and, with
/// `mirrors`, both mirror images), move the corner to the origin and its side
/// onto +x; keep the least corner list. Float signatures pick the candidate
/// corners so that only near-ties are computed exactly.
pub(super) fn canonical<S: Scalar>(p: &Poly<S>, mirrors: bool) -> Vec<i128> {
    let n = p.v.len();
    // Candidates: (mirrored, start) with the least float signature.
    let sig = |mirror: bool, i: usize, j: usize| -> (f64, f64) {
        if mirror {
            // Walking the mirror image forwards is walking p backwards.
            let a = (i + n - j) % n;
            let side = p.f[(a + n - 1) % n].len;
            (side, p.f[a].ang)
        } else {
            let a = (i + j) % n;
            (p.f[a].len, p.f[a].ang)
        }
    };
    let cmp_sig = |x: (bool, usize), y: (bool, usize)| -> Ordering {
        for j in 0..n {
            let (a, b) = (sig(x.0, x.1, j), sig(y.0, y.1, j));
            if (a.0 - b.0).abs() > FUZZ {
                return a.0.total_cmp(&b.0);
            }
            if (a.1 - b.1).abs() > FUZZ {
                return a.1.total_cmp(&b.1);
            }
        }
        Ordering::Equal
    };
    let mut cands: Vec<(bool, usize)> = Vec::new();
    for mirror in [false, true] {
        if mirror && !mirrors {
            break;
        }
        for i in 0..n {
            let c = (mirror, i);
            match cands.first().map(|&b| cmp_sig(c, b)) {
                None | Some(Ordering::Equal) => cands.push(c),
                Some(Ordering::Less) => {
                    cands.clear();
                    cands.push(c);
                }
                Some(Ordering::Greater) => {}
            }
        }
    }
    // The corners seen from corner i along side i: (Δ·(p_j − p_i), Δ×(p_j − p_i))
    // with Δ = p_{i+1} − p_i. This fixes the polygon up to rotation and
    // translation (|Δ|² is the first entry) without any square root.
    let image = |(mirror, i): (bool, usize)| -> Vec<Pt<S>> {
        let at = |j: usize| -> Pt<S> {
            if mirror {
                p.v[(i + n - j) % n].p.conj()
            } else {
                p.v[(i + j) % n].p.clone()
            }
        };
        let o = at(0);
        let delta = at(1).sub(&o);
        (1..n)
            .map(|j| {
                let r = at(j).sub(&o);
                Pt::new(delta.dot(&r), delta.cross(&r))
            })
            .collect()
    };
    let mut best = image(cands[0]);
    for &c in &cands[1..] {
        let img = image(c);
        if cmp_points(&img, &best) == Ordering::Less {
            best = img;
        }
    }
    let mut out = Vec::with_capacity(4 * n);
    for q in &best {
        q.x.key(&mut out);
        q.y.key(&mut out);
    }
    out
}
