//! A position's value from the first layer's sums of the position and of its
//! colour mirror image, for both kinds of value network: read through the
//! mirror (`s(x) = (u(x) − u(x̄)) / 2`) or from both perspectives at once
//! ([`Shape::perspective`](crate::Shape::perspective)).
//!
//! The scalar search keeps both accumulators along its path whichever the
//! kind, so it evaluates through [`Network::value_difference_of`] alone.

use shakmaty::{Chess, Position};

use crate::deepchess::accumulator::Accumulator;
use crate::deepchess::embedding::Embedding;
use crate::deepchess::features::Features;
use crate::deepchess::network::Network;
use crate::deepchess::scratch::Scratch;
use crate::kernels;

impl Network {
    /// Twice the value `s` of a position, White's view, in units of
    /// `1 / SUM_SCALE`, from the first layer's sums of the position (`own`)
    /// and of its colour mirror image (`mirror`); `white_to_move` is the
    /// position's side to move and `bucket` its
    /// [`output_bucket`](Self::output_bucket). Through the mirror it is
    /// [`utility_difference`](Self::utility_difference) of the two
    /// embeddings; a perspective network reads the side to move's sums and
    /// the other side's together and doubles its utility, negated when
    /// Black is to move. Either way the mirror image's value is the
    /// negation, exactly. `None` without a utility head.
    ///
    /// ```
    /// use deepchess_core::{Features, Network, Shape, seeded};
    /// use deepchess_core::deepchess::scratch::Scratch;
    /// use shakmaty::{Chess, Position, fen::Fen, CastlingMode};
    ///
    /// let net = Network::from_bytes(&seeded::network(&Shape::perspective(&[773, 64, 32])?, 1.0, 3).to_bytes())?;
    /// let pos: Chess = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    ///     .parse::<Fen>()?.into_position(CastlingMode::Standard)?;
    /// let features = Features::from_position(&pos);
    /// let (own, mirror) = (net.accumulator(&pos), net.accumulator_of(&features.mirrored()));
    /// let mut scratch = Scratch::new();
    /// let bucket = net.output_bucket(&pos);
    /// let white = net.value_difference_of(&own, &mirror, true, bucket, &mut scratch).unwrap();
    /// // The mirror image: Black to move, the accumulators the other way round.
    /// assert_eq!(net.value_difference_of(&mirror, &own, false, bucket, &mut scratch), Some(-white));
    /// assert_eq!(net.value_difference(&pos), Some(white));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn value_difference_of(
        &self,
        own: &Accumulator,
        mirror: &Accumulator,
        white_to_move: bool,
        bucket: usize,
        scratch: &mut Scratch,
    ) -> Option<i32> {
        if !self.shape().is_perspective() {
            let own = self.embed_with(own, scratch);
            let mirror = self.embed_with(mirror, scratch);
            return self.utility_difference(&own, &mirror, bucket);
        }
        let (mover, other) = if white_to_move { (own, mirror) } else { (mirror, own) };
        let embedding = self.embed_perspectives(mover, other, scratch);
        let twice = self.utility_sum(&embedding, bucket)?.saturating_mul(2);
        Some(if white_to_move { twice } else { twice.saturating_neg() })
    }

    /// A perspective network's embedding: the first layer's activations of
    /// the side to move's view (`mover`) and of the other side's (`other`),
    /// side by side, through the tower's dense layers. (Given a network read
    /// through the mirror, the second half is ignored: it is `embed` of
    /// `mover`.)
    pub fn embed_perspectives(&self, mover: &Accumulator, other: &Accumulator, scratch: &mut Scratch) -> Embedding {
        if !self.shape().is_perspective() {
            return self.embed_with(mover, scratch);
        }
        let width = self.feature_transformer().width();
        let activation = self.shape().activation();
        kernels::first_activation(self.kernel(), activation, mover.values(), &mut scratch.act[..width]);
        kernels::first_activation(self.kernel(), activation, other.values(), &mut scratch.act[width..2 * width]);
        self.rest_of_tower(scratch)
    }

    /// [`value_difference_of`](Self::value_difference_of) of `pos`, its
    /// accumulators computed from scratch.
    pub fn value_difference(&self, pos: &Chess) -> Option<i32> {
        let features = Features::from_position(pos);
        let (own, mirror) = (self.accumulator_of(&features), self.accumulator_of(&features.mirrored()));
        self.value_difference_of(&own, &mirror, pos.turn().is_white(), self.output_bucket(pos), &mut Scratch::new())
    }

    /// The static evaluation of `pos` in centipawns, White's view, computed
    /// from scratch (`None` without a utility head).
    pub fn evaluate_position(&self, pos: &Chess) -> Option<i32> {
        self.cp_of_difference(self.value_difference(pos)?)
    }

    /// The accumulator of the position whose active bits are `features`
    /// (a mirror image's, for instance), computed from scratch.
    pub fn accumulator_of(&self, features: &Features) -> Accumulator {
        let mut acc = Accumulator::zeros(self.feature_transformer().width());
        acc.refresh(self, features);
        acc
    }
}
