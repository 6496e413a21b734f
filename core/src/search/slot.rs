//! A hash to a table slot: `⌊key · len / 2⁶⁴⌋`, the multiply-shift map
//! (Lemire's "fast range") that every table of the search uses. It reads
//! the hash's high bits, which are as random as its low ones in a Zobrist
//! hash, and needs no power-of-two length.
//!
//! On a 64-bit target the product is one widening multiply. On wasm32 a
//! `u128` product is a call to `__multi3` (1.0% of a node in the browser
//! engine's profile, `web/bench/profile-node.mjs`, 2026-11-30); there `len`
//! is a 32-bit `usize`, so the same index comes from two 64-bit multiplies.

/// The slot of `key` in a table of `len` entries (`len ≥ 1`): the same index
/// on every target.
#[inline(always)]
pub fn slot_index(key: u64, len: usize) -> usize {
    #[cfg(target_pointer_width = "64")]
    {
        ((u128::from(key) * len as u128) >> 64) as usize
    }
    #[cfg(not(target_pointer_width = "64"))]
    {
        split_product(key, len as u32) as usize
    }
}

/// `⌊key · len / 2⁶⁴⌋` for a 32-bit `len` without a 128-bit product:
/// with `key = hi · 2³² + lo`, `key · len = hi · len · 2³² + lo · len`, and
/// `⌊(a · 2³² + b) / 2⁶⁴⌋ = ⌊(a + ⌊b / 2³²⌋) / 2³²⌋`. Neither sum
/// overflows: `hi · len ≤ (2³² − 1)²` and `⌊lo · len / 2³²⌋ < 2³²`.
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
#[inline(always)]
fn split_product(key: u64, len: u32) -> u64 {
    let (hi, lo, len) = (key >> 32, key & 0xffff_ffff, u64::from(len));
    (hi * len + ((lo * len) >> 32)) >> 32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wide(key: u64, len: u32) -> u64 {
        ((u128::from(key) * u128::from(len)) >> 64) as u64
    }

    #[test]
    fn the_split_product_is_the_wide_one() {
        let edges = [0, 1, 2, 0xffff_ffff, 0x1_0000_0000, u64::MAX, u64::MAX - 1, 1 << 63];
        let lens = [1, 2, 3, 1000, 1 << 20, 0x7fff_ffff, 0xffff_fffe, u32::MAX];
        for &key in &edges {
            for &len in &lens {
                assert_eq!(split_product(key, len), wide(key, len), "key {key:#x}, len {len}");
            }
        }
        // A fixed xorshift stream of keys and lengths.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x.rotate_left(17) as u32).max(1);
            assert_eq!(split_product(x, len), wide(x, len), "key {x:#x}, len {len}");
            assert!(slot_index(x, len as usize) < len as usize);
        }
    }
}
