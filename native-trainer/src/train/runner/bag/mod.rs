//! The sparse first layer as one operation, forward and backward: an
//! embedding bag.
//!
//! A position is at most 37 active input bits of 773 (padded to a fixed
//! number of slots with the padding row, which reads as zeros). The first
//! layer's pre-activation is the sum of the weight rows of those bits:
//! [`bag_sum`] takes the `[rows, h]` table and the `[batch, slots]` indices
//! and gives the `[batch, h]` sums; its gradient with respect to the table
//! adds each position's output gradient into the rows it read
//! ([`BagBackend::bag_sum_backward`]), a scatter-add.
//!
//! One operation on every backend, through burn's backend extension:
//! - on the GPU backends (cuda, wgpu: burn's `Cube`), two CubeCL kernels
//!   written once for both ([`cube`]): the forward a unit per output value,
//!   summing its column of the position's rows; the backward a unit per
//!   (slot, column), each an atomic add into the table's gradient. Where
//!   the device has no atomic float add, the backward is burn's
//!   `select_assign`, as it was before;
//! - on flex, the same operation from burn's own tensor operations (a
//!   `select` of the rows and a sum, and `select_assign` for the gradient):
//!   on a CPU they are already a gather and a scatter-add.
//!
//! Before, a GPU multiplied one-hot `[batch, 774]` inputs by the weight
//! (the gradient of burn's `select` on a GPU walks every gathered row in a
//! unit per column); the kernels move 37 indices a position instead of 774
//! floats. The tests of [`super::tensors`] hold the operation to the product
//! and to the gather, values and gradients, on flex and on wgpu.

use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::tensor::{FloatTensor, IntTensor};
use burn::backend::{Autodiff, Backend, Dispatch, TensorMetadata, backend_extension};
use burn::tensor::{IndexingUpdateOp, Int, Shape, Tensor};

#[cfg(any(feature = "wgpu", feature = "cuda"))]
pub mod cube;

/// The embedding bag as a backend operation (see the module's docs).
#[backend_extension(Autodiff, Flex: cfg(feature = "flex"), Cube: cfg(any(feature = "wgpu", feature = "cuda")))]
pub trait BagBackend: Backend {
    /// The sum of each position's rows of `table`: a `[rows, h]` table and
    /// `[batch, slots]` row indices give `[batch, h]`.
    fn bag_sum(table: FloatTensor<Self>, indices: IntTensor<Self>) -> FloatTensor<Self> {
        gathered::<Self>(table, indices)
    }

    /// The gradient of [`BagBackend::bag_sum`] with respect to its table:
    /// `grad` (`[batch, h]`) added into the `rows` × `h` table at each of
    /// the position's row indices.
    fn bag_sum_backward(grad: FloatTensor<Self>, indices: IntTensor<Self>, rows: usize) -> FloatTensor<Self> {
        scattered::<Self>(grad, indices, rows)
    }
}

/// [`BagBackend::bag_sum`] from burn's operations: the rows selected, then
/// summed over the slots.
pub fn gathered<B: Backend>(table: FloatTensor<B>, indices: IntTensor<B>) -> FloatTensor<B> {
    let [batch, slots] = dims(&indices);
    let width = table.shape()[1];
    let rows = B::float_select(table, 0, B::int_reshape(indices, Shape::new([batch * slots])));
    let sums = B::float_sum_dim(B::float_reshape(rows, Shape::new([batch, slots, width])), 1);
    B::float_reshape(sums, Shape::new([batch, width]))
}

/// [`BagBackend::bag_sum_backward`] from burn's operations: each position's
/// gradient repeated over its slots and added into a zero table by
/// `select_assign`.
pub fn scattered<B: Backend>(grad: FloatTensor<B>, indices: IntTensor<B>, rows: usize) -> FloatTensor<B> {
    let [batch, slots] = dims(&indices);
    let width = grad.shape()[1];
    let dtype = grad.dtype().into();
    let device = grad.device();
    let repeated =
        B::float_expand(B::float_reshape(grad, Shape::new([batch, 1, width])), Shape::new([batch, slots, width]));
    let repeated = B::float_reshape(repeated, Shape::new([batch * slots, width]));
    let zeros = B::float_zeros(Shape::new([rows, width]), &device, dtype);
    B::float_select_assign(
        zeros,
        0,
        B::int_reshape(indices, Shape::new([batch * slots])),
        repeated,
        IndexingUpdateOp::Add,
    )
}

fn dims(indices: &impl TensorMetadata) -> [usize; 2] {
    let shape = indices.shape();
    assert_eq!(shape.num_dims(), 2, "bag indices are [batch, slots]");
    [shape[0], shape[1]]
}

#[cfg(feature = "flex")]
impl BagBackend for burn::backend::Flex {}

/// The embedding bag under autodiff: the inner backend's forward, and its
/// [`BagBackend::bag_sum_backward`] as the table's gradient (the indices
/// have none).
impl<B: BagBackend, C: CheckpointStrategy> BagBackend for Autodiff<B, C> {
    fn bag_sum(table: FloatTensor<Self>, indices: IntTensor<Self>) -> FloatTensor<Self> {
        #[derive(Debug)]
        struct BagSumBackward;

        impl<B: BagBackend> Backward<B, 1> for BagSumBackward {
            type State = (IntTensor<B>, usize);

            fn backward(self, ops: Ops<Self::State, 1>, grads: &mut Gradients, _checkpointer: &mut Checkpointer) {
                let [table] = ops.parents;
                let grad = grads.consume::<B>(&ops.node);
                let (indices, rows) = ops.state;
                if let Some(node) = table {
                    grads.register::<B>(node.id, B::bag_sum_backward(grad, indices, rows));
                }
            }
        }

        match BagSumBackward.prepare::<C>([table.node()]).compute_bound().stateful() {
            OpsKind::Tracked(prep) => {
                let rows = table.primitive().shape()[0];
                prep.finish((indices.clone(), rows), B::bag_sum(table.into_primitive(), indices))
            }
            OpsKind::UnTracked(prep) => prep.finish(B::bag_sum(table.into_primitive(), indices)),
        }
    }
}

/// The sums of each position's rows of `table` (`[rows, h]`), the rows
/// named by `indices` (`[batch, slots]`): `[batch, h]`, differentiable in
/// the table.
pub fn bag_sum(table: Tensor<2>, indices: Tensor<2, Int>) -> Tensor<2> {
    Tensor::from_dispatch(<Dispatch as BagBackend>::bag_sum(table.into_dispatch(), indices.into_dispatch()))
}
