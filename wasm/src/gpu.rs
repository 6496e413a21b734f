//! Batched Pos2Vec embeddings on WebGPU, through wgpu's WebGPU backend.
//!
//! The shader (`tower.wgsl`) computes the quantized tower with the same
//! integer arithmetic as core's scalar oracle (the first layer's clipped ReLU
//! squared where the network's is), so its embeddings equal the
//! CPU's exactly: the stated tolerance is zero, and the browser test checks
//! it. Head comparisons stay on the CPU: alpha-beta asks for them one pair
//! at a time, where a GPU round trip costs far more than the 0.5 µs that a
//! comparison takes.
//!
//! [`Gpu::create`] resolves to `undefined` where the browser has no WebGPU
//! adapter, and the worker then stays on the CPU path without a word.

use std::rc::Rc;
use std::sync::Arc;

use deepchess_core::arch::{
    ACT_MAX, Activation, INPUTS, MAX_ACTIVE, MAX_EMBEDDING, MAX_LAYERS, SCRELU_MUL, WEIGHT_SCALE_BITS, padded,
};
use deepchess_core::{Network, WeightsError};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wgpu::util::DeviceExt;

use crate::batch::Batch;

/// Most positions in one dispatch; larger batches are split.
const CHUNK: usize = 16_384;
/// Workgroups along x; the rest go along y.
const GROUPS_X: usize = 4096;

/// A network's tower on a WebGPU device.
#[wasm_bindgen]
pub struct Gpu {
    inner: Rc<Tower>,
}

struct Tower {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::ComputePipeline,
    weights: wgpu::Buffer,
    biases: wgpu::Buffer,
    /// The uniform `Params` without the batch size (set per dispatch).
    params: [u32; 4 + 4 * MAX_LAYERS],
    embedding: usize,
    adapter: String,
}

#[wasm_bindgen]
impl Gpu {
    /// Copies the network in `weights` (`.dcnn` bytes) to the first WebGPU
    /// adapter. Resolves to `undefined` when there is none, and rejects with
    /// the reason when the device fails.
    pub async fn create(weights: Vec<u8>) -> Result<Option<Gpu>, JsError> {
        let net = Network::from_bytes(&weights).map_err(|e: WeightsError| JsError::new(&e.to_string()))?;
        let tower = Tower::new(&net).await.map_err(|e| JsError::new(&e))?;
        Ok(tower.map(|tower| Gpu { inner: Rc::new(tower) }))
    }

    /// The adapter's name, as the browser reports it.
    #[wasm_bindgen(getter)]
    pub fn adapter(&self) -> String {
        self.inner.adapter.clone()
    }

    /// Embeds every entry of `batch`; resolves to `MAX_EMBEDDING` bytes per
    /// entry, the layout of [`Engine::embed_on_cpu`](crate::Engine::embed_on_cpu).
    pub fn embed(&self, batch: &Batch) -> js_sys::Promise {
        let tower = Rc::clone(&self.inner);
        let active = batch.active();
        wasm_bindgen_futures::future_to_promise(async move {
            let bytes = tower.embed(&active).await.map_err(|e| JsValue::from(JsError::new(&e)))?;
            Ok(js_sys::Uint8Array::from(&bytes[..]).into())
        })
    }
}

impl Tower {
    async fn new(net: &Network) -> Result<Option<Tower>, String> {
        let Some((device, queue, adapter_name)) = open_device().await? else { return Ok(None) };
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let (weights, biases, params) = upload(net).ok_or("WebGPU: the tower has too many layers")?;
        let source = format!(
            "const MAX_ACTIVE: u32 = {MAX_ACTIVE}u;\nconst ACT_MAX: i32 = {ACT_MAX};\n\
             const SHIFT: u32 = {WEIGHT_SCALE_BITS}u;\nconst HALF: i32 = {};\n\
             const SCRELU_MUL: i32 = {SCRELU_MUL};\nconst SQUARED: bool = {};\n{}",
            1 << (WEIGHT_SCALE_BITS - 1),
            net.shape().activation() == Activation::SquaredClippedRelu,
            include_str!("tower.wgsl")
        );
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("tower"),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("tower"),
            layout: None,
            module: &module,
            entry_point: Some("embed"),
            compilation_options: Default::default(),
            cache: None,
        });
        let storage = |label, contents: &[i32]| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: &contents.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>(),
                usage: wgpu::BufferUsages::STORAGE,
            })
        };
        let weights = storage("weights", &weights);
        let biases = storage("biases", &biases);
        if let Some(err) = scope.pop().await {
            return Err(format!("WebGPU: {err}"));
        }
        let embedding = net.shape().embedding();
        Ok(Some(Tower { device, queue, pipeline, weights, biases, params, embedding, adapter: adapter_name }))
    }

    /// `active`: `MAX_ACTIVE` indices per entry. Returns `MAX_EMBEDDING`
    /// bytes per entry.
    async fn embed(&self, active: &[i32]) -> Result<Vec<u8>, String> {
        let mut out = Vec::with_capacity(active.len() / MAX_ACTIVE * MAX_EMBEDDING);
        for chunk in active.chunks(CHUNK * MAX_ACTIVE) {
            let values = self.dispatch(chunk).await?;
            for row in values.chunks_exact(self.embedding) {
                out.extend(row.iter().map(|&v| v as u8));
                out.extend(std::iter::repeat_n(0, MAX_EMBEDDING - self.embedding));
            }
        }
        Ok(out)
    }

    async fn dispatch(&self, active: &[i32]) -> Result<Vec<u32>, String> {
        let n = active.len() / MAX_ACTIVE;
        let device = &self.device;
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut params = self.params;
        params[3] = n as u32;
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("params"),
            contents: &words(&params),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let active = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("active"),
            contents: &active.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>(),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let size = (n * self.embedding * 4) as u64;
        let output = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("embeddings"),
            size,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let readback = readback_buffer(device, size);
        let layout = self.pipeline.get_bind_group_layout(0);
        let buffers = [&uniform, &self.weights, &self.biases, &active, &output];
        let entries: Vec<_> = buffers
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry { binding: i as u32, resource: b.as_entire_binding() })
            .collect();
        let bind_group =
            device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout: &layout, entries: &entries });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            let x = n.clamp(1, GROUPS_X);
            pass.dispatch_workgroups(x as u32, n.div_ceil(x) as u32, 1);
        }
        encoder.copy_buffer_to_buffer(&output, 0, &readback, 0, size);
        submit_and_read(&self.queue, encoder, scope, &readback, u32::from_le_bytes).await
    }
}

/// The first WebGPU adapter's device, its queue and the adapter's name;
/// `None` where the browser has no adapter.
pub(crate) async fn open_device() -> Result<Option<(wgpu::Device, wgpu::Queue, String)>, String> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::BROWSER_WEBGPU,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let Ok(adapter) = instance.request_adapter(&wgpu::RequestAdapterOptions::default()).await else {
        return Ok(None);
    };
    let name = adapter.get_info().name;
    let descriptor = wgpu::DeviceDescriptor { label: Some("deepchess"), ..Default::default() };
    let (device, queue) = adapter.request_device(&descriptor).await.map_err(|e| format!("WebGPU device: {e}"))?;
    // Errors are caught by error scopes and by the map results; wgpu's
    // default handler would panic, which kills the worker.
    device.on_uncaptured_error(Arc::new(|_| {}));
    Ok(Some((device, queue, name)))
}

/// The network's parameters as the shader reads them: all weights, all
/// biases (as i32, unpadded), and the layer table.
fn upload(net: &Network) -> Option<(Vec<i32>, Vec<i32>, [u32; 4 + 4 * MAX_LAYERS])> {
    let ft = net.feature_transformer();
    let width = ft.outputs();
    let tower = net.tower();
    if tower.len() > MAX_LAYERS {
        return None;
    }
    let mut weights: Vec<i32> = Vec::new();
    for row in ft.weights().chunks_exact(padded(width)).take(INPUTS) {
        weights.extend(row[..width].iter().map(|&w| i32::from(w)));
    }
    let mut biases: Vec<i32> = ft.bias()[..width].iter().map(|&b| i32::from(b)).collect();
    let mut params = [0u32; 4 + 4 * MAX_LAYERS];
    params[0] = tower.len() as u32;
    params[1] = width as u32;
    params[2] = net.shape().embedding() as u32;
    for (l, layer) in tower.iter().enumerate() {
        let entry = [layer.inputs(), layer.outputs(), weights.len(), biases.len()];
        for (slot, value) in params[4 + 4 * l..8 + 4 * l].iter_mut().zip(entry) {
            *slot = value as u32;
        }
        for row in layer.weights().chunks_exact(padded(layer.inputs())) {
            weights.extend(row[..layer.inputs()].iter().map(|&w| i32::from(w)));
        }
        biases.extend_from_slice(layer.bias());
    }
    Some((weights, biases, params))
}

pub(crate) fn words(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A buffer for results to be copied into and read back.
pub(crate) fn readback_buffer(device: &wgpu::Device, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Submits `encoder`, fails with what `scope` caught, and reads `readback`
/// back, four bytes to a value through `from_le_bytes`.
pub(crate) async fn submit_and_read<T>(
    queue: &wgpu::Queue,
    encoder: wgpu::CommandEncoder,
    scope: wgpu::ErrorScopeGuard,
    readback: &wgpu::Buffer,
    from_le_bytes: fn([u8; 4]) -> T,
) -> Result<Vec<T>, String> {
    queue.submit([encoder.finish()]);
    if let Some(err) = scope.pop().await {
        return Err(format!("WebGPU: {err}"));
    }
    map_read(readback).await?;
    let values = {
        let view = readback.get_mapped_range(..).map_err(|e| format!("WebGPU: {e:?}"))?;
        view.chunks_exact(4).map(|b| from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
    };
    readback.unmap();
    Ok(values)
}

/// Maps `buffer` for reading and waits for the browser to finish.
async fn map_read(buffer: &wgpu::Buffer) -> Result<(), String> {
    let mut resolve = None;
    let promise = js_sys::Promise::new(&mut |res, _| resolve = Some(res));
    let resolve = resolve.ok_or("WebGPU: no promise")?;
    buffer.map_async(wgpu::MapMode::Read, .., move |result| {
        let _ = resolve.call1(&JsValue::NULL, &JsValue::from_bool(result.is_ok()));
    });
    match JsFuture::from(promise).await.map(|v| v.as_bool()) {
        Ok(Some(true)) => Ok(()),
        _ => Err("WebGPU: cannot read the results back".to_string()),
    }
}
