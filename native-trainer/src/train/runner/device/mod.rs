//! Choosing where to train: only the binary decides, with `--device`.
//!
//! No choice aborts the process: the wgpu adapters are read first, without
//! creating a device (`adapters`, with wgpu), the one asked for is created
//! through burn's fallible initialization; CUDA devices are counted through
//! the driver, which is loaded at run time (a build needs no CUDA), and NVRTC,
//! which compiles burn's kernels, is looked for before a device is opened.
//! Every failure is an error that lists what the machine offers.

use burn::tensor::Device;

#[cfg(feature = "wgpu")]
pub mod adapters;
mod kind;

pub use kind::{AdapterChoice, AdapterType};

/// The help of `--device`, for every command that takes it.
pub const HELP: &str = "Where to train: `auto` (an NVIDIA GPU through CUDA, else a hardware GPU through wgpu, \
    else the CPU), `flex` (the CPU), `cuda` or `cuda:N` (an NVIDIA GPU; the `cuda` feature), `wgpu` (the best \
    wgpu adapter, software ones included), `wgpu:discrete`, `wgpu:integrated`, `wgpu:virtual`, `wgpu:cpu`, \
    `wgpu:other` or `wgpu:N` (see `deepchess train devices`)";

/// `--device`: where training runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceChoice {
    /// An NVIDIA GPU through CUDA, else a hardware GPU through wgpu, as far
    /// as this build has them and they are found; else the CPU (flex).
    Auto,
    /// The CPU, with burn's pure-Rust flex backend.
    Flex,
    /// An adapter through wgpu (burn-wgpu), software ones included.
    Wgpu(AdapterChoice),
    /// The NVIDIA GPU of this index through CUDA (burn-cuda).
    Cuda(usize),
}

impl std::str::FromStr for DeviceChoice {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim().to_ascii_lowercase();
        let usage = "expected auto, flex, cuda, cuda:N, wgpu, wgpu:discrete, wgpu:integrated, \
                     wgpu:virtual, wgpu:cpu, wgpu:other or wgpu:N (N from `deepchess train devices`)";
        match text.as_str() {
            "auto" => return Ok(DeviceChoice::Auto),
            "flex" | "cpu" => return Ok(DeviceChoice::Flex),
            "wgpu" => return Ok(DeviceChoice::Wgpu(AdapterChoice::Best)),
            "cuda" => return Ok(DeviceChoice::Cuda(0)),
            _ => {}
        }
        if let Some(index) = text.strip_prefix("cuda:") {
            return index
                .parse()
                .map(DeviceChoice::Cuda)
                .map_err(|_| format!("unknown CUDA device `{index}`: {usage}"));
        }
        let Some(adapter) = text.strip_prefix("wgpu:") else {
            return Err(format!("unknown device `{text}`: {usage}"));
        };
        if let Ok(index) = adapter.parse::<usize>() {
            return Ok(DeviceChoice::Wgpu(AdapterChoice::Index(index)));
        }
        AdapterType::parse(adapter)
            .map(|kind| DeviceChoice::Wgpu(AdapterChoice::Type(kind)))
            .ok_or_else(|| format!("unknown wgpu adapter `{adapter}`: {usage}"))
    }
}

impl std::fmt::Display for DeviceChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeviceChoice::Auto => write!(f, "auto"),
            DeviceChoice::Flex => write!(f, "flex"),
            DeviceChoice::Wgpu(AdapterChoice::Best) => write!(f, "wgpu"),
            DeviceChoice::Wgpu(AdapterChoice::Type(kind)) => write!(f, "wgpu:{}", kind.name()),
            DeviceChoice::Wgpu(AdapterChoice::Index(index)) => write!(f, "wgpu:{index}"),
            DeviceChoice::Cuda(0) => write!(f, "cuda"),
            DeviceChoice::Cuda(index) => write!(f, "cuda:{index}"),
        }
    }
}

/// The autodiff device for `choice`, and a line saying what was chosen and why.
pub fn select(choice: DeviceChoice) -> anyhow::Result<(Device, String)> {
    match choice {
        DeviceChoice::Flex => flex(),
        DeviceChoice::Wgpu(adapter) => wgpu::explicit(adapter),
        DeviceChoice::Cuda(index) => cuda::open(index),
        DeviceChoice::Auto => cuda::open(0).or_else(|why| {
            let (device, line) = wgpu::auto()?;
            // Where this build has CUDA, say why it was passed over.
            let why = if cfg!(feature = "cuda") { format!("{why:#}; ") } else { String::new() };
            Ok((device, format!("{why}{line}")))
        }),
    }
}

#[cfg(feature = "flex")]
fn flex() -> anyhow::Result<(Device, String)> {
    Ok((Device::flex().autodiff(), "training on the CPU with burn's flex backend".into()))
}

#[cfg(not(feature = "flex"))]
fn flex() -> anyhow::Result<(Device, String)> {
    anyhow::bail!("this build lacks the flex feature (rebuild with `--features flex`)")
}

/// What `deepchess train devices` prints: the CPU backend, the wgpu
/// adapters and what `auto` would take.
pub fn report() -> String {
    let cpu = if cfg!(feature = "flex") {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        format!("flex: the CPU, burn's flex backend ({threads} threads)")
    } else {
        "flex: not in this build (the flex feature)".to_string()
    };
    format!("{cpu}\n{}\n{}", cuda::report(), wgpu::report())
}

#[cfg(feature = "cuda")]
mod cuda {
    use anyhow::Context;
    use burn::tensor::{Device, DeviceType};

    /// The CUDA devices the driver reports, by name: none where the NVIDIA
    /// driver's library (libcuda) is not installed. Counting does not open a
    /// device.
    fn list() -> Vec<String> {
        let count = Device::enumerate(DeviceType::Cuda).into_vec().len();
        (0..count).map(|index| name(index).unwrap_or_else(|| "a CUDA device".into())).collect()
    }

    /// The name the driver gives device `index`.
    fn name(index: usize) -> Option<String> {
        use cudarc::driver::result;
        result::init().ok()?;
        let device = result::device::get(i32::try_from(index).ok()?).ok()?;
        result::device::get_name(device).ok()
    }

    /// Whether NVRTC, which compiles burn's kernels when they first run, can
    /// be loaded: without it the first kernel would panic on burn's device
    /// thread, which the release profile turns into an abort.
    fn nvrtc() -> bool {
        // SAFETY: it only tries to load each of NVRTC's library names.
        unsafe { cudarc::nvrtc::sys::is_culib_present() }
    }

    fn describe(found: &[String]) -> String {
        found.iter().enumerate().map(|(index, name)| format!("  cuda:{index}  {name}")).collect::<Vec<_>>().join("\n")
    }

    /// CUDA device `index`, or why it cannot train.
    pub(super) fn open(index: usize) -> anyhow::Result<(Device, String)> {
        let found = list();
        anyhow::ensure!(
            !found.is_empty(),
            "no CUDA device: the NVIDIA driver's library (libcuda) is not installed or reports no GPU"
        );
        let name = found
            .get(index)
            .with_context(|| format!("no CUDA device {index}; the driver reports:\n{}", describe(&found)))?;
        anyhow::ensure!(
            nvrtc(),
            "CUDA device {index} ({name}) is there, but not NVRTC (libnvrtc), which compiles the kernels at run \
             time: install the CUDA toolkit or pip's nvidia-cuda-nvrtc and put the folder of its libnvrtc on \
             LD_LIBRARY_PATH"
        );
        Ok((Device::cuda(index).autodiff(), format!("training through CUDA on cuda:{index} ({name})")))
    }

    pub(super) fn report() -> String {
        let found = list();
        match (found.is_empty(), nvrtc()) {
            (true, _) => "cuda: no CUDA device (no NVIDIA driver found)".into(),
            (false, true) => format!("cuda devices (`--device auto` takes cuda:0):\n{}", describe(&found)),
            (false, false) => {
                format!("cuda devices, unusable until NVRTC (libnvrtc) is on LD_LIBRARY_PATH:\n{}", describe(&found))
            }
        }
    }
}

#[cfg(not(feature = "cuda"))]
mod cuda {
    use burn::tensor::Device;

    pub(super) fn open(_: usize) -> anyhow::Result<(Device, String)> {
        anyhow::bail!("this build lacks the cuda feature (rebuild with `--features cuda`)")
    }

    pub(super) fn report() -> String {
        "cuda: not in this build (the cuda feature)".into()
    }
}

#[cfg(feature = "wgpu")]
mod wgpu {
    use anyhow::Context;
    use burn::tensor::Device;

    use super::adapters::{self, Adapter};
    use super::{AdapterChoice, AdapterType};

    /// The best adapter of `found` (types ranked discrete, integrated,
    /// virtual, other, software; the first of equals), hardware only unless
    /// `software` allows.
    pub(super) fn best(found: &[Adapter], software: bool) -> Option<&Adapter> {
        found
            .iter()
            .filter(|adapter| software || adapter.kind != AdapterType::Cpu)
            .filter(|adapter| adapter.device_kind().is_some())
            .min_by_key(|adapter| adapter.kind.rank())
    }

    /// The adapter `choice` names among `found`.
    pub(super) fn pick(found: &[Adapter], choice: AdapterChoice) -> anyhow::Result<&Adapter> {
        let picked = match choice {
            AdapterChoice::Best => best(found, true),
            AdapterChoice::Type(kind) => found.iter().find(|adapter| adapter.kind == kind),
            AdapterChoice::Index(index) => found.get(index),
        };
        let adapter = picked.with_context(|| {
            format!(
                "no wgpu adapter matches `--device {}`; this machine offers:\n{}",
                super::DeviceChoice::Wgpu(choice),
                adapters::describe(found)
            )
        })?;
        if adapter.device_kind().is_none() {
            anyhow::bail!(
                "the wgpu adapter `{adapter}` is of a type burn cannot address; this machine offers:\n{}",
                adapters::describe(found)
            );
        }
        Ok(adapter)
    }

    /// Creates the device for `adapter`, as an error where the driver refuses.
    fn open(adapter: &Adapter, found: &[Adapter]) -> anyhow::Result<Device> {
        let kind = adapter.device_kind().context("an adapter burn cannot address")?;
        let device = match Device::wgpu_options().device_kind(kind.clone()).init() {
            Ok(device) => device,
            // Initialized before in this process (a second run, a test): reuse it.
            Err(burn::tensor::wgpu::WgpuInitError::Registration { .. }) => Device::wgpu(kind),
            Err(error) => {
                return Err(anyhow::anyhow!(
                    "wgpu could not open `{adapter}`: {error}; this machine offers:\n{}",
                    adapters::describe(found)
                ));
            }
        };
        Ok(device.autodiff())
    }

    pub(super) fn explicit(choice: AdapterChoice) -> anyhow::Result<(Device, String)> {
        let found = adapters::list();
        let adapter = pick(&found, choice)?;
        let device = open(adapter, &found)?;
        let note = if adapter.kind == AdapterType::Cpu {
            " — a software rasterizer: expect it to be slower than `--device flex`"
        } else {
            ""
        };
        Ok((device, format!("training through wgpu on {adapter}{note}")))
    }

    pub(super) fn auto() -> anyhow::Result<(Device, String)> {
        let found = adapters::list();
        let Some(adapter) = best(&found, false) else {
            let (device, on_cpu) = super::flex()?;
            let why = if found.is_empty() {
                "no wgpu adapter found".to_string()
            } else {
                let names: Vec<_> = found.iter().map(|adapter| adapter.name.as_str()).collect();
                format!(
                    "wgpu offers only software adapters ({}), slower than flex; `--device wgpu:cpu` takes one anyway",
                    names.join(", ")
                )
            };
            return Ok((device, format!("{why}: {on_cpu}")));
        };
        match open(adapter, &found) {
            Ok(device) => Ok((device, format!("training through wgpu on {adapter}, the best adapter found"))),
            Err(error) => {
                let (device, on_cpu) = super::flex()?;
                Ok((device, format!("{error:#}\nso: {on_cpu}")))
            }
        }
    }

    pub(super) fn report() -> String {
        let found = adapters::list();
        let auto = match best(&found, false) {
            Some(adapter) => format!("`--device auto` takes wgpu:{} ({})", adapter.index, adapter.name),
            None => "`--device auto` trains on the CPU with flex (no hardware adapter)".into(),
        };
        format!("wgpu adapters (the graphics API burn settles on):\n{}\n{auto}", adapters::describe(&found))
    }
}

#[cfg(not(feature = "wgpu"))]
mod wgpu {
    use burn::tensor::Device;

    use super::AdapterChoice;

    pub(super) fn explicit(_: AdapterChoice) -> anyhow::Result<(Device, String)> {
        anyhow::bail!("this build lacks the wgpu feature (rebuild with `--features wgpu`)")
    }

    pub(super) fn auto() -> anyhow::Result<(Device, String)> {
        let (device, on_cpu) = super::flex()?;
        Ok((device, format!("this build lacks wgpu: {on_cpu}")))
    }

    pub(super) fn report() -> String {
        "this build lacks the wgpu feature: only `--device flex`".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_parses_and_prints_back() {
        for text in [
            "auto",
            "flex",
            "cuda",
            "cuda:1",
            "wgpu",
            "wgpu:discrete",
            "wgpu:integrated",
            "wgpu:virtual",
            "wgpu:cpu",
            "wgpu:3",
        ] {
            let choice: DeviceChoice = text.parse().unwrap();
            assert_eq!(choice.to_string(), text);
        }
        assert_eq!("WGPU:CPU".parse::<DeviceChoice>(), Ok(DeviceChoice::Wgpu(AdapterChoice::Type(AdapterType::Cpu))));
        assert_eq!("cuda:0".parse::<DeviceChoice>(), Ok(DeviceChoice::Cuda(0)));
        let err = "rocm".parse::<DeviceChoice>().unwrap_err();
        assert!(err.contains("unknown device `rocm`"), "{err}");
        let err = "cuda:first".parse::<DeviceChoice>().unwrap_err();
        assert!(err.contains("unknown CUDA device `first`"), "{err}");
        let err = "wgpu:gpu".parse::<DeviceChoice>().unwrap_err();
        assert!(err.contains("unknown wgpu adapter `gpu`"), "{err}");
    }

    #[cfg(feature = "wgpu")]
    #[test]
    fn picking_reads_types_and_never_takes_software_for_auto() {
        use crate::train::runner::device::adapters::Adapter;
        let adapter = |index, kind, name: &str| Adapter {
            index,
            type_index: 0,
            kind,
            name: name.into(),
            backend: "Vulkan".into(),
            driver: String::new(),
        };
        let software = [adapter(0, AdapterType::Cpu, "llvmpipe")];
        assert!(wgpu::best(&software, false).is_none(), "auto must not take lavapipe");
        assert_eq!(wgpu::pick(&software, AdapterChoice::Best).unwrap().name, "llvmpipe");
        let err = wgpu::pick(&software, AdapterChoice::Type(AdapterType::Discrete)).unwrap_err();
        let text = format!("{err:#}");
        assert!(text.contains("--device wgpu:discrete") && text.contains("llvmpipe"), "{text}");
        assert!(wgpu::pick(&software, AdapterChoice::Index(1)).is_err());

        let mixed = [
            adapter(0, AdapterType::Cpu, "llvmpipe"),
            adapter(1, AdapterType::Integrated, "iGPU"),
            adapter(2, AdapterType::Discrete, "dGPU"),
        ];
        assert_eq!(wgpu::best(&mixed, false).unwrap().name, "dGPU");
        assert_eq!(wgpu::pick(&mixed, AdapterChoice::Type(AdapterType::Integrated)).unwrap().name, "iGPU");
        assert_eq!(wgpu::pick(&mixed, AdapterChoice::Index(0)).unwrap().name, "llvmpipe");
    }
}
