//! The Siamese network in burn: a Pos2Vec tower applied to two positions,
//! and a comparator head on their concatenated features.

use burn::module::Module;
use burn::nn::{Linear, LinearConfig};
use burn::tensor::{Device, Tensor};
use deepchess_core::arch::{INPUTS, MAX_HIDDEN_WEIGHT};
use deepchess_core::{FloatLayer, FloatNetwork, Shape};

use crate::train::runner::tensors::{Positions, bag_sums, crelu, tensor_values};

/// DeepChess: tower (Pos2Vec) and head (comparator).
#[derive(Module, Debug)]
pub struct Siamese {
    /// The sparse first layer: `[774, h]`, one row per input bit plus the
    /// padding row.
    first: Linear,
    /// The rest of the tower.
    tower: Vec<Linear>,
    /// The head; the last layer gives the two logits.
    head: Vec<Linear>,
}

impl Siamese {
    /// A freshly initialized network of `shape`.
    pub fn new(shape: &Shape, device: &Device) -> Siamese {
        let tower = shape.tower();
        let first = LinearConfig::new(INPUTS + 1, tower[1]).init(device);
        let layers = |widths: &[usize]| widths.windows(2).map(|w| LinearConfig::new(w[0], w[1]).init(device)).collect();
        // A perspective network's first dense layer reads twice the first layer's width.
        let dense = shape.dense_layers().into_iter();
        let tower = dense.map(|(inputs, outputs)| LinearConfig::new(inputs, outputs).init(device)).collect();
        Siamese { first, tower, head: layers(shape.head()) }
    }

    /// Pos2Vec: `[batch, 37]` bits to `[batch, embedding]` features.
    ///
    /// The first layer is an embedding bag: the weight rows of the active
    /// bits are gathered and summed, which is what a dense product with the
    /// 773-bit vector computes, at under 5% of the cost.
    pub fn embed(&self, positions: &Positions) -> Tensor<2> {
        self.rest(crelu(self.first_sums(positions))) // [batch, h] to [batch, embedding]
    }

    /// The tower after its first layer, on that layer's activations.
    pub fn rest(&self, mut x: Tensor<2>) -> Tensor<2> {
        for layer in &self.tower {
            x = crelu(layer.forward(x));
        }
        x
    }

    /// The first layer before its activation: `[batch, 37]` bits to
    /// `[batch, h]` sums, gathering and adding one weight row per active bit.
    pub fn first_sums(&self, positions: &Positions) -> Tensor<2> {
        bag_sums(&self.first, positions)
    }

    /// The first `layers` layers of the tower (1 = the first layer alone),
    /// activated: the codes that the next layer of a stacked autoencoder
    /// reads.
    pub fn codes(&self, positions: &Positions, layers: usize) -> Tensor<2> {
        let mut x = crelu(self.first_sums(positions));
        for layer in self.tower.iter().take(layers.saturating_sub(1)) {
            x = crelu(layer.forward(x));
        }
        x
    }

    /// Tower layer `k` (0 is the sparse first layer).
    pub fn tower_layer(&self, k: usize) -> &Linear {
        if k == 0 { &self.first } else { &self.tower[k - 1] }
    }

    /// The network with tower layer `k` replaced (by a pretrained one).
    pub fn with_tower_layer(mut self, k: usize, layer: Linear) -> Siamese {
        if k == 0 {
            self.first = layer;
        } else {
            self.tower[k - 1] = layer;
        }
        self
    }

    /// The first layer's bias, `[h]`.
    pub fn first_bias(&self) -> Tensor<1> {
        self.first.bias.as_ref().expect("layers have biases").val()
    }

    /// The first layer's weight, `[774, h]` (the last row is the padding row).
    pub fn first_weight(&self) -> Tensor<2> {
        self.first.weight.val()
    }

    /// The head on two embeddings: `[batch, e]` twice to `[batch, 2]` logits.
    pub fn compare(&self, a: Tensor<2>, b: Tensor<2>) -> Tensor<2> {
        let mut x = Tensor::cat(vec![a, b], 1); // [batch, 2e]
        let (last, hidden) = self.head.split_last().expect("a head has layers");
        for layer in hidden {
            x = crelu(layer.forward(x));
        }
        last.forward(x) // [batch, 2]
    }

    /// Logits for pairs (`a`, `b`): class 0 means `a` is better for White.
    ///
    /// Both sides go through the tower as one batch: half the operations,
    /// and products twice as tall, which the CPU runs faster.
    pub fn forward(&self, a: &Positions, b: &Positions) -> Tensor<2> {
        let both = self.embed(&a.concat(b)); // [2 * batch, e]
        let [first, second] = <[Tensor<2>; 2]>::try_from(both.chunk(2, 0)).expect("two equal halves");
        self.compare(first, second)
    }

    /// Clips every hidden weight to what an `i8` represents after
    /// quantization (±127/64), as NNUE trainers do.
    pub fn clip(self) -> Siamese {
        Siamese {
            first: self.first,
            tower: self.tower.into_iter().map(clip).collect(),
            head: self.head.into_iter().map(clip).collect(),
        }
    }

    /// The network with its last head layer's second output held at zero
    /// (its weights and bias), so that the logits are `(z, 0)` and their
    /// softmax is the logistic `σ(z)`: a head with one output, which the
    /// paper's two are compared with. The engine reads it as any two-output
    /// head.
    pub fn with_one_output(mut self) -> Siamese {
        let last = self.head.pop().expect("a head has layers");
        self.head.push(Linear {
            weight: last.weight.map(|w| {
                let [inputs, _] = w.dims();
                w.slice_fill([0..inputs, 1..2], 0.0).detach().require_grad()
            }),
            bias: last.bias.map(|b| b.map(|b| b.slice_fill(1..2, 0.0).detach().require_grad())),
        });
        self
    }

    /// Tower widths, from 773 to the embedding.
    pub fn tower_widths(&self) -> Vec<usize> {
        let mut tower = vec![INPUTS];
        tower.extend(std::iter::once(&self.first).chain(&self.tower).map(|l| l.weight.val().dims()[1]));
        tower
    }

    /// The layer sizes (of a network with a comparison head).
    pub fn shape(&self) -> Shape {
        let head = std::iter::once(self.head[0].weight.val().dims()[0])
            .chain(self.head.iter().map(|l| l.weight.val().dims()[1]))
            .collect::<Vec<_>>();
        Shape::new(&self.tower_widths(), &head).expect("built from a valid shape")
    }

    /// Copies the tower and the comparison head into `net` (of the same
    /// sizes).
    pub fn copy_into(&self, net: &mut FloatNetwork) {
        let tower = std::iter::once(&self.first).chain(&self.tower);
        for (float, layer) in net.tower_mut().iter_mut().zip(tower) {
            copy_layer(layer, float);
        }
        for (float, layer) in net.head_mut().iter_mut().zip(&self.head) {
            copy_layer(layer, float);
        }
    }

    /// The same network as core's float reference (for export and checks).
    pub fn to_float(&self) -> FloatNetwork {
        let mut net = FloatNetwork::zeros(&self.shape());
        self.copy_into(&mut net);
        net
    }
}

/// Clips a hidden layer's weights to what an `i8` represents after
/// quantization (±127/64), as NNUE trainers do.
pub fn clip(layer: Linear) -> Linear {
    Linear {
        weight: layer.weight.map(|w| w.clamp(-MAX_HIDDEN_WEIGHT, MAX_HIDDEN_WEIGHT).detach().require_grad()),
        bias: layer.bias,
    }
}

/// Copies a burn layer (weight `[in, out]`, row-major; the first layer has
/// one more input row, the padding row, which is dropped) into a float layer
/// (`out` rows of `in`).
pub fn copy_layer(layer: &Linear, float: &mut FloatLayer) {
    let weight = tensor_values(layer.weight.val());
    let (inputs, outputs) = (float.inputs(), float.outputs());
    for (o, row) in float.weights_mut().chunks_exact_mut(inputs).enumerate() {
        for (i, w) in row.iter_mut().enumerate() {
            *w = weight[i * outputs + o];
        }
    }
    let bias = tensor_values(layer.bias.as_ref().expect("layers have biases").val());
    float.bias_mut().copy_from_slice(&bias);
}
