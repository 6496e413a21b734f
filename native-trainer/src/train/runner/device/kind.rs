//! The wgpu adapter that `--device wgpu[:…]` asks for, and what the
//! graphics API reports an adapter to be.

/// Which wgpu adapter `--device wgpu[:…]` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdapterChoice {
    /// `wgpu`: the best adapter there is, a software one where nothing else exists.
    Best,
    /// `wgpu:discrete`, `wgpu:integrated`, `wgpu:virtual`, `wgpu:cpu`: the first of that type.
    Type(AdapterType),
    /// `wgpu:N`: the Nth adapter of `deepchess train devices`.
    Index(usize),
}

/// What the graphics API reports an adapter to be (`--device wgpu:<type>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdapterType {
    /// A GPU on its own card.
    Discrete,
    /// A GPU sharing the processor's memory.
    Integrated,
    /// A GPU of a virtual machine.
    Virtual,
    /// A software rasterizer (lavapipe, llvmpipe, WARP): it runs, slowly.
    Cpu,
    /// Something the API would not classify.
    Other,
}

impl AdapterType {
    /// The spelling of `--device wgpu:<type>`.
    pub fn name(self) -> &'static str {
        match self {
            AdapterType::Discrete => "discrete",
            AdapterType::Integrated => "integrated",
            AdapterType::Virtual => "virtual",
            AdapterType::Cpu => "cpu",
            AdapterType::Other => "other",
        }
    }

    /// The type named `name` (`--device wgpu:<name>`).
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Discrete, Self::Integrated, Self::Virtual, Self::Cpu, Self::Other]
            .into_iter()
            .find(|kind| kind.name() == name)
    }

    /// Preference of `--device auto` and a bare `--device wgpu` (lower first).
    pub fn rank(self) -> u8 {
        match self {
            AdapterType::Discrete => 0,
            AdapterType::Integrated => 1,
            AdapterType::Virtual => 2,
            AdapterType::Other => 3,
            AdapterType::Cpu => 4,
        }
    }
}
