//! The layer sizes of a network, checked.

use alloc::vec::Vec;
use core::fmt;

use crate::arch::{self, Activation, INPUTS, MAX_BUCKETS, MAX_EMBEDDING, MAX_LAYERS, MAX_WIDTH};

/// Layer sizes of the tower (Pos2Vec), the comparison head, each list
/// including its input width, and whether a utility head (`embedding → 1`)
/// follows.
///
/// A network carries a comparison head, a utility head or both; the tower
/// is always there.
///
/// ```
/// use deepchess_core::{Shape, arch};
///
/// let shape = Shape::distilled();
/// assert_eq!(shape.tower(), &arch::DISTILLED_TOWER);
/// assert_eq!(shape.hash(), arch::DISTILLED_HASH);
/// assert!(Shape::new(&[773, 100], &[100, 2]).is_err()); // head input must be 2 × 100
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    tower: Vec<usize>,
    /// Empty when the network has no comparison head.
    head: Vec<usize>,
    utility: bool,
    /// The first dense layer reads both perspectives' activations
    /// ([`Shape::perspective`]).
    perspective: bool,
    /// Outputs of the utility head, one read per position by material
    /// ([`Shape::with_buckets`]); 1 for a plain utility head, and without
    /// one.
    buckets: usize,
    /// The first layer's activation ([`Shape::with_activation`]).
    activation: Activation,
}

impl Shape {
    /// Checks the sizes: the tower starts at 773, the head at twice the tower's
    /// output and ends at 2, and every width is within the loader's limits.
    pub fn new(tower: &[usize], head: &[usize]) -> Result<Shape, ShapeError> {
        Shape::with_heads(tower, head, false)
    }

    /// Checks the sizes of a network with a comparison head (`head`, or none
    /// when empty) and, if `utility`, a utility head. At least one head must
    /// be present.
    ///
    /// ```
    /// use deepchess_core::{Shape, ShapeError};
    ///
    /// let both = Shape::with_heads(&[773, 100, 100], &[200, 2], true)?;
    /// assert!(both.has_comparison() && both.has_utility());
    /// let utility = Shape::with_heads(&[773, 100, 100], &[], true)?;
    /// assert!(!utility.has_comparison());
    /// assert_eq!(Shape::with_heads(&[773, 100], &[], false), Err(ShapeError::NoHead));
    /// # Ok::<_, ShapeError>(())
    /// ```
    pub fn with_heads(tower: &[usize], head: &[usize], utility: bool) -> Result<Shape, ShapeError> {
        if head.is_empty() && !utility {
            return Err(ShapeError::NoHead);
        }
        let parts: &[&[usize]] = if head.is_empty() { &[tower] } else { &[tower, head] };
        for &layers in parts {
            if layers.len() < 2 {
                return Err(ShapeError::TooFewLayers);
            }
            if layers.len() > MAX_LAYERS {
                return Err(ShapeError::TooManyLayers { layers: layers.len() });
            }
            if let Some(&width) = layers.iter().find(|&&w| w == 0 || w > MAX_WIDTH) {
                return Err(ShapeError::BadWidth { width });
            }
        }
        if tower[0] != INPUTS {
            return Err(ShapeError::WrongInputs { found: tower[0] });
        }
        let embedding = tower[tower.len() - 1];
        if embedding > MAX_EMBEDDING {
            return Err(ShapeError::EmbeddingTooWide { width: embedding });
        }
        if let (Some(&input), Some(&outputs)) = (head.first(), head.last()) {
            if input != 2 * embedding {
                return Err(ShapeError::HeadInputMismatch { head_input: input, embedding });
            }
            if outputs != 2 {
                return Err(ShapeError::WrongOutputs { found: outputs });
            }
        }
        Ok(Shape {
            tower: tower.to_vec(),
            head: head.to_vec(),
            utility,
            perspective: false,
            buckets: 1,
            activation: Activation::ClippedRelu,
        })
    }

    /// A value network read from both perspectives, as NNUE engines read
    /// theirs: the first layer (`tower[0] → tower[1]`) is applied to the
    /// position as the side to move sees it and as the other side sees it
    /// (the colour mirror image), and the first dense layer reads both
    /// activations, the side to move's first, so it takes `2 · tower[1]`
    /// inputs. The utility head gives the side to move's value; no
    /// comparison head. `tower[1]` must be a multiple of
    /// [`PADDING`](arch::PADDING), so that the two halves lie side by side
    /// in the SIMD kernels' padded layout.
    ///
    /// ```
    /// use deepchess_core::{Shape, ShapeError};
    ///
    /// let shape = Shape::perspective(&[773, 256, 32])?;
    /// assert!(shape.is_perspective() && shape.has_utility() && !shape.has_comparison());
    /// assert_eq!(shape.dense_layers(), [(512, 32)]); // the 256 sums of both sides into the 32-wide layer
    /// assert_ne!(shape.hash(), Shape::with_heads(&[773, 256, 32], &[], true)?.hash());
    /// assert_eq!(Shape::perspective(&[773, 100, 32]), Err(ShapeError::PerspectiveWidth { width: 100 }));
    /// # Ok::<_, ShapeError>(())
    /// ```
    pub fn perspective(tower: &[usize]) -> Result<Shape, ShapeError> {
        let mut shape = Shape::with_heads(tower, &[], true)?;
        if tower.len() < 3 {
            return Err(ShapeError::TooFewLayers);
        }
        let width = tower[1];
        if !width.is_multiple_of(arch::PADDING) || 2 * width > MAX_WIDTH {
            return Err(ShapeError::PerspectiveWidth { width });
        }
        shape.perspective = true;
        Ok(shape)
    }

    /// The same sizes with a utility head added (or removed). A perspective
    /// network keeps its utility head: removing it is
    /// [`ShapeError::NoHead`]. Its buckets ([`with_buckets`](Self::with_buckets))
    /// go with it; the first layer's activation stays.
    pub fn with_utility(&self, utility: bool) -> Result<Shape, ShapeError> {
        if self.perspective {
            return if utility { Ok(self.clone()) } else { Err(ShapeError::NoHead) };
        }
        if utility && self.utility {
            return Ok(self.clone());
        }
        Ok(Shape::with_heads(&self.tower, &self.head, utility)?.with_activation(self.activation))
    }

    /// The same network with a utility head of `buckets` outputs
    /// (`embedding → buckets`), of which a position reads the one its
    /// material picks ([`arch::output_bucket`]): output buckets, as the
    /// engines that learn from their own games bucket their last layer. One
    /// bucket is the plain utility head.
    ///
    /// ```
    /// use deepchess_core::{Shape, ShapeError};
    ///
    /// let plain = Shape::with_heads(&[773, 256, 32], &[], true)?;
    /// let bucketed = plain.with_buckets(8)?;
    /// assert_eq!(bucketed.buckets(), 8);
    /// assert_eq!(plain.with_buckets(1)?, plain);
    /// assert_ne!(bucketed.hash(), plain.hash());
    /// assert_eq!(bucketed.to_string(), "773-256-32 + utility 32-8 (output buckets)");
    /// assert_eq!(Shape::distilled().with_buckets(8), Err(ShapeError::BucketsWithoutUtility));
    /// assert_eq!(plain.with_buckets(17), Err(ShapeError::BadBuckets { buckets: 17 }));
    /// # Ok::<_, ShapeError>(())
    /// ```
    pub fn with_buckets(&self, buckets: usize) -> Result<Shape, ShapeError> {
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(ShapeError::BadBuckets { buckets });
        }
        if !self.utility {
            return Err(ShapeError::BucketsWithoutUtility);
        }
        Ok(Shape { buckets, ..self.clone() })
    }

    /// The same network with its first layer followed by `activation`: the
    /// squared clipped ReLU ([`Activation::SquaredClippedRelu`]) as engines
    /// that learn from their own games use it, or the clipped ReLU (the
    /// default). Any network may have either; the other layers keep the
    /// clipped ReLU.
    ///
    /// ```
    /// use deepchess_core::{Shape, ShapeError, arch::Activation};
    ///
    /// let plain = Shape::with_heads(&[773, 256, 32], &[], true)?;
    /// let squared = plain.with_activation(Activation::SquaredClippedRelu);
    /// assert_eq!(squared.activation(), Activation::SquaredClippedRelu);
    /// assert_eq!(plain.with_activation(Activation::ClippedRelu), plain);
    /// assert_ne!(squared.hash(), plain.hash());
    /// assert_eq!(squared.to_string(), "773-256-32 + utility 32-1, first layer screlu");
    /// # Ok::<_, ShapeError>(())
    /// ```
    pub fn with_activation(&self, activation: Activation) -> Shape {
        Shape { activation, ..self.clone() }
    }

    /// The first layer's activation.
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// Outputs of the utility head (1 for a plain one, and without one).
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// Whether the first dense layer reads both perspectives
    /// ([`Shape::perspective`]).
    pub fn is_perspective(&self) -> bool {
        self.perspective
    }

    /// The tower's dense layers after the first, each as (inputs, outputs):
    /// `tower[1..]`'s consecutive widths, the first input doubled in a
    /// perspective network (it reads both sides' activations).
    pub fn dense_layers(&self) -> Vec<(usize, usize)> {
        let mut layers: Vec<(usize, usize)> = self.tower[1..].windows(2).map(|w| (w[0], w[1])).collect();
        if self.perspective {
            layers[0].0 *= 2;
        }
        layers
    }

    /// Whether the network has a comparison head.
    pub fn has_comparison(&self) -> bool {
        !self.head.is_empty()
    }

    /// Whether the network has a utility head.
    pub fn has_utility(&self) -> bool {
        self.utility
    }

    /// The shipped, distilled shape: 773-100-100-100 and 200-100-100-2.
    pub fn distilled() -> Shape {
        Shape {
            tower: arch::DISTILLED_TOWER.to_vec(),
            head: arch::DISTILLED_HEAD.to_vec(),
            utility: false,
            perspective: false,
            buckets: 1,
            activation: Activation::ClippedRelu,
        }
    }

    /// The paper's full shape: 773-600-400-200-100 and 200-400-200-100-2.
    pub fn full() -> Shape {
        Shape {
            tower: arch::FULL_TOWER.to_vec(),
            head: arch::FULL_HEAD.to_vec(),
            utility: false,
            perspective: false,
            buckets: 1,
            activation: Activation::ClippedRelu,
        }
    }

    /// Tower widths, from 773 to the embedding width.
    pub fn tower(&self) -> &[usize] {
        &self.tower
    }

    /// Comparison head widths, from twice the embedding width to 2; empty
    /// when the network has no comparison head.
    pub fn head(&self) -> &[usize] {
        &self.head
    }

    /// Width of a Pos2Vec embedding (the tower's output).
    pub fn embedding(&self) -> usize {
        self.tower[self.tower.len() - 1]
    }

    /// The architecture hash of these sizes under this build's quantization.
    pub fn hash(&self) -> u32 {
        let buckets = if self.utility { self.buckets } else { 0 };
        arch::arch_hash_of(&self.tower, &self.head, buckets, self.perspective, self.activation)
    }
}

/// Prints `773-100-100-100 + 200-100-100-2`, with ` + utility 100-1` when
/// the network has a utility head (`32-8 (output buckets)` where it has
/// buckets); a perspective network's first layer as `(773-256)x2`; `, first
/// layer screlu` where the first layer's activation is squared.
impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let widths = |f: &mut fmt::Formatter<'_>, layers: &[usize]| {
            for (i, width) in layers.iter().enumerate() {
                if i > 0 {
                    f.write_str("-")?;
                }
                write!(f, "{width}")?;
            }
            Ok(())
        };
        if self.perspective {
            write!(f, "({}-{})x2-", self.tower[0], self.tower[1])?;
            widths(f, &self.tower[2..])?;
        } else {
            widths(f, &self.tower)?;
        }
        if self.has_comparison() {
            f.write_str(" + ")?;
            widths(f, &self.head)?;
        }
        if self.utility {
            write!(f, " + utility {}-{}", self.embedding(), self.buckets)?;
            if self.buckets > 1 {
                f.write_str(" (output buckets)")?;
            }
        }
        if self.activation != Activation::ClippedRelu {
            write!(f, ", first layer {}", self.activation.name())?;
        }
        Ok(())
    }
}

/// Layer sizes that do not describe a DeepChess network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// The tower or the head lists fewer than two widths.
    TooFewLayers,
    /// The network has neither a comparison head nor a utility head.
    NoHead,
    /// The tower or the head lists more than [`MAX_LAYERS`] widths.
    TooManyLayers {
        /// Widths listed.
        layers: usize,
    },
    /// A width is zero or over [`MAX_WIDTH`].
    BadWidth {
        /// The offending width.
        width: usize,
    },
    /// The tower does not start with the 773 input bits.
    WrongInputs {
        /// The tower's first width.
        found: usize,
    },
    /// The tower's output is over [`MAX_EMBEDDING`].
    EmbeddingTooWide {
        /// The tower's output width.
        width: usize,
    },
    /// The head's input is not twice the tower's output.
    HeadInputMismatch {
        /// The head's first width.
        head_input: usize,
        /// The tower's output width.
        embedding: usize,
    },
    /// The head does not end with 2 outputs.
    WrongOutputs {
        /// The head's last width.
        found: usize,
    },
    /// A perspective network's first layer is not a multiple of
    /// [`PADDING`](arch::PADDING) wide, or twice it is over [`MAX_WIDTH`].
    PerspectiveWidth {
        /// The first layer's width.
        width: usize,
    },
    /// Output buckets asked of a network without a utility head.
    BucketsWithoutUtility,
    /// A utility head's outputs are not in `1..=`[`MAX_BUCKETS`].
    BadBuckets {
        /// The outputs asked for.
        buckets: usize,
    },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::TooFewLayers => f.write_str("the tower and the head each need at least two widths"),
            ShapeError::NoHead => f.write_str("the network has neither a comparison head nor a utility head"),
            ShapeError::TooManyLayers { layers } => {
                write!(f, "{layers} widths in one part, at most {MAX_LAYERS} are supported")
            }
            ShapeError::BadWidth { width } => write!(f, "layer width {width} is not in 1..={MAX_WIDTH}"),
            ShapeError::WrongInputs { found } => write!(f, "the tower starts at {found} inputs, not {INPUTS}"),
            ShapeError::EmbeddingTooWide { width } => {
                write!(f, "the embedding is {width} wide, at most {MAX_EMBEDDING} is supported")
            }
            ShapeError::HeadInputMismatch { head_input, embedding } => {
                write!(f, "the head takes {head_input} inputs, not twice the embedding width {embedding}")
            }
            ShapeError::WrongOutputs { found } => write!(f, "the head ends with {found} outputs, not 2"),
            ShapeError::PerspectiveWidth { width } => write!(
                f,
                "a perspective network's first layer is {width} wide: it must be a multiple of {} up to {}",
                arch::PADDING,
                MAX_WIDTH / 2
            ),
            ShapeError::BucketsWithoutUtility => f.write_str("output buckets need a utility head"),
            ShapeError::BadBuckets { buckets } => {
                write!(f, "{buckets} output buckets: a utility head has 1 to {MAX_BUCKETS}")
            }
        }
    }
}

impl core::error::Error for ShapeError {}
