//! The AlphaZero reimplementation's network on WebGPU, for MCTS leaves in batches.
//!
//! The worker gathers leaves ([`Engine::gather_leaves`](crate::Engine::gather_leaves)),
//! [`AzGpu::evaluate`] computes their values and policy logits in one
//! submission (a dispatch per layer, `az.wgsl`), and the engine applies them.
//! Inputs and outputs are laid out as core's
//! [`leaf_batch`](deepchess_core::alphazero::leaf_batch) says, the layout of
//! [`Engine::evaluate_leaves_on_cpu`](crate::Engine::evaluate_leaves_on_cpu),
//! the CPU reference the browser test holds it to. The arithmetic is core's
//! in `f32`, summed in another order: the stated tolerance is 1e-4 on a
//! value and 1e-3 on a logit.

use std::rc::Rc;

use deepchess_core::alphazero::conv::SQUARES;
use deepchess_core::alphazero::{AzLayers, AzNet, Conv, PLANES, POLICY_SIZE, outputs_len};
use deepchess_core::arch::AZ_VALUE_HIDDEN;
use wasm_bindgen::prelude::*;
use wgpu::util::DeviceExt;

use crate::gpu::{open_device, readback_buffer, submit_and_read, words};

/// Most leaves in one submission; larger batches are split.
const MAX_BATCH: usize = 256;
/// Output channels per convolution workgroup (two vec4s in the shader).
const OUTS: u32 = 8;

const RELU: u32 = 1;
const RESIDUAL: u32 = 2;
const TANH: u32 = 4;

/// The AlphaZero network on a WebGPU device.
#[wasm_bindgen]
pub struct AzGpu {
    inner: Rc<Tower>,
}

/// One dispatch: a layer with its bind group.
struct Step {
    dense: bool,
    bind_group: wgpu::BindGroup,
    /// Workgroups along x (y is the batch).
    groups: u32,
}

struct Tower {
    device: wgpu::Device,
    queue: wgpu::Queue,
    conv: wgpu::ComputePipeline,
    dense: wgpu::ComputePipeline,
    steps: Vec<Step>,
    planes: wgpu::Buffer,
    values: wgpu::Buffer,
    policy: wgpu::Buffer,
    adapter: String,
}

#[wasm_bindgen]
impl AzGpu {
    /// Copies the network in `weights` (`.dcaz` bytes) to the first WebGPU
    /// adapter. Resolves to `undefined` when there is none, and rejects with
    /// the reason when the device fails.
    pub async fn create(weights: Vec<u8>) -> Result<Option<AzGpu>, JsError> {
        let net = AzNet::from_bytes(&weights).map_err(|e| JsError::new(&e.to_string()))?;
        let tower = Tower::new(&net).await.map_err(|e| JsError::new(&e))?;
        Ok(tower.map(|tower| AzGpu { inner: Rc::new(tower) }))
    }

    /// The adapter's name, as the browser reports it.
    #[wasm_bindgen(getter)]
    pub fn adapter(&self) -> String {
        self.inner.adapter.clone()
    }

    /// Evaluates the positions whose planes are `planes` (`PLANES × 64`
    /// values each); resolves to a `Float32Array` of their values, then
    /// their `[kind][square]` policy logits.
    pub fn evaluate(&self, planes: Vec<f32>) -> js_sys::Promise {
        let tower = Rc::clone(&self.inner);
        wasm_bindgen_futures::future_to_promise(async move {
            let outputs = tower.evaluate(&planes).await.map_err(|e| JsValue::from(JsError::new(&e)))?;
            Ok(js_sys::Float32Array::from(&outputs[..]).into())
        })
    }
}

impl Tower {
    async fn new(net: &AzNet) -> Result<Option<Tower>, String> {
        let Some((device, queue, adapter)) = open_device().await? else { return Ok(None) };
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("alphazero"),
            source: wgpu::ShaderSource::Wgsl(include_str!("az.wgsl").into()),
        });
        let pipeline = |entry| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: None,
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        let (conv, dense) = (pipeline("conv"), pipeline("dense"));
        let layers = net.layers();
        let (params, at) = upload(layers);
        let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("parameters"),
            contents: &params.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>(),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let buffer = |label, floats_per_position: usize, extra: wgpu::BufferUsages| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: (MAX_BATCH * floats_per_position * 4) as u64,
                usage: wgpu::BufferUsages::STORAGE | extra,
                mapped_at_creation: false,
            })
        };
        let width = net.filters() * SQUARES;
        let planes = buffer("planes", PLANES * SQUARES, wgpu::BufferUsages::COPY_DST);
        let x = buffer("x", width, wgpu::BufferUsages::empty());
        let t = buffer("t", width, wgpu::BufferUsages::empty());
        let policy = buffer("policy", POLICY_SIZE, wgpu::BufferUsages::COPY_SRC);
        let value_plane = buffer("value plane", SQUARES, wgpu::BufferUsages::empty());
        let hidden = buffer("hidden", AZ_VALUE_HIDDEN, wgpu::BufferUsages::empty());
        let values = buffer("values", 1, wgpu::BufferUsages::COPY_SRC);

        let mut at = at.into_iter();
        let mut steps = Vec::new();
        let mut step = |dense_layer: bool, shape: [u32; 4], input: &wgpu::Buffer, output: &wgpu::Buffer| {
            let [weights, biases] = at.next().expect("upload places every layer");
            let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("layer"),
                contents: &words(&[shape[0], shape[1], shape[2], shape[3], weights, biases, 0, 0]),
                usage: wgpu::BufferUsages::UNIFORM,
            });
            let (pipeline, parameters) = if dense_layer { (&dense, 1) } else { (&conv, 4) };
            let layout = pipeline.get_bind_group_layout(0);
            let buffers = [(0, &uniform), (parameters, &params), (2, input), (3, output)];
            let entries: Vec<_> = buffers
                .iter()
                .map(|&(binding, b)| wgpu::BindGroupEntry { binding, resource: b.as_entire_binding() })
                .collect();
            let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &layout,
                entries: &entries,
            });
            let groups = if dense_layer { shape[1].div_ceil(64) } else { shape[1].div_ceil(OUTS) };
            steps.push(Step { dense: dense_layer, bind_group, groups });
        };
        let mut convolution = |c: &Conv, flags: u32, input: &wgpu::Buffer, output: &wgpu::Buffer| {
            step(false, [c.inputs as u32, c.outputs as u32, c.size as u32, flags], input, output);
        };
        convolution(&layers.input, RELU, &planes, &x);
        for [first, second] in &layers.tower {
            convolution(first, RELU, &x, &t);
            convolution(second, RELU | RESIDUAL, &t, &x);
        }
        convolution(&layers.policy_conv, RELU, &x, &t);
        convolution(&layers.policy_out, 0, &t, &policy);
        convolution(&layers.value_conv, RELU, &x, &value_plane);
        step(true, [SQUARES as u32, AZ_VALUE_HIDDEN as u32, 0, RELU], &value_plane, &hidden);
        step(true, [AZ_VALUE_HIDDEN as u32, 1, 0, TANH], &hidden, &values);
        if let Some(err) = scope.pop().await {
            return Err(format!("WebGPU: {err}"));
        }
        Ok(Some(Tower { device, queue, conv, dense, steps, planes, values, policy, adapter }))
    }

    /// Outputs for `planes`, in chunks of at most `MAX_BATCH` positions.
    async fn evaluate(&self, planes: &[f32]) -> Result<Vec<f32>, String> {
        let size = PLANES * SQUARES;
        if !planes.len().is_multiple_of(size) {
            return Err(format!("{} plane values are not whole positions of {size}", planes.len()));
        }
        let n = planes.len() / size;
        let mut outputs = vec![0.0; outputs_len(n)];
        let (values, policies) = outputs.split_at_mut(n);
        for (i, chunk) in planes.chunks(MAX_BATCH * size).enumerate() {
            let m = chunk.len() / size;
            let part = self.dispatch(chunk, m).await?;
            let start = i * MAX_BATCH;
            values[start..start + m].copy_from_slice(&part[..m]);
            policies[start * POLICY_SIZE..(start + m) * POLICY_SIZE].copy_from_slice(&part[m..]);
        }
        Ok(outputs)
    }

    /// One submission of `n` positions: their values, then their logits.
    async fn dispatch(&self, planes: &[f32], n: usize) -> Result<Vec<f32>, String> {
        if n == 0 {
            return Ok(Vec::new());
        }
        let device = &self.device;
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        self.queue.write_buffer(&self.planes, 0, &planes.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>());
        let (value_bytes, policy_bytes) = ((n * 4) as u64, (n * POLICY_SIZE * 4) as u64);
        // A read-back buffer of its own, so that calls may overlap.
        let readback = readback_buffer(device, value_bytes + policy_bytes);
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            for step in &self.steps {
                pass.set_pipeline(if step.dense { &self.dense } else { &self.conv });
                pass.set_bind_group(0, &step.bind_group, &[]);
                pass.dispatch_workgroups(step.groups, n as u32, 1);
            }
        }
        encoder.copy_buffer_to_buffer(&self.values, 0, &readback, 0, value_bytes);
        encoder.copy_buffer_to_buffer(&self.policy, 0, &readback, value_bytes, policy_bytes);
        submit_and_read(&self.queue, encoder, scope, &readback, f32::from_le_bytes).await
    }
}

/// The parameters as the shader reads them, and each layer's `[weights,
/// biases]` offsets in the order of the dispatches: every convolution's
/// biases padded to a multiple of 8 channels, then its weights as `[group of
/// 8 outputs][input][tap][8]` (zeros past the last channel), in vec4s; then
/// the dense layers' biases and weights as the file has them, in floats.
fn upload(layers: &AzLayers) -> (Vec<f32>, Vec<[u32; 2]>) {
    let mut params = Vec::new();
    let mut at = Vec::new();
    let outs = OUTS as usize;
    for c in layers.convs() {
        let groups = c.outputs.div_ceil(outs);
        let taps = c.size * c.size;
        let biases = params.len() / 4;
        params.extend((0..groups * outs).map(|o| c.bias.get(o).copied().unwrap_or(0.0)));
        let weights = params.len() / 4;
        for g in 0..groups {
            for i in 0..c.inputs {
                for t in 0..taps {
                    for o in g * outs..(g + 1) * outs {
                        let w = if o < c.outputs { c.weights[(o * c.inputs + i) * taps + t] } else { 0.0 };
                        params.push(w);
                    }
                }
            }
        }
        at.push([weights as u32, biases as u32]);
    }
    for dense in [&layers.value_hidden, &layers.value_out] {
        let biases = params.len();
        params.extend_from_slice(&dense.bias);
        at.push([params.len() as u32, biases as u32]);
        params.extend_from_slice(&dense.weights);
    }
    (params, at)
}
