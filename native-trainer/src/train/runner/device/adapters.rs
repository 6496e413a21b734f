//! The wgpu adapters this machine offers, read without creating a device.
//!
//! burn's wgpu runtime creates its device lazily, on a thread of its own, and
//! panics there when the adapter asked for does not exist; under the release
//! profile (`panic = "abort"`) nothing can catch that. So the trainer asks the
//! graphics API for its adapters first (name, type, driver: no device), picks
//! one by its reported type, and only then asks burn for that adapter through
//! `Device::wgpu_options().init()`, which returns an error instead of
//! panicking.
//!
//! The list is the one burn's `Auto` graphics API resolves adapters against:
//! the first of Vulkan, DirectX 12 and OpenGL (Metal on macOS) with a hardware
//! adapter, or else the first with any adapter at all (a software rasterizer
//! such as lavapipe). Within that list burn counts each adapter type from zero
//! (`DiscreteGpu(1)` is the second discrete GPU), and so does [`Adapter::kind`].

use burn::tensor::DeviceKind;
use burn::tensor::wgpu::wgpu;

use super::kind::AdapterType;

/// The type of a wgpu adapter, as burn's device kinds name it.
fn adapter_type(kind: wgpu::DeviceType) -> AdapterType {
    match kind {
        wgpu::DeviceType::DiscreteGpu => AdapterType::Discrete,
        wgpu::DeviceType::IntegratedGpu => AdapterType::Integrated,
        wgpu::DeviceType::VirtualGpu => AdapterType::Virtual,
        wgpu::DeviceType::Cpu => AdapterType::Cpu,
        wgpu::DeviceType::Other => AdapterType::Other,
    }
}

/// One adapter, as the graphics API describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adapter {
    /// Its place in [`list`] (`--device wgpu:<index>`).
    pub index: usize,
    /// Its place among the adapters of its type (burn's `DiscreteGpu(n)`).
    pub type_index: usize,
    /// The reported type.
    pub kind: AdapterType,
    /// The product name, for example `NVIDIA H100 80GB HBM3` or `llvmpipe (LLVM 19.1.7, 256 bits)`.
    pub name: String,
    /// The graphics API (`Vulkan`, `Gl`, …).
    pub backend: String,
    /// The driver and its version, where reported.
    pub driver: String,
}

impl Adapter {
    /// How burn's wgpu runtime names this adapter, or None for a type it cannot
    /// address (`Other`: only its default device reaches it).
    pub fn device_kind(&self) -> Option<DeviceKind> {
        match self.kind {
            AdapterType::Discrete => Some(DeviceKind::DiscreteGpu(self.type_index)),
            AdapterType::Integrated => Some(DeviceKind::IntegratedGpu(self.type_index)),
            AdapterType::Virtual => Some(DeviceKind::VirtualGpu(self.type_index)),
            AdapterType::Cpu => (self.type_index == 0).then_some(DeviceKind::Cpu),
            AdapterType::Other => None,
        }
    }
}

impl std::fmt::Display for Adapter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "wgpu:{}  {:<10}  {} ({}", self.index, self.kind.name(), self.name, self.backend)?;
        if !self.driver.trim().is_empty() {
            write!(f, ", {}", self.driver.trim())?;
        }
        write!(f, ")")
    }
}

/// The graphics APIs burn's `Auto` tries, best first.
fn candidates() -> Vec<wgpu::Backend> {
    if cfg!(target_os = "macos") {
        vec![wgpu::Backend::Metal]
    } else {
        vec![wgpu::Backend::Vulkan, wgpu::Backend::Dx12, wgpu::Backend::Gl]
    }
}

/// The adapters `backend` has, asked through an instance limited to it
/// (not yet numbered).
fn probe(backend: wgpu::Backend) -> Vec<Adapter> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: backend.into(),
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    futures_lite::future::block_on(instance.enumerate_adapters(backend.into()))
        .iter()
        .map(|adapter| {
            let info = adapter.get_info();
            Adapter {
                index: 0,
                type_index: 0,
                kind: adapter_type(info.device_type),
                name: info.name,
                backend: format!("{:?}", info.backend),
                driver: format!("{} {}", info.driver, info.driver_info),
            }
        })
        .collect()
}

/// Every adapter burn's wgpu runtime can reach, in its order (see the module's
/// docs); empty where no graphics driver answers.
pub fn list() -> Vec<Adapter> {
    let mut software_only = None;
    for api in candidates() {
        let found = probe(api);
        if found.iter().any(|adapter| adapter.kind != AdapterType::Cpu) {
            return numbered(found);
        }
        if software_only.is_none() && !found.is_empty() {
            software_only = Some(found);
        }
    }
    software_only.map(numbered).unwrap_or_default()
}

/// Numbers adapters overall and within their type, as burn does.
fn numbered(found: Vec<Adapter>) -> Vec<Adapter> {
    let mut per_type = [0usize; 5];
    found
        .into_iter()
        .enumerate()
        .map(|(index, adapter)| {
            let slot = &mut per_type[adapter.kind.rank() as usize];
            let type_index = *slot;
            *slot += 1;
            Adapter { index, type_index, ..adapter }
        })
        .collect()
}

/// The adapters as lines for a message, or a line saying there are none.
pub fn describe(adapters: &[Adapter]) -> String {
    if adapters.is_empty() {
        return "  (none: no Vulkan, DirectX 12 or OpenGL driver answered; on Debian or Ubuntu, \
                `apt install mesa-vulkan-drivers` gives a software one, lavapipe)"
            .into();
    }
    adapters.iter().map(|adapter| format!("  {adapter}")).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adapter(name: &str, kind: AdapterType) -> Adapter {
        let (index, type_index) = (0, 0);
        Adapter { index, type_index, kind, name: name.into(), backend: "Vulkan".into(), driver: String::new() }
    }

    #[test]
    fn each_type_counts_from_zero_as_burn_does() {
        let adapters = numbered(vec![
            adapter("a", AdapterType::Integrated),
            adapter("b", AdapterType::Discrete),
            adapter("c", AdapterType::Cpu),
            adapter("d", AdapterType::Discrete),
        ]);
        let kinds: Vec<_> = adapters.iter().map(Adapter::device_kind).collect();
        assert_eq!(
            kinds,
            [
                Some(DeviceKind::IntegratedGpu(0)),
                Some(DeviceKind::DiscreteGpu(0)),
                Some(DeviceKind::Cpu),
                Some(DeviceKind::DiscreteGpu(1)),
            ]
        );
        assert_eq!(adapters[3].index, 3);
        assert!(adapters[2].to_string().starts_with("wgpu:2  cpu"));
    }

    #[test]
    fn type_names_round_trip() {
        for kind in [AdapterType::Discrete, AdapterType::Integrated, AdapterType::Virtual, AdapterType::Cpu] {
            assert_eq!(AdapterType::parse(kind.name()), Some(kind));
        }
        assert_eq!(AdapterType::parse("gpu"), None);
    }
}
