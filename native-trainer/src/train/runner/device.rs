//! Choosing where to train: only the binary decides, with `--device`.

use burn::tensor::Device;

/// `--device`: where training runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize)]
pub enum DeviceChoice {
    /// A GPU through wgpu if this build has it and one is found; else the CPU (flex).
    Auto,
    /// A GPU through wgpu (burn-wgpu).
    Wgpu,
    /// The CPU, with burn's pure-Rust flex backend.
    Flex,
}

/// The autodiff device for `choice`, and a line saying what was chosen.
pub fn select(choice: DeviceChoice) -> anyhow::Result<(Device, String)> {
    match choice {
        DeviceChoice::Flex => flex(),
        DeviceChoice::Wgpu => {
            wgpu().ok_or_else(|| anyhow::anyhow!("no GPU found through wgpu (or this build lacks the wgpu feature)"))
        }
        DeviceChoice::Auto => match wgpu() {
            Some(found) => Ok(found),
            None => {
                let (device, _) = flex()?;
                Ok((device, "no GPU found through wgpu: training on the CPU with burn's flex backend".into()))
            }
        },
    }
}

#[cfg(feature = "flex")]
fn flex() -> anyhow::Result<(Device, String)> {
    Ok((Device::flex().autodiff(), "training on the CPU with burn's flex backend".into()))
}

#[cfg(not(feature = "flex"))]
fn flex() -> anyhow::Result<(Device, String)> {
    anyhow::bail!("this build lacks the flex feature")
}

/// The first wgpu adapter that is a real GPU (not a software rasterizer).
#[cfg(feature = "wgpu")]
fn wgpu() -> Option<(Device, String)> {
    use burn::tensor::{DeviceKind, DeviceType};
    let found = Device::enumerate(DeviceType::Wgpu).into_iter().count();
    if found == 0 {
        return None;
    }
    for kind in [DeviceKind::DiscreteGpu(0), DeviceKind::IntegratedGpu(0)] {
        let device = Device::wgpu(kind.clone());
        let ok = std::panic::catch_unwind(|| {
            let probe = burn::tensor::Tensor::<1>::ones([4], &device);
            probe.sum().into_scalar::<f32>()
        });
        if ok.is_ok_and(|sum| sum == 4.0) {
            return Some((device.autodiff(), format!("training on the GPU through wgpu ({kind:?})")));
        }
    }
    None
}

#[cfg(not(feature = "wgpu"))]
fn wgpu() -> Option<(Device, String)> {
    None
}
