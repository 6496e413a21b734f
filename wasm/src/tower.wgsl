// Pos2Vec on the GPU: the quantized tower, bit for bit as core's scalar
// oracle computes it. One workgroup per position.
//
// The Rust side prepends the constants MAX_ACTIVE, ACT_MAX, SHIFT, HALF and
// SCRELU_MUL from core's arch module, so that there is one source for them,
// and SQUARED, whether the network's first layer is the squared clipped ReLU.

struct Params {
    // layers, feature-transformer width, embedding width, batch size
    head: vec4<u32>,
    // per dense layer: inputs, outputs, weight offset, bias offset
    layers: array<vec4<u32>, 8>,
}

@group(0) @binding(0) var<uniform> params: Params;
// The feature transformer's rows (773 × width, as i32), then each dense
// layer's rows (outputs × inputs, unpadded).
@group(0) @binding(1) var<storage, read> weights: array<i32>;
// The feature transformer's biases, then each dense layer's.
@group(0) @binding(2) var<storage, read> biases: array<i32>;
// MAX_ACTIVE input indices per position, -1 past the last.
@group(0) @binding(3) var<storage, read> inputs: array<i32>;
// The embedding width's values per position.
@group(0) @binding(4) var<storage, read_write> embeddings: array<u32>;

const THREADS: u32 = 64u;
var<workgroup> act: array<i32, 1024>;
var<workgroup> next: array<i32, 1024>;

@compute @workgroup_size(64)
fn embed(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let position = group.x + group.y * groups.x;
    let live = position < params.head.w;
    let width = params.head.y;

    // First layer: bias plus one row per active input, wrapped to i16 as the
    // CPU's incremental i16 sums are, then the clipped ReLU, squared as
    // (c² · SCRELU_MUL + 2¹⁴) >> 15 where the network says so.
    for (var o = lane; o < width; o += THREADS) {
        var sum = biases[o];
        if live {
            for (var k = 0u; k < MAX_ACTIVE; k++) {
                let index = inputs[position * MAX_ACTIVE + k];
                if index < 0 {
                    break;
                }
                sum += weights[u32(index) * width + o];
            }
        }
        sum = (sum << 16u) >> 16u;
        let clipped = clamp(sum, 0, ACT_MAX);
        if SQUARED {
            act[o] = (clipped * clipped * SCRELU_MUL + (1 << 14u)) >> 15u;
        } else {
            act[o] = clipped;
        }
    }
    workgroupBarrier();

    // Dense layers: i32 sums of u8 × i8 (wrapping adds), then
    // clamp((sum + HALF) >> SHIFT, 0, ACT_MAX).
    for (var l = 0u; l < params.head.x; l++) {
        let layer = params.layers[l];
        for (var o = lane; o < layer.y; o += THREADS) {
            var sum = 0;
            let row = layer.z + o * layer.x;
            for (var i = 0u; i < layer.x; i++) {
                sum += act[i] * weights[row + i];
            }
            sum = biases[layer.w + o] + sum;
            next[o] = clamp((sum + HALF) >> SHIFT, 0, ACT_MAX);
        }
        workgroupBarrier();
        for (var o = lane; o < layer.y; o += THREADS) {
            act[o] = next[o];
        }
        workgroupBarrier();
    }

    if live {
        let emb = params.head.z;
        for (var o = lane; o < emb; o += THREADS) {
            embeddings[position * emb + o] = u32(act[o]);
        }
    }
}
