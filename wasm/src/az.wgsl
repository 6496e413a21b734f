// The AlphaZero reimplementation's network on the GPU, in f32: one dispatch per layer
// (convolution with its batch norm folded in, or dense), as core's AzNet
// computes it (core/src/alphazero/net.rs). Activations are laid out as
// core's: `[position][channel][square]`.
//

struct Layer {
    // inputs, outputs, kernel size (1 or 3; unused by `dense`), flags
    // (1: ReLU, 2: add the output's previous value first, the residual
    // skip; 4: tanh)
    shape: vec4<u32>,
    // weights' offset, biases' offset: in vec4s of `blocks` for `conv`, in
    // floats of `params` for `dense`
    offsets: vec4<u32>,
}

@group(0) @binding(0) var<uniform> layer: Layer;
// The dense layers' biases and weights, as the .dcaz file has them.
@group(0) @binding(1) var<storage, read> params: array<f32>;
@group(0) @binding(2) var<storage, read> input: array<f32>;
@group(0) @binding(3) var<storage, read_write> output: array<f32>;
// The same buffer for `conv`, by vec4s: each convolution's biases padded to
// a multiple of 8 channels, then its weights as [group of 8 outputs][input]
// [tap][8], so that one tap of one input is two vec4 loads for 8 outputs.
@group(0) @binding(4) var<storage, read> blocks: array<vec4<f32>>;

const RELU: u32 = 1u;
const RESIDUAL: u32 = 2u;
const TANH: u32 = 4u;

fn finish(v: f32, flags: u32, at: u32) {
    var x = v;
    if ((flags & RESIDUAL) != 0u) {
        x += output[at];
    }
    if ((flags & RELU) != 0u) {
        x = max(x, 0.0);
    }
    if ((flags & TANH) != 0u) {
        // tanh(±20) is ±1 in f32; larger arguments overflow some tanh's.
        x = tanh(clamp(x, -20.0, 20.0));
    }
    output[at] = x;
}

// Workgroup (g, b): output channels 8g to 8g + 7 of position b, one square
// per invocation, in two vec4 accumulators. No workgroup memory and no
// branches in the inner loop: software adapters such as SwiftShader pay
// for barriers and divergence more than for the reads.
@compute @workgroup_size(64)
fn conv(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) square: u32) {
    let inputs = layer.shape.x;
    let outputs = layer.shape.y;
    let size = i32(layer.shape.z);
    let half = size / 2;
    let b = group.y;
    let rank = i32(square / 8u);
    let file = i32(square % 8u);
    var low = vec4<f32>(0.0);
    var high = vec4<f32>(0.0);
    var w = layer.offsets.x + group.x * inputs * u32(size * size) * 2u;
    for (var i = 0u; i < inputs; i++) {
        let plane = (b * inputs + i) * 64u;
        for (var dy = -half; dy <= half; dy++) {
            for (var dx = -half; dx <= half; dx++) {
                let r = rank + dy;
                let f = file + dx;
                let inside = r >= 0 && r < 8 && f >= 0 && f < 8;
                let x = select(0.0, input[plane + u32(clamp(r, 0, 7) * 8 + clamp(f, 0, 7))], inside);
                low += blocks[w] * x;
                high += blocks[w + 1u] * x;
                w += 2u;
            }
        }
    }
    low += blocks[layer.offsets.y + group.x * 2u];
    high += blocks[layer.offsets.y + group.x * 2u + 1u];
    let values = array<f32, 8>(low.x, low.y, low.z, low.w, high.x, high.y, high.z, high.w);
    let first = group.x * 8u;
    for (var o = 0u; o < 8u; o++) {
        if (first + o < outputs) {
            finish(values[o], layer.shape.w, (b * outputs + first + o) * 64u + square);
        }
    }
}

// Workgroup (g, b): outputs 64 · g onwards of position b, one per invocation.
@compute @workgroup_size(64)
fn dense(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) lane: u32) {
    let inputs = layer.shape.x;
    let outputs = layer.shape.y;
    let b = group.y;
    let o = group.x * 64u + lane;
    if (o >= outputs) {
        return;
    }
    var sum = 0.0;
    for (var i = 0u; i < inputs; i++) {
        sum += params[layer.offsets.x + o * inputs + i] * input[b * inputs + i];
    }
    finish(sum + params[layer.offsets.y + o], layer.shape.w, b * outputs + o);
}
