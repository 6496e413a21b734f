//! The embedding bag's CubeCL kernels, one source for every GPU backend
//! (cuda, wgpu): burn's `Cube` backend runs them on whichever runtime a
//! tensor's device names.

use burn::backend::Cube;
use burn::backend::TensorMetadata;
use burn::backend::cubecl::{dtype_to_elem_type, dtype_to_storage_type};
use burn::backend::tensor::{FloatTensor, IntTensor};
use burn::tensor::Shape;
use burn_cubecl::kernel::into_contiguous;
use burn_cubecl::ops::numeric::{empty_device_dtype, zeros_client};
use burn_cubecl::tensor::CubeTensor;
use cubecl::features::AtomicUsage;
use cubecl::ir::Type;
use cubecl::prelude::*;
use cubecl::{CubeCount, CubeDim, calculate_cube_count_elemwise};

use super::{BagBackend, scattered};

/// One unit per output value (position, column): the sum of that column
/// over the position's rows. Neighbouring units read neighbouring columns
/// of a row, so a row's reads coalesce.
#[cube(launch_unchecked)]
fn bag_sum_kernel<F: Float, I: Numeric>(
    table: &Tensor<F>,      // [rows, h], contiguous
    indices: &Tensor<I>,    // [batch, slots], contiguous
    output: &mut Tensor<F>, // [batch, h]
    #[define(F, I)] _dtypes: [ElemType; 2],
) {
    let width = output.shape(1);
    let slots = indices.shape(1);
    let position = ABSOLUTE_POS / width;
    if position >= output.shape(0) {
        terminate!();
    }
    let column = ABSOLUTE_POS % width;
    let mut sum = F::new(0.0);
    for slot in 0..slots {
        let row = usize::cast_from(indices[position * slots + slot]);
        sum += table[row * width + column];
    }
    output[ABSOLUTE_POS] = sum;
}

/// One unit per (position, slot, column): the position's output gradient in
/// that column added atomically into the row the slot names. The adds into
/// one value land in no fixed order, so the last bits of a sum may differ
/// from run to run.
#[cube(launch_unchecked)]
fn bag_grad_kernel<F: Float, I: Numeric>(
    grad: &Tensor<F>,               // [batch, h], contiguous
    indices: &Tensor<I>,            // [batch, slots], contiguous
    output: &mut Tensor<Atomic<F>>, // [rows, h], zeros
    #[define(F, I)] _dtypes: [ElemType; 2],
) {
    let width = grad.shape(1);
    let slots = indices.shape(1);
    let entry = ABSOLUTE_POS / width;
    if entry >= indices.shape(0) * slots {
        terminate!();
    }
    let column = ABSOLUTE_POS % width;
    let row = usize::cast_from(indices[entry]);
    output[row * width + column].fetch_add(grad[(entry / slots) * width + column]);
}

/// Whether `tensor`'s device adds its float type atomically (CUDA does;
/// wgpu where the adapter has the float-atomics feature).
fn adds_atomically(tensor: &CubeTensor) -> bool {
    tensor
        .client
        .properties()
        .atomic_type_usage(Type::atomic(dtype_to_elem_type(tensor.dtype)))
        .contains(AtomicUsage::Add)
}

/// The launch of `units` units in a line on `floats`' device, and the
/// kernels' element types (`floats`' and `indices`').
fn grid(floats: &CubeTensor, indices: &CubeTensor, units: usize) -> (CubeCount, CubeDim, [ElemType; 2]) {
    let cube_dim = CubeDim::new(&floats.client, units);
    let cube_count = calculate_cube_count_elemwise(&floats.client, units, cube_dim);
    (cube_count, cube_dim, [dtype_to_storage_type(floats.dtype), dtype_to_storage_type(indices.dtype)])
}

impl BagBackend for Cube {
    fn bag_sum(table: FloatTensor<Self>, indices: IntTensor<Self>) -> FloatTensor<Self> {
        let (table, indices) = (into_contiguous(table), into_contiguous(indices));
        let (batch, width) = (indices.shape()[0], table.shape()[1]);
        let output =
            empty_device_dtype(table.client.clone(), table.device.clone(), Shape::new([batch, width]), table.dtype);
        let (cube_count, cube_dim, dtypes) = grid(&table, &indices, batch * width);
        // SAFETY: every index the kernel reads is within its tensor: units
        // past the output stop, and the row indices are the caller's
        // (`bag_sum`'s contract: each below the table's rows).
        unsafe {
            bag_sum_kernel::launch_unchecked(
                &output.client,
                cube_count,
                cube_dim,
                table.into_tensor_arg(),
                indices.into_tensor_arg(),
                output.clone().into_tensor_arg(),
                dtypes,
            );
        }
        output
    }

    fn bag_sum_backward(grad: FloatTensor<Self>, indices: IntTensor<Self>, rows: usize) -> FloatTensor<Self> {
        if !adds_atomically(&grad) {
            return scattered::<Self>(grad, indices, rows);
        }
        let (grad, indices) = (into_contiguous(grad), into_contiguous(indices));
        let width = grad.shape()[1];
        let output = zeros_client(grad.client.clone(), grad.device.clone(), Shape::new([rows, width]), grad.dtype);
        let (cube_count, cube_dim, dtypes) = grid(&grad, &indices, indices.shape().num_elements() * width);
        // SAFETY: as `bag_sum`: units past the entries stop, and each row
        // index is below `rows`.
        unsafe {
            bag_grad_kernel::launch_unchecked(
                &output.client,
                cube_count,
                cube_dim,
                grad.into_tensor_arg(),
                indices.into_tensor_arg(),
                output.clone().into_tensor_arg(),
                dtypes,
            );
        }
        output
    }
}

/// Whether the gradient of a bag over `tensor`'s device runs the atomic
/// kernel (else burn's `select_assign`); `None` off the GPU backends.
pub fn atomic_backward(tensor: &burn::tensor::Tensor<2>) -> Option<bool> {
    let primitive = tensor.clone().inner().try_into_primitive::<Cube>().ok()?;
    Some(adds_atomically(&primitive))
}
