//! The layer sizes of a network, checked.

use alloc::vec::Vec;
use core::fmt;

use crate::arch::{self, INPUTS, MAX_EMBEDDING, MAX_LAYERS, MAX_WIDTH};

/// Layer sizes of the tower (Pos2Vec) and the head (comparator), each list
/// including its input width.
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
    head: Vec<usize>,
}

impl Shape {
    /// Checks the sizes: the tower starts at 773, the head at twice the tower's
    /// output and ends at 2, and every width is within the loader's limits.
    pub fn new(tower: &[usize], head: &[usize]) -> Result<Shape, ShapeError> {
        for layers in [tower, head] {
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
        if head[0] != 2 * embedding {
            return Err(ShapeError::HeadInputMismatch { head_input: head[0], embedding });
        }
        let outputs = head[head.len() - 1];
        if outputs != 2 {
            return Err(ShapeError::WrongOutputs { found: outputs });
        }
        Ok(Shape { tower: tower.to_vec(), head: head.to_vec() })
    }

    /// The shipped, distilled shape: 773-100-100-100 and 200-100-100-2.
    pub fn distilled() -> Shape {
        Shape { tower: arch::DISTILLED_TOWER.to_vec(), head: arch::DISTILLED_HEAD.to_vec() }
    }

    /// The paper's full shape: 773-600-400-200-100 and 200-400-200-100-2.
    pub fn full() -> Shape {
        Shape { tower: arch::FULL_TOWER.to_vec(), head: arch::FULL_HEAD.to_vec() }
    }

    /// Tower widths, from 773 to the embedding width.
    pub fn tower(&self) -> &[usize] {
        &self.tower
    }

    /// Head widths, from twice the embedding width to 2.
    pub fn head(&self) -> &[usize] {
        &self.head
    }

    /// Width of a Pos2Vec embedding (the tower's output).
    pub fn embedding(&self) -> usize {
        self.tower[self.tower.len() - 1]
    }

    /// The architecture hash of these sizes under this build's quantization.
    pub fn hash(&self) -> u32 {
        arch::arch_hash(&self.tower, &self.head)
    }
}

/// Prints `773-100-100-100 + 200-100-100-2`.
impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (layers, sep) in [(&self.tower, " + "), (&self.head, "")] {
            for (i, width) in layers.iter().enumerate() {
                if i > 0 {
                    f.write_str("-")?;
                }
                write!(f, "{width}")?;
            }
            f.write_str(sep)?;
        }
        Ok(())
    }
}

/// Layer sizes that do not describe a DeepChess network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// The tower or the head lists fewer than two widths.
    TooFewLayers,
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
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::TooFewLayers => f.write_str("the tower and the head each need at least two widths"),
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
        }
    }
}

impl core::error::Error for ShapeError {}
