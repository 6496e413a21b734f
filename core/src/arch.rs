//! The network architecture and its quantization, declared once.
//!
//! The trainer's export, the loader and the inference code all read these
//! constants, and the weights file carries a hash of them
//! ([`arch_hash`]), so a file quantized under other scales is refused with a
//! typed error instead of being misread.
//!
//! # Shape
//!
//! DeepChess is a Siamese network. A *tower* (Pos2Vec) maps the 773 input bits
//! of one position to a feature vector; the *head* (the comparator) takes the
//! concatenated features of two positions and outputs two logits.
//!
//! | network | tower | head |
//! |---|---|---|
//! | distilled (shipped) | 773-100-100-100 | 200-100-100-2 |
//! | full (paper) | 773-600-400-200-100 | 200-400-200-100-2 |
//!
//! Both lists include the input width, so `head[0] == 2 * tower.last()`.
//!
//! # Activation
//!
//! Every layer but the last of the head is followed by a clipped ReLU,
//! `crelu(x) = min(max(x, 0), 1)`. The clip is what lets activations be `u8`
//! with a fixed scale (the NNUE practice); the trainer trains with the same
//! function, so the float and integer paths compute the same thing.
//!
//! A network may square its first layer's clipped ReLU instead
//! ([`Activation::SquaredClippedRelu`], `screlu(x) = crelu(x)²`), as engines
//! that learn from their own games do: the first layer's activations are
//! `u8` at the same scale, `round(c² / 127)` of the clipped sum `c`.
//!
//! # Quantization
//!
//! | tensor | type | scale |
//! |---|---|---|
//! | first-layer weights and bias | `i16` | [`FT_SCALE`] (127) |
//! | activations | `u8` in `0..=127` | [`ACT_SCALE`] (127 = 1.0) |
//! | hidden weights | `i8` | [`WEIGHT_SCALE`] (64) |
//! | hidden bias | `i32` | `ACT_SCALE * WEIGHT_SCALE` |
//! | hidden sums | `i32` | `ACT_SCALE * WEIGHT_SCALE` |
//!
//! A hidden layer's next activation is `clamp((sum + 32) >> 6, 0, 127)`: a
//! rounded division by [`WEIGHT_SCALE`], then the clipped ReLU. Hidden weights
//! are therefore limited to `±127 / 64 ≈ ±1.98` in float; the trainer clips them
//! to [`MAX_HIDDEN_WEIGHT`].

/// Number of input bits: 2 colours × 6 roles × 64 squares, side to move,
/// 4 castling rights.
pub const INPUTS: usize = 773;

/// Index of the "White to move" bit.
pub const SIDE_TO_MOVE_INDEX: u16 = 768;

/// Index of the first castling bit; K, Q, k, q follow in that order.
pub const CASTLING_INDEX: u16 = 769;

/// At most 32 pieces, the side-to-move bit and 4 castling rights are active.
pub const MAX_ACTIVE: usize = 37;

/// Scale of the first layer: a float weight `w` is stored as
/// `round(w * FT_SCALE)` in an `i16`.
pub const FT_SCALE: i32 = 127;

/// Scale of activations: 1.0 (the clip of the clipped ReLU) is 127.
pub const ACT_SCALE: i32 = 127;

/// The largest quantized activation.
pub const ACT_MAX: u8 = 127;

/// Hidden weights are scaled by `2^WEIGHT_SCALE_BITS`.
pub const WEIGHT_SCALE_BITS: u32 = 6;

/// Scale of hidden weights: a float weight `w` is stored as
/// `round(w * WEIGHT_SCALE)` in an `i8`.
pub const WEIGHT_SCALE: i32 = 1 << WEIGHT_SCALE_BITS;

/// Scale of hidden biases and sums.
pub const SUM_SCALE: i32 = ACT_SCALE * WEIGHT_SCALE;

/// The largest hidden weight (in float) that survives quantization unclipped.
pub const MAX_HIDDEN_WEIGHT: f32 = 127.0 / WEIGHT_SCALE as f32;

/// The largest first-layer weight or bias (in float) that fits an `i16`.
pub const MAX_FT_WEIGHT: f32 = i16::MAX as f32 / FT_SCALE as f32;

/// The squared clipped ReLU's factor: an activation is
/// `(c² · SCRELU_MUL + 2¹⁴) >> 15` of the clipped first-layer sum
/// `c = clamp(acc, 0, 127)`, that is `round(c² / 127.008)`, in `0..=127`
/// (`pmulhrsw` on x86, `i16x8.q15mulr_sat` in WebAssembly: `c² ≤ 16,129`
/// fits an `i16`).
pub const SCRELU_MUL: i16 = 258;

/// The activation after a network's first layer; every later layer is
/// followed by the clipped ReLU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Activation {
    /// `crelu(x) = min(max(x, 0), 1)`: the quantized sum clipped to `0..=127`.
    #[default]
    ClippedRelu,
    /// `screlu(x) = crelu(x)²`: the clipped sum `c` squared and scaled back
    /// to `0..=127` ([`SCRELU_MUL`]).
    SquaredClippedRelu,
}

impl Activation {
    /// Both activations, the default first.
    pub const ALL: [Activation; 2] = [Activation::ClippedRelu, Activation::SquaredClippedRelu];

    /// Short lower-case name: `crelu`, `screlu`.
    pub const fn name(self) -> &'static str {
        match self {
            Activation::ClippedRelu => "crelu",
            Activation::SquaredClippedRelu => "screlu",
        }
    }

    /// The activation of a float sum `x` (the float reference and the
    /// trainer compute it this way).
    pub fn of(self, x: f32) -> f32 {
        let c = x.clamp(0.0, 1.0);
        match self {
            Activation::ClippedRelu => c,
            Activation::SquaredClippedRelu => c * c,
        }
    }

    /// The word a weights file stores for it (format version 4).
    pub const fn code(self) -> u32 {
        match self {
            Activation::ClippedRelu => 0,
            Activation::SquaredClippedRelu => 1,
        }
    }

    /// The activation a weights file's word names, if any.
    pub const fn from_code(code: u32) -> Option<Activation> {
        match code {
            0 => Some(Activation::ClippedRelu),
            1 => Some(Activation::SquaredClippedRelu),
            _ => None,
        }
    }
}

/// Vectors are padded to a multiple of this many lanes, the widest SIMD
/// register in bytes (AVX2: 32 × `u8`).
pub const PADDING: usize = 32;

/// Largest layer width the loader accepts.
pub const MAX_WIDTH: usize = 1024;

/// Largest Pos2Vec width (the tower's output), so that an
/// [`Embedding`](crate::Embedding) has a fixed size and can be cached.
pub const MAX_EMBEDDING: usize = 128;

/// Largest number of layers in the tower or the head (input width included).
pub const MAX_LAYERS: usize = 8;

/// The shipped, distilled tower: Pos2Vec 773-100-100-100.
pub const DISTILLED_TOWER: [usize; 4] = [INPUTS, 100, 100, 100];

/// The shipped, distilled head: 200-100-100-2.
pub const DISTILLED_HEAD: [usize; 4] = [200, 100, 100, 2];

/// The paper's full tower: Pos2Vec 773-600-400-200-100.
pub const FULL_TOWER: [usize; 5] = [INPUTS, 600, 400, 200, 100];

/// The paper's full head: 200-400-200-100-2.
pub const FULL_HEAD: [usize; 5] = [200, 400, 200, 100, 2];

/// Rounds `n` up to a multiple of [`PADDING`].
pub const fn padded(n: usize) -> usize {
    n.div_ceil(PADDING) * PADDING
}

/// The architecture hash: FNV-1a (32 bit) over the layer sizes and every
/// quantization constant, as little-endian `u32` words.
///
/// FNV-1a is written out here because it is a dozen lines and must be a
/// `const fn` that the trainer, the loader and the tests compute identically.
pub const fn arch_hash(tower: &[usize], head: &[usize]) -> u32 {
    const PRIME: u32 = 0x0100_0193;
    let mut hash: u32 = 0x811c_9dc5;
    let constants = [
        INPUTS as u32,
        FT_SCALE as u32,
        ACT_SCALE as u32,
        WEIGHT_SCALE_BITS,
        // Activation function: 1 = clipped ReLU with rounding shift.
        1,
        tower.len() as u32,
        head.len() as u32,
    ];
    let mut i = 0;
    while i < constants.len() {
        hash = fnv_word(hash, constants[i], PRIME);
        i += 1;
    }
    let mut i = 0;
    while i < tower.len() {
        hash = fnv_word(hash, tower[i] as u32, PRIME);
        i += 1;
    }
    let mut i = 0;
    while i < head.len() {
        hash = fnv_word(hash, head[i] as u32, PRIME);
        i += 1;
    }
    hash
}

const fn fnv_word(mut hash: u32, word: u32, prime: u32) -> u32 {
    let bytes = word.to_le_bytes();
    let mut i = 0;
    while i < 4 {
        hash ^= bytes[i] as u32;
        hash = hash.wrapping_mul(prime);
        i += 1;
    }
    hash
}

/// Centipawns per unit of utility in a network whose scale was not fitted
/// (a zero or random network): a factor of e in the odds reads as one pawn.
pub const DEFAULT_CP_SCALE: f32 = 100.0;

/// Largest static evaluation the utility head reports, in centipawns; the
/// scalar search keeps scores beyond it for mates.
pub const MAX_EVAL_CP: i32 = 10_000;

/// Word mixed into the architecture hash of a network that carries a
/// utility head (see [`arch_hash_with_utility`]).
pub const UTILITY_TAG: u32 = 0x5554_494c; // "UTIL"

/// The architecture hash of a network with `tower`, a comparison `head`
/// (empty when it has none) and, if `utility`, a utility head
/// (`embedding → 1`, quantized as a hidden layer). Without a utility head it
/// is [`arch_hash`], so files written before utility heads existed keep their
/// hash.
pub const fn arch_hash_with_utility(tower: &[usize], head: &[usize], utility: bool) -> u32 {
    arch_hash_with_buckets(tower, head, if utility { 1 } else { 0 })
}

/// [`arch_hash_with_utility`] of a utility head with `buckets` outputs
/// (`embedding → buckets`, one read per position: [`output_bucket`]); 0 for
/// none. One bucket is the plain utility head, so its hash is unchanged.
pub const fn arch_hash_with_buckets(tower: &[usize], head: &[usize], buckets: usize) -> u32 {
    let hash = arch_hash(tower, head);
    if buckets > 0 { fnv_word(fnv_word(hash, UTILITY_TAG, 0x0100_0193), buckets as u32, 0x0100_0193) } else { hash }
}

/// Word mixed into the architecture hash of a network whose utility head
/// reads both perspectives (see [`arch_hash_of`]).
pub const PERSPECTIVE_TAG: u32 = 0x5045_5253; // "PERS"

/// The architecture hash of a network: [`arch_hash_with_buckets`] (a
/// utility head of `buckets` outputs, 0 for none), and for a network whose
/// first dense layer reads the first layer's activations of both
/// perspectives (the side to move's, then the other side's:
/// [`Shape::perspective`](crate::Shape::perspective)) [`PERSPECTIVE_TAG`]
/// mixed in, so that the two readings of one list of widths never share a
/// hash; for a first layer squared ([`Activation::SquaredClippedRelu`]),
/// [`SQUARED_TAG`] and [`SCRELU_MUL`] after that.
pub const fn arch_hash_of(
    tower: &[usize],
    head: &[usize],
    buckets: usize,
    perspective: bool,
    activation: Activation,
) -> u32 {
    const PRIME: u32 = 0x0100_0193;
    let hash = arch_hash_with_buckets(tower, head, buckets);
    let hash = if perspective { fnv_word(hash, PERSPECTIVE_TAG, PRIME) } else { hash };
    match activation {
        Activation::ClippedRelu => hash,
        Activation::SquaredClippedRelu => fnv_word(fnv_word(hash, SQUARED_TAG, PRIME), SCRELU_MUL as u32, PRIME),
    }
}

/// Word mixed into the architecture hash of a network whose first layer's
/// activation is squared (see [`arch_hash_of`]).
pub const SQUARED_TAG: u32 = 0x5343_524c; // "SCRL"

/// Most outputs of a utility head ([`output_bucket`]).
pub const MAX_BUCKETS: usize = 16;

/// The output a utility head of `buckets` outputs reads for a position with
/// `pieces` men on the board (kings included, 2 to 32): the range split into
/// `buckets` equal parts by material, as engines that learn from their own
/// games bucket their last layer (`(pieces − 2) / 4` for eight). A position
/// and its colour mirror image share it.
///
/// ```
/// use deepchess_core::arch::output_bucket;
///
/// assert_eq!(output_bucket(32, 8), 7);
/// assert_eq!(output_bucket(2, 8), 0);
/// assert_eq!(output_bucket(17, 1), 0);
/// assert_eq!((2..=32).map(|p| output_bucket(p, 8)).max(), Some(7));
/// ```
pub const fn output_bucket(pieces: u32, buckets: usize) -> usize {
    if buckets <= 1 {
        return 0;
    }
    let men = if pieces < 2 {
        0
    } else if pieces > 32 {
        30
    } else {
        pieces - 2
    } as usize;
    let bucket = men * buckets / 31;
    if bucket < buckets { bucket } else { buckets - 1 }
}

/// Widest layer of a learned network ([`crate::learned`]): Deep
/// Pink's paper width is 2,048.
pub const MAX_LEARNED_WIDTH: usize = 4096;

/// First word of a learner's network's architecture hash ("LRND").
pub const LEARNED_TAG: u32 = 0x4c52_4e44;

/// The architecture hash of a learner's network: FNV-1a over
/// [`LEARNED_TAG`] and `words` (its input encoding, layer widths and
/// activations, output kind; see [`crate::learned`]).
pub const fn learned_arch_hash(words: &[u32]) -> u32 {
    const PRIME: u32 = 0x0100_0193;
    let mut hash = fnv_word(0x811c_9dc5, LEARNED_TAG, PRIME);
    let mut i = 0;
    while i < words.len() {
        hash = fnv_word(hash, words[i], PRIME);
        i += 1;
    }
    hash
}

/// Move kinds per from-square of the AlphaZero policy
/// ([`crate::alphazero::policy`]): 56 queen-like, 8 knight, 9 underpromotions.
pub const AZ_POLICY_KINDS: usize = 73;

/// Input planes of the AlphaZero network ([`crate::alphazero::planes`]).
pub const AZ_PLANES: usize = 22;

/// Hidden width of the AlphaZero value head (`64 → 256 → 1`).
pub const AZ_VALUE_HIDDEN: usize = 256;

/// Most residual blocks an AlphaZero network file may have (the reimplementation's is 19).
pub const AZ_MAX_BLOCKS: usize = 40;

/// Most filters an AlphaZero network file may have (the reimplementation's is 256).
pub const AZ_MAX_FILTERS: usize = 512;

/// Centipawns per unit of `atanh(value)` when an AlphaZero value is printed
/// as `score cp` (and when MCTS over the utility head turns centipawns into
/// values).
pub const AZ_VALUE_SCALE_CP: f32 = 400.0;

/// First word of an AlphaZero network's architecture hash ("AZNT").
pub const AZ_TAG: u32 = 0x415a_4e54;

/// The architecture hash of an AlphaZero network with `blocks` residual
/// blocks of `filters` filters: FNV-1a over [`AZ_TAG`], the sizes, and the
/// fixed parts (planes, policy kinds, value head width).
pub const fn az_arch_hash(blocks: usize, filters: usize) -> u32 {
    const PRIME: u32 = 0x0100_0193;
    let words = [blocks as u32, filters as u32, AZ_PLANES as u32, AZ_POLICY_KINDS as u32, AZ_VALUE_HIDDEN as u32];
    let mut hash = fnv_word(0x811c_9dc5, AZ_TAG, PRIME);
    let mut i = 0;
    while i < words.len() {
        hash = fnv_word(hash, words[i], PRIME);
        i += 1;
    }
    hash
}

/// Hash of the shipped, distilled architecture.
pub const DISTILLED_HASH: u32 = arch_hash(&DISTILLED_TOWER, &DISTILLED_HEAD);

/// Hash of the paper's full architecture.
pub const FULL_HASH: u32 = arch_hash(&FULL_TOWER, &FULL_HEAD);

const _: () = {
    assert!(DISTILLED_HEAD[0] == 2 * DISTILLED_TOWER[DISTILLED_TOWER.len() - 1]);
    assert!(FULL_HEAD[0] == 2 * FULL_TOWER[FULL_TOWER.len() - 1]);
    assert!(DISTILLED_HASH != FULL_HASH);
    // maddubs (u8 × i8 pairs summed into i16) must not saturate.
    assert!(2 * (ACT_MAX as i32) * 128 <= i16::MAX as i32);
    // The squared clipped sum fits an i16, and its scaled square is at most 127.
    assert!((ACT_MAX as i32) * (ACT_MAX as i32) <= i16::MAX as i32);
    assert!(((ACT_MAX as i32) * (ACT_MAX as i32) * SCRELU_MUL as i32 + (1 << 14)) >> 15 == ACT_MAX as i32);
    assert!(SIDE_TO_MOVE_INDEX as usize == 2 * 6 * 64);
    assert!(CASTLING_INDEX as usize + 4 == INPUTS);
    assert!(padded(MAX_EMBEDDING) == MAX_EMBEDDING);
    assert!(padded(MAX_WIDTH) == MAX_WIDTH);
};
