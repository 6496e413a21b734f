//! Data-parallel training across the ranks of [`crate::cluster`]: what the
//! epoch runner calls so that several processes train one model.
//!
//! Every rank draws the same items in the same order (the learners' epochs
//! are seeded), takes its share of each batch ([`crate::cluster::share`]),
//! and computes the gradient of its share's mean loss. [`all_reduce`] sums
//! the gradients over the ranks, each weighted by its share of the batch, so
//! that every rank holds the gradient of the whole batch's mean loss, and
//! every rank applies the same optimizer step: the ranks' weights stay
//! identical, and N ranks train as one process with the same batch would
//! (up to the order of float additions). Rank 0's weights and optimizer
//! state reach the others at the start ([`sync_module`], [`sync_optimizer`])
//! and its weights again after every epoch, so that a resumed run may have
//! any number of ranks and non-root ranks need no copy of the run directory.
//!
//! What is sent per step: one `MPI_Allreduce` of every parameter's gradient
//! as f32 (4 bytes a parameter; the 773-256-32 value network: 0.8 MB), a
//! presence flag per parameter and the share's loss and correct count.
//!
//! Not shared: batch normalization (the AlphaZero network's) normalizes over
//! each rank's share, as PyTorch's DDP does without `SyncBatchNorm`, and its
//! running statistics are rank 0's.

use burn::module::{Module, ModuleMapper, ModuleVisitor, Param};
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::tensor::{Device, Tensor, TensorData};

use crate::cluster;
use crate::train::runner::run_dir::RunDir;
use crate::train::runner::tensors::tensor_values;

/// Rank 0's parameter values in `module` on every rank (a no-op alone).
pub fn sync_module<M: Module>(module: M) -> M {
    if cluster::size() == 1 {
        return module;
    }
    struct FromRoot;
    impl ModuleMapper for FromRoot {
        fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
            param.map(|tensor| {
                let (device, shape, grad) = (tensor.device(), tensor.shape(), tensor.is_require_grad());
                let values = tensor_values(tensor.detach());
                let bytes = cluster::broadcast(bytemuck::cast_slice(&values).to_vec());
                let values: Vec<f32> = bytemuck::pod_collect_to_vec(&bytes);
                let synced = Tensor::<D>::from_data(TensorData::new(values, shape), &device);
                if grad { synced.require_grad() } else { synced }
            })
        }
    }
    module.map(&mut FromRoot)
}

/// Rank 0's optimizer state on every rank: rank 0 reads `name` from `run`
/// (a checkpoint's optimizer), the others receive its bytes and load them
/// from a copy in the temporary directory.
pub fn sync_optimizer(run: &RunDir, name: &str, optim: ModuleOptimizer) -> anyhow::Result<ModuleOptimizer> {
    if cluster::size() == 1 {
        return run.load_optimizer(name, optim);
    }
    let path = run.path(&format!("{name}.bpk"));
    let bytes = cluster::broadcast(if cluster::is_root() { std::fs::read(path)? } else { Vec::new() });
    if cluster::is_root() {
        return run.load_optimizer(name, optim);
    }
    let copy = format!("deepchess-{name}-{}", std::process::id());
    let temp = RunDir::elsewhere(&std::env::temp_dir());
    std::fs::write(temp.path(&format!("{copy}.bpk")), bytes)?;
    let loaded = temp.load_optimizer(&copy, optim);
    let _ = std::fs::remove_file(temp.path(&format!("{copy}.bpk")));
    loaded
}

/// The parameters' order, shapes and this rank's weighted gradients, read by
/// one pass over the module.
struct Gather<'a> {
    grads: Option<&'a GradientsParams>,
    weight: f32,
    values: Vec<f32>,
    present: Vec<f32>,
}

impl ModuleVisitor for Gather<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let len = param.val().shape().num_elements();
        match self.grads.and_then(|grads| grads.get::<D>(param.id)) {
            Some(grad) => {
                self.values.extend(tensor_values(grad).into_iter().map(|g| g * self.weight));
                self.present.push(1.0);
            }
            None => {
                self.values.extend(std::iter::repeat_n(0.0, len));
                self.present.push(0.0);
            }
        }
    }
}

/// Registers the summed gradients, in the order [`Gather`] read them.
struct Scatter<'a> {
    values: &'a [f32],
    present: &'a [f32],
    at: usize,
    index: usize,
    grads: GradientsParams,
}

impl ModuleVisitor for Scatter<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let value = param.val();
        let shape = value.shape();
        let len = shape.num_elements();
        let slice = &self.values[self.at..self.at + len];
        if self.present[self.index] > 0.0 {
            let device: Device = value.device().inner();
            self.grads.register::<D>(param.id, Tensor::<D>::from_data(TensorData::new(slice.to_vec(), shape), &device));
        }
        self.at += len;
        self.index += 1;
    }
}

/// The whole batch's gradient on every rank: each rank's `grads` (None for
/// a rank whose share of the batch is empty) times `weight` (its share's
/// fraction of the batch), summed over the ranks; `stats` (a share's loss
/// sum, correct count, …) summed alongside. Alone: `grads` unchanged.
pub fn all_reduce<M: Module>(
    model: &M,
    grads: Option<GradientsParams>,
    weight: f32,
    stats: &mut [f32],
) -> GradientsParams {
    if cluster::size() == 1 {
        return grads.unwrap_or_default();
    }
    let mut gather = Gather { grads: grads.as_ref(), weight, values: Vec::new(), present: Vec::new() };
    model.visit(&mut gather);
    let (params, flags) = (gather.values.len(), gather.present.len());
    let mut buffer = gather.values;
    buffer.extend_from_slice(&gather.present);
    buffer.extend_from_slice(stats);
    cluster::all_reduce_sum(&mut buffer);
    stats.copy_from_slice(&buffer[params + flags..]);
    let mut scatter = Scatter {
        values: &buffer[..params],
        present: &buffer[params..params + flags],
        at: 0,
        index: 0,
        grads: GradientsParams::new(),
    };
    model.visit(&mut scatter);
    scatter.grads
}
