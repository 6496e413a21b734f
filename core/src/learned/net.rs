//! A learner's network in `f32` and its file format (`.dcsn`).
//!
//! All integers and floats are little-endian.
//!
//! | field | type |
//! |---|---|
//! | magic | `b"DCSN"` ([`LEARNED_MAGIC`]) |
//! | format version | `u32` ([`LEARNED_VERSION`]) |
//! | architecture hash | `u32`, [`learned_arch_hash`] of the words below up to the class count |
//! | input encoding | `u32` ([`InputKind::code`]) |
//! | layers | `u32` count, then per layer `u32` outputs and `u32` activation code |
//! | output | `u32` ([`OutputKind`] code), `u32` class count, `f32` value of each class |
//! | centipawns per unit of value | `f32` |
//! | description | `u32` length, then UTF-8 (at most 4,096 bytes) |
//! | each layer | bias `f32[out]`, then weights `f32[out][in]` |

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use shakmaty::{Chess, Color, Position};

use crate::arch::{MAX_EVAL_CP, MAX_LAYERS, MAX_LEARNED_WIDTH, learned_arch_hash, padded};
use crate::file::{
    FileHeader, FloatParams, Format, Params, Reader, WeightsError, is_valid_cp_scale, read_params, write_description,
    write_params, write_u32,
};
use crate::kernels::{self, Kernel};
use crate::learned::inputs::InputKind;

/// The first four bytes of a learner's network file.
pub const LEARNED_MAGIC: [u8; 4] = *b"DCSN";

/// The `.dcsn` format version this build reads and writes.
pub const LEARNED_VERSION: u32 = 1;

/// The `.dcsn` format.
pub const LEARNED_FORMAT: Format = Format { magic: LEARNED_MAGIC, oldest: LEARNED_VERSION, newest: LEARNED_VERSION };

/// A hidden layer's activation (the last layer's is [`Activation::Identity`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Activation {
    /// None.
    Identity,
    /// `max(x, 0)`.
    Relu,
    /// `1 / (1 + e^−x)`.
    Sigmoid,
    /// `tanh x`.
    Tanh,
}

impl Activation {
    const ALL: [Activation; 4] = [Activation::Identity, Activation::Relu, Activation::Sigmoid, Activation::Tanh];

    /// Its code in a file.
    pub const fn code(self) -> u32 {
        match self {
            Activation::Identity => 0,
            Activation::Relu => 1,
            Activation::Sigmoid => 2,
            Activation::Tanh => 3,
        }
    }

    fn apply(self, values: &mut [f32]) {
        match self {
            Activation::Identity => {}
            Activation::Relu => values.iter_mut().for_each(|v| *v = v.max(0.0)),
            Activation::Sigmoid => values.iter_mut().for_each(|v| *v = 1.0 / (1.0 + libm::expf(-*v))),
            Activation::Tanh => values.iter_mut().for_each(|v| *v = libm::tanhf(*v)),
        }
    }
}

/// How the last layer's outputs become one value.
#[derive(Clone, Debug, PartialEq)]
pub enum OutputKind {
    /// One output, the value itself (Deep Pink, NeuroChess).
    Linear,
    /// One output through `tanh` (a regression onto evaluations scaled to ±1).
    Tanh,
    /// A softmax over classes, each with a value: the value is the expected
    /// one (win/draw/loss as 1, 0, −1; or quantized evaluations).
    Classes(Vec<f32>),
}

impl OutputKind {
    /// Its code in a file.
    pub const fn code(&self) -> u32 {
        match self {
            OutputKind::Linear => 0,
            OutputKind::Tanh => 1,
            OutputKind::Classes(_) => 2,
        }
    }

    /// Outputs of the last layer.
    pub fn outputs(&self) -> usize {
        match self {
            OutputKind::Linear | OutputKind::Tanh => 1,
            OutputKind::Classes(values) => values.len(),
        }
    }

    /// The value of the last layer's `outputs`.
    pub fn value(&self, outputs: &[f32]) -> f32 {
        match self {
            OutputKind::Linear => outputs[0],
            OutputKind::Tanh => libm::tanhf(outputs[0]),
            OutputKind::Classes(values) => {
                let max = outputs.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let weights: Vec<f32> = outputs.iter().map(|&o| libm::expf(o - max)).collect();
                let total: f32 = weights.iter().sum();
                weights.iter().zip(values).map(|(w, v)| w * v).sum::<f32>() / total
            }
        }
    }
}

/// One layer as a file stores it: `weights[o * inputs + i]`.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnedLayer {
    /// Inputs.
    pub inputs: usize,
    /// Outputs.
    pub outputs: usize,
    /// Activation after it.
    pub activation: Activation,
    /// `outputs` biases.
    pub bias: Vec<f32>,
    /// `outputs × inputs` weights, row-major.
    pub weights: Vec<f32>,
}

impl FloatParams for LearnedLayer {
    fn params(&self) -> Params<'_> {
        Params { fan_in: self.inputs, outputs: self.outputs, bias: &self.bias, weights: &self.weights }
    }
}

impl LearnedLayer {
    /// A layer of zeros.
    pub fn zeros(inputs: usize, outputs: usize, activation: Activation) -> LearnedLayer {
        LearnedLayer { inputs, outputs, activation, bias: vec![0.0; outputs], weights: vec![0.0; inputs * outputs] }
    }
}

/// A learner's network: an input encoding, layers, an output, a centipawn scale.
#[derive(Clone, Debug)]
pub struct LearnedNet {
    input: InputKind,
    layers: Vec<LearnedLayer>,
    output: OutputKind,
    cp_scale: f32,
    /// What it was trained on, and how.
    pub description: String,
    kernel: Kernel,
    /// The first layer by input: `inputs` rows of its padded width.
    first_rows: Vec<f32>,
    /// The other layers' weights with each row padded to its padded inputs.
    padded: Vec<Vec<f32>>,
}

/// A centipawn scale a file can hold, or the error that says it cannot.
fn check_cp_scale(cp_scale: f32) -> Result<(), WeightsError> {
    if is_valid_cp_scale(cp_scale) {
        Ok(())
    } else {
        Err(WeightsError::BadLearned { reason: "the centipawn scale must be a positive number up to 100000" })
    }
}

impl LearnedNet {
    /// A network from its parts; an error if they do not fit together.
    pub fn new(
        input: InputKind,
        layers: Vec<LearnedLayer>,
        output: OutputKind,
        cp_scale: f32,
        description: String,
    ) -> Result<LearnedNet, WeightsError> {
        let bad = |reason| Err(WeightsError::BadLearned { reason });
        if layers.is_empty() || layers.len() > MAX_LAYERS {
            return bad("between 1 and 8 layers");
        }
        let mut width = input.inputs();
        for layer in &layers {
            if layer.inputs != width {
                return bad("a layer's inputs differ from the previous layer's outputs");
            }
            if layer.outputs == 0 || layer.outputs > MAX_LEARNED_WIDTH {
                return bad("a layer is empty or wider than 4096");
            }
            if !layer.is_well_formed() {
                return bad("a layer's tensors do not have its sizes, or a weight is not a finite number");
            }
            width = layer.outputs;
        }
        let last = layers.last().expect("checked above");
        if last.activation != Activation::Identity || last.outputs != output.outputs() {
            return bad("the last layer must be linear, with the output's width");
        }
        if let OutputKind::Classes(values) = &output
            && (values.len() < 2 || values.iter().any(|v| !v.is_finite()))
        {
            return bad("a class output needs at least two finite class values");
        }
        check_cp_scale(cp_scale)?;
        let first = &layers[0];
        let width = padded(first.outputs);
        let mut first_rows = vec![0.0; first.inputs * width];
        for (o, row) in first.weights.chunks_exact(first.inputs).enumerate() {
            for (i, &w) in row.iter().enumerate() {
                first_rows[i * width + o] = w;
            }
        }
        let padded = layers[1..]
            .iter()
            .map(|layer| {
                let stride = padded(layer.inputs);
                let mut rows = vec![0.0; stride * layer.outputs];
                for (dst, src) in rows.chunks_exact_mut(stride).zip(layer.weights.chunks_exact(layer.inputs)) {
                    dst[..layer.inputs].copy_from_slice(src);
                }
                rows
            })
            .collect();
        Ok(LearnedNet { input, layers, output, cp_scale, description, kernel: Kernel::detect(), first_rows, padded })
    }

    /// The input encoding.
    pub fn input(&self) -> InputKind {
        self.input
    }

    /// The layers.
    pub fn layers(&self) -> &[LearnedLayer] {
        &self.layers
    }

    /// The output.
    pub fn output(&self) -> &OutputKind {
        &self.output
    }

    /// Centipawns per unit of value.
    pub fn cp_scale(&self) -> f32 {
        self.cp_scale
    }

    /// The same network with `cp_scale` centipawns per unit of value; an
    /// error for a scale a file cannot hold.
    pub fn with_cp_scale(mut self, cp_scale: f32) -> Result<LearnedNet, WeightsError> {
        check_cp_scale(cp_scale)?;
        self.cp_scale = cp_scale;
        Ok(self)
    }

    /// The kernels it runs on.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Runs on `kernel` instead (an unsupported one falls back to scalar).
    pub fn with_kernel(mut self, kernel: Kernel) -> LearnedNet {
        self.kernel = kernel;
        self
    }

    /// Widths, for messages: `768-stm-256-256-1 (relu, linear)`.
    pub fn shape_name(&self) -> String {
        let mut name = String::from(self.input.name());
        for layer in &self.layers {
            name.push_str(&format!("-{}", layer.outputs));
        }
        let output = match self.output {
            OutputKind::Linear => "linear",
            OutputKind::Tanh => "tanh",
            OutputKind::Classes(_) => "classes",
        };
        let hidden = self.layers.first().map_or("none", |l| match l.activation {
            Activation::Identity => "identity",
            Activation::Relu => "relu",
            Activation::Sigmoid => "sigmoid",
            Activation::Tanh => "tanh",
        });
        format!("{name} ({hidden}, {output})")
    }

    /// The value of the position with active inputs `active`: for the side
    /// to move if the encoding is relative, else for White.
    pub fn value_of(&self, active: &[u16]) -> f32 {
        let first = &self.layers[0];
        let width = padded(first.outputs);
        let mut values = vec![0.0; width];
        values[..first.outputs].copy_from_slice(&first.bias);
        for &i in active {
            let row = &self.first_rows[usize::from(i) * width..(usize::from(i) + 1) * width];
            kernels::add_f32(self.kernel, &mut values, row);
        }
        first.activation.apply(&mut values[..first.outputs]);
        for (layer, weights) in self.layers[1..].iter().zip(&self.padded) {
            let mut out = vec![0.0; padded(layer.outputs)];
            kernels::dense_f32(self.kernel, &values, weights, &layer.bias, &mut out[..layer.outputs]);
            layer.activation.apply(&mut out[..layer.outputs]);
            values = out;
        }
        self.output.value(&values[..self.output.outputs()])
    }

    /// The value of `pos` for White.
    pub fn white_value(&self, pos: &Chess) -> f32 {
        let value = self.value_of(&self.input.active(pos));
        if self.input.is_relative() && pos.turn() == Color::Black { -value } else { value }
    }

    /// `pos` in centipawns for White, within ±[`MAX_EVAL_CP`].
    pub fn evaluate(&self, pos: &Chess) -> i32 {
        let cp = self.white_value(pos) * self.cp_scale;
        (cp as i32).clamp(-MAX_EVAL_CP, MAX_EVAL_CP)
    }

    /// The words the architecture hash covers.
    fn arch_words(input: InputKind, layers: &[(usize, u32)], output: u32, classes: usize) -> Vec<u32> {
        let mut words = vec![input.code(), layers.len() as u32];
        for &(outputs, activation) in layers {
            words.extend([outputs as u32, activation]);
        }
        words.extend([output, classes as u32]);
        words
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let layers: Vec<(usize, u32)> = self.layers.iter().map(|l| (l.outputs, l.activation.code())).collect();
        let classes = match &self.output {
            OutputKind::Classes(values) => values.clone(),
            _ => Vec::new(),
        };
        let words = LearnedNet::arch_words(self.input, &layers, self.output.code(), classes.len());
        FileHeader::write(&mut out, LEARNED_FORMAT, learned_arch_hash(&words));
        write_u32(&mut out, self.input.code());
        write_u32(&mut out, layers.len() as u32);
        for (outputs, activation) in layers {
            write_u32(&mut out, outputs as u32);
            write_u32(&mut out, activation);
        }
        write_u32(&mut out, self.output.code());
        write_u32(&mut out, classes.len() as u32);
        for value in classes {
            out.extend_from_slice(&value.to_le_bytes());
        }
        out.extend_from_slice(&self.cp_scale.to_le_bytes());
        write_description(&mut out, &self.description);
        for layer in &self.layers {
            write_params(&mut out, layer);
        }
        out
    }

    /// Reads a `.dcsn` file; every defect is a typed error.
    pub fn from_bytes(bytes: &[u8]) -> Result<LearnedNet, WeightsError> {
        let mut reader = Reader::new(bytes);
        let hash = FileHeader::read(&mut reader, &[LEARNED_FORMAT])?.hash;
        let bad = |reason| WeightsError::BadLearned { reason };
        let input = InputKind::from_code(reader.u32()?).ok_or(bad("unknown input encoding"))?;
        let count = reader.u32()? as usize;
        if count == 0 || count > MAX_LAYERS {
            return Err(bad("between 1 and 8 layers"));
        }
        let mut layers = Vec::with_capacity(count);
        for _ in 0..count {
            let outputs = reader.u32()? as usize;
            let activation = reader.u32()?;
            if outputs == 0 || outputs > MAX_LEARNED_WIDTH {
                return Err(bad("a layer is empty or wider than 4096"));
            }
            layers.push((outputs, activation));
        }
        let output_code = reader.u32()?;
        let classes = reader.u32()? as usize;
        if classes > 64 {
            return Err(bad("more than 64 classes"));
        }
        let words = LearnedNet::arch_words(input, &layers, output_code, classes);
        if hash != learned_arch_hash(&words) {
            return Err(WeightsError::ArchHashMismatch { found: hash, expected: learned_arch_hash(&words) });
        }
        let values: Vec<f32> = reader.f32s(classes)?.collect();
        let output = match output_code {
            0 if classes == 0 => OutputKind::Linear,
            1 if classes == 0 => OutputKind::Tanh,
            2 => OutputKind::Classes(values),
            _ => return Err(bad("unknown output kind")),
        };
        let cp_scale = f32::from_le_bytes(reader.array()?);
        let description = reader.description()?.into();
        let mut width = input.inputs();
        let mut parsed = Vec::with_capacity(count);
        for (outputs, code) in layers {
            let activation = Activation::ALL.into_iter().find(|a| a.code() == code).ok_or(bad("unknown activation"))?;
            let (bias, weights) = read_params(&mut reader, outputs, width)?;
            parsed.push(LearnedLayer { inputs: width, outputs, activation, bias, weights });
            width = outputs;
        }
        reader.finish()?;
        LearnedNet::new(input, parsed, output, cp_scale, description)
    }
}
