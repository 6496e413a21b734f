//! The quantized DeepChess network: load, embed, compare.

use alloc::string::String;
use alloc::vec::Vec;

use shakmaty::{Chess, Position};

use crate::arch::{MAX_BUCKETS, MAX_EVAL_CP, MAX_WIDTH, SUM_SCALE, padded};
use crate::deepchess::accumulator::Accumulator;
use crate::deepchess::delta::FeatureDelta;
use crate::deepchess::embedding::Embedding;
use crate::deepchess::features::Features;
use crate::deepchess::float::FloatLayer;
use crate::deepchess::format::Header;
use crate::deepchess::layers::dense::Dense;
use crate::deepchess::layers::feature_transformer::FeatureTransformer;
use crate::deepchess::scratch::Scratch;
use crate::deepchess::shape::Shape;
use crate::file::error::WeightsError;
use crate::file::{Reader, is_valid_cp_scale, read_cp_scale};
use crate::kernels::{self, Kernel};

/// A quantized DeepChess network, ready for integer inference.
///
/// `compare(a, b)` is the probability that position `a` is better for White
/// than position `b`: the first output of the softmax over the head's two
/// logits.
///
/// ```
/// use deepchess_core::{FloatNetwork, Network, Shape};
/// use shakmaty::Chess;
///
/// let bytes = FloatNetwork::zeros(&Shape::distilled()).to_bytes();
/// let net = Network::from_bytes(&bytes)?;
/// let start = net.embed_position(&Chess::default());
/// assert_eq!(net.compare(&start, &start), 0.5); // all-zero weights cannot tell
/// # Ok::<_, deepchess_core::WeightsError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Network {
    header: Header,
    ft: FeatureTransformer,
    tower: Vec<Dense>,
    head: Vec<Dense>,
    utility: Option<UtilityHead>,
    kernel: Kernel,
}

/// The quantized utility head: one output over the embedding (one per
/// output bucket: [`Shape::with_buckets`]), and the
/// centipawn scale as a 16-bit fixed-point factor on the difference of two
/// sums (see [`Network::evaluate`]).
#[derive(Clone, Debug)]
struct UtilityHead {
    dense: Dense,
    cp_scale: f32,
    /// `round(cp_scale · 2^16 / (2 · SUM_SCALE))`.
    cp_q16: i64,
}

impl UtilityHead {
    fn new(dense: Dense, cp_scale: f32) -> UtilityHead {
        let cp_q16 = libm::round(f64::from(cp_scale) * 65536.0 / (2.0 * f64::from(SUM_SCALE))) as i64;
        UtilityHead { dense, cp_scale, cp_q16 }
    }
}

impl Network {
    /// Loads a `.dcnn` file (see [`format`](crate::deepchess::format)). Never panics:
    /// every defect is a [`WeightsError`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, WeightsError> {
        let mut reader = Reader::new(bytes);
        let header = Header::read(&mut reader)?;
        let tower_widths = header.shape.tower();
        let ft = FeatureTransformer::read(&mut reader, tower_widths[1])?;
        let tower = header
            .shape
            .dense_layers()
            .into_iter()
            .map(|(inputs, outputs)| Dense::read(&mut reader, inputs, outputs))
            .collect::<Result<Vec<_>, _>>()?;
        let head = dense_layers(&mut reader, header.shape.head())?;
        let utility = if header.shape.has_utility() {
            let dense = Dense::read(&mut reader, header.shape.embedding(), header.shape.buckets())?;
            Some(UtilityHead::new(dense, read_cp_scale(&mut reader)?))
        } else {
            None
        };
        reader.finish()?;
        Ok(Network { header, ft, tower, head, utility, kernel: Kernel::detect() })
    }

    /// This network with `layer` (float, `embedding → 1`, or one output per
    /// output bucket) quantized as its utility head, replacing any it had,
    /// and `cp_scale` centipawns per unit of utility. The tower and the
    /// comparison head are kept bit for bit.
    ///
    /// Returns `None` if `layer` does not fit the embedding, has more than
    /// [`MAX_BUCKETS`] outputs, or the scale is
    /// not a positive, finite number up to
    /// [`MAX_CP_SCALE`](crate::file::MAX_CP_SCALE).
    pub fn with_utility(mut self, layer: &FloatLayer, cp_scale: f32) -> Option<Network> {
        let fits = layer.inputs() == self.shape().embedding() && (1..=MAX_BUCKETS).contains(&layer.outputs());
        if !(fits && is_valid_cp_scale(cp_scale)) {
            return None;
        }
        self.header.shape = self.header.shape.with_utility(true).ok()?.with_buckets(layer.outputs()).ok()?;
        self.utility = Some(UtilityHead::new(Dense::from_float(layer), cp_scale));
        Some(self)
    }

    /// Sets the description written by [`to_bytes`](Self::to_bytes).
    pub fn set_description(&mut self, description: String) {
        self.header.description = description;
    }

    /// Serializes the network; `from_bytes(to_bytes())` gives it back.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.header.write(&mut out);
        self.ft.write(&mut out);
        for layer in self.tower.iter().chain(&self.head) {
            layer.write(&mut out);
        }
        if let Some(utility) = &self.utility {
            utility.dense.write(&mut out);
            out.extend_from_slice(&utility.cp_scale.to_le_bytes());
        }
        out
    }

    /// Layer sizes.
    pub fn shape(&self) -> &Shape {
        &self.header.shape
    }

    /// The description stored in the file.
    pub fn description(&self) -> &str {
        &self.header.description
    }

    /// The kernel inference runs on ([`Kernel::detect`] after loading).
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Runs inference on `kernel` from now on. Returns `false`, and keeps the
    /// current kernel, if this machine does not support it.
    pub fn set_kernel(&mut self, kernel: Kernel) -> bool {
        let supported = kernel.is_supported();
        if supported {
            self.kernel = kernel;
        }
        supported
    }

    /// The sparse first layer.
    pub fn feature_transformer(&self) -> &FeatureTransformer {
        &self.ft
    }

    /// The tower's dense layers, after the feature transformer.
    pub fn tower(&self) -> &[Dense] {
        &self.tower
    }

    /// The comparison head's dense layers; the last one gives the two
    /// logits. Empty when the network has none.
    pub fn head(&self) -> &[Dense] {
        &self.head
    }

    /// Whether the network has a comparison head (for the comparison search).
    pub fn has_comparison(&self) -> bool {
        !self.head.is_empty()
    }

    /// Whether the network has a utility head (for the scalar search).
    pub fn has_utility(&self) -> bool {
        self.utility.is_some()
    }

    /// The utility head's layer, if any.
    pub fn utility_layer(&self) -> Option<&Dense> {
        self.utility.as_ref().map(|u| &u.dense)
    }

    /// Centipawns per unit of utility, if the network has a utility head.
    pub fn cp_scale(&self) -> Option<f32> {
        self.utility.as_ref().map(|u| u.cp_scale)
    }

    /// The utility of an embedding at output `bucket`, `u · SUM_SCALE` as
    /// an exact integer sum (`None` without a utility head). The bucket is
    /// the position's [`output_bucket`](Self::output_bucket): 0 for a head
    /// without buckets; one past the last reads the last.
    pub fn utility_sum(&self, embedding: &Embedding, bucket: usize) -> Option<i32> {
        let utility = self.utility.as_ref()?;
        let mut sums = [0i32; crate::arch::PADDING];
        utility.dense.propagate(self.kernel, embedding.values(), &mut sums);
        Some(sums[bucket.min(self.shape().buckets() - 1)])
    }

    /// The utility head's output for `pos` ([`arch::output_bucket`] of its
    /// men; 0 without output buckets).
    ///
    /// [`arch::output_bucket`]: crate::arch::output_bucket
    pub fn output_bucket(&self, pos: &Chess) -> usize {
        crate::arch::output_bucket(pos.board().occupied().count() as u32, self.shape().buckets())
    }

    /// `u(x) − u(x̄)` in units of `1 / SUM_SCALE`, from the embeddings of a
    /// position (`own`) and of its colour mirror image (`mirror`): twice the
    /// symmetrized utility `s(x) = (u(x) − u(x̄)) / 2`, an exact integer,
    /// at output `bucket` (the position's, which its mirror image shares).
    /// `s(a) − s(b)` is the log-odds that `a` is better for White than `b`.
    pub fn utility_difference(&self, own: &Embedding, mirror: &Embedding, bucket: usize) -> Option<i32> {
        Some(self.utility_sum(own, bucket)?.wrapping_sub(self.utility_sum(mirror, bucket)?))
    }

    /// The static evaluation of a position in centipawns from White's point
    /// of view, from its embedding and its mirror image's: the symmetrized
    /// utility `s(x)` times the centipawn scale, rounded and clamped to
    /// ±[`MAX_EVAL_CP`]. A position and its mirror evaluate to opposite
    /// numbers, so a balanced position is exactly 0. `None` without a utility
    /// head.
    ///
    /// ```
    /// use deepchess_core::{Features, FloatNetwork, Network, Shape, seeded};
    /// use shakmaty::{Chess, Position};
    ///
    /// let shape = Shape::distilled().with_utility(true).unwrap();
    /// let net = Network::from_bytes(&seeded::network(&shape, 1.0, 7).to_bytes())?;
    /// let pos = Chess::default();
    /// let features = Features::from_position(&pos);
    /// let embed = |f: &Features| {
    ///     let mut acc = net.accumulator(&pos);
    ///     acc.refresh(&net, f);
    ///     net.embed(&acc)
    /// };
    /// let (own, mirror) = (embed(&features), embed(&features.mirrored()));
    /// let bucket = net.output_bucket(&pos);
    /// let cp = net.evaluate(&own, &mirror, bucket).unwrap();
    /// assert_eq!(net.evaluate(&mirror, &own, bucket), Some(-cp));
    /// # Ok::<_, deepchess_core::WeightsError>(())
    /// ```
    pub fn evaluate(&self, own: &Embedding, mirror: &Embedding, bucket: usize) -> Option<i32> {
        self.cp_of_difference(self.utility_difference(own, mirror, bucket)?)
    }

    /// The centipawns of twice a value, `2 · s` in units of
    /// `1 / SUM_SCALE` (what [`utility_difference`](Self::utility_difference)
    /// gives): rounded half away from zero, clamped to ±[`MAX_EVAL_CP`].
    /// `None` without a utility head.
    pub fn cp_of_difference(&self, difference: i32) -> Option<i32> {
        let difference = i64::from(difference);
        let q = self.utility.as_ref()?.cp_q16;
        // Rounded half away from zero, so that evaluate(b, a) = −evaluate(a, b).
        let magnitude = (difference.abs() * q + (1 << 15)) >> 16;
        let cp = if difference < 0 { -magnitude } else { magnitude };
        Some(cp.clamp(-i64::from(MAX_EVAL_CP), i64::from(MAX_EVAL_CP)) as i32)
    }

    /// The accumulator of `pos`, computed from scratch.
    pub fn accumulator(&self, pos: &Chess) -> Accumulator {
        Accumulator::new(self, pos)
    }

    /// Pos2Vec: the rest of the tower, from the first layer's sums to the
    /// embedding. A perspective network reads two accumulators
    /// ([`value_difference_of`](Self::value_difference_of)); given one,
    /// it reads the other side's half as zeros.
    pub fn embed(&self, acc: &Accumulator) -> Embedding {
        self.embed_with(acc, &mut Scratch::new())
    }

    /// [`embed`](Self::embed) in the caller's working memory (the same
    /// result; no buffers to zero).
    pub fn embed_with(&self, acc: &Accumulator, scratch: &mut Scratch) -> Embedding {
        let width = self.ft.width();
        kernels::first_activation(self.kernel, self.shape().activation(), acc.values(), &mut scratch.act[..width]);
        if self.shape().is_perspective() {
            scratch.act[width..2 * width].fill(0);
        }
        self.rest_of_tower(scratch)
    }

    /// The tower's dense layers over the first layer's activations in
    /// `scratch.act` (both perspectives' in a perspective network).
    pub(crate) fn rest_of_tower(&self, scratch: &mut Scratch) -> Embedding {
        let Scratch { act, next, sums } = scratch;
        let (mut act, mut next) = (act, next);
        for layer in &self.tower {
            layer.propagate(self.kernel, &act[..], sums);
            layer.crelu(self.kernel, sums, &mut next[..]);
            core::mem::swap(&mut act, &mut next);
        }
        Embedding::from_activations(&act[..padded(self.shape().embedding())])
    }

    /// The embedding of `pos`, computed from scratch.
    pub fn embed_position(&self, pos: &Chess) -> Embedding {
        self.embed(&self.accumulator(pos))
    }

    /// The embeddings of `pos` and of its colour mirror image, computed from
    /// scratch with one accumulator: what [`evaluate`](Self::evaluate) and
    /// [`utility_difference`](Self::utility_difference) take.
    pub fn embed_with_mirror(&self, pos: &Chess) -> (Embedding, Embedding) {
        let features = Features::from_position(pos);
        (self.embed(&self.accumulator_of(&features)), self.embed(&self.accumulator_of(&features.mirrored())))
    }

    /// The head's two logits for the pair (`a`, `b`), in units of
    /// `1 / SUM_SCALE`; `[0, 0]` without a comparison head.
    pub fn logits(&self, a: &Embedding, b: &Embedding) -> [i32; 2] {
        let width = self.shape().embedding();
        let (mut act, mut next) = ([0u8; MAX_WIDTH], [0u8; MAX_WIDTH]);
        let mut sums = [0i32; MAX_WIDTH];
        act[..width].copy_from_slice(&a.values()[..width]);
        act[width..2 * width].copy_from_slice(&b.values()[..width]);
        let (mut act, mut next) = (&mut act, &mut next);
        // A network without a comparison head cannot tell: no preference.
        let Some((last, hidden)) = self.head.split_last() else { return [0, 0] };
        for layer in hidden {
            layer.propagate(self.kernel, &act[..], &mut sums);
            layer.crelu(self.kernel, &sums, &mut next[..]);
            core::mem::swap(&mut act, &mut next);
        }
        last.propagate(self.kernel, &act[..], &mut sums);
        [sums[0], sums[1]]
    }

    /// `logit[0] - logit[1]`: positive when `a` is better for White than `b`.
    /// Exact, so the search compares with it.
    pub fn compare_logit(&self, a: &Embedding, b: &Embedding) -> i32 {
        let [x, y] = self.logits(a, b);
        x.wrapping_sub(y)
    }

    /// The probability that `a` is better for White than `b`.
    pub fn compare(&self, a: &Embedding, b: &Embedding) -> f32 {
        logit_to_probability(self.compare_logit(a, b))
    }
}

/// The softmax's first output from the logit difference `l0 - l1`:
/// `1 / (1 + exp(-(l0 - l1) / SUM_SCALE))`.
pub fn logit_to_probability(logit: i32) -> f32 {
    1.0 / (1.0 + libm::expf(-(logit as f32) / SUM_SCALE as f32))
}

fn dense_layers(reader: &mut Reader<'_>, widths: &[usize]) -> Result<Vec<Dense>, WeightsError> {
    widths.windows(2).map(|pair| Dense::read(reader, pair[0], pair[1])).collect()
}

impl Accumulator {
    /// The accumulator of `pos`, computed from scratch.
    pub fn new(net: &Network, pos: &Chess) -> Accumulator {
        net.accumulator_of(&Features::from_position(pos))
    }

    /// Recomputes the sums from the active bits.
    pub fn refresh(&mut self, net: &Network, features: &Features) {
        net.feature_transformer().refresh(net.kernel(), features, self.values_mut());
    }

    /// Becomes `parent` followed by a move, in one pass (the same sums as a
    /// copy of `parent` then [`apply`](Self::apply)).
    pub fn apply_from(&mut self, net: &Network, delta: &FeatureDelta, parent: &Accumulator) {
        net.feature_transformer().apply_from(net.kernel(), delta, parent.values(), self.values_mut());
    }

    /// Follows a move: subtracts the rows of cleared bits and adds those of
    /// set bits.
    pub fn apply(&mut self, net: &Network, delta: &FeatureDelta) {
        net.feature_transformer().apply(net.kernel(), delta, self.values_mut());
    }
}
