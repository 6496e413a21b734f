//! The training positions kept on the device, and batches gathered there.
//!
//! The host's way ([`Encoded::batch`]) builds each batch position by
//! position: every step it copies 37 bit indices a position (and as many
//! for its mirror image) into a fresh buffer and uploads it. On a GPU that
//! host work, not the arithmetic, set the step's time. Here every position's
//! bit list goes to the device once, when the run opens; an epoch's items
//! (their rows, and the learner's targets) go up once an epoch; and a step
//! only selects its rows there.
//!
//! The colour mirror is a lookup on the device too: each piece and castling
//! bit has a fixed image ([`mirror_index`]), the side-to-move bit has none
//! (the image lacks it: it becomes padding), and a position without that
//! bit gains it in one more slot, kept per position. So the device's rows
//! are 38 slots wide (37 and a padding slot for the plain positions); the
//! padding row reads as zeros, so the sums are those of the host's lists, in
//! another order (float sums: within rounding).
//!
//! Used on a GPU backend ([`gpu_backend`], where the first layer is
//! the embedding bag's kernels); on flex the host's way is the device's way.

use std::cell::RefCell;

use burn::tensor::{Bool, Device, Int, Tensor, TensorData};
use deepchess_core::arch::{INPUTS, MAX_ACTIVE, SIDE_TO_MOVE_INDEX};
use deepchess_core::deepchess::features::mirror_index;

use crate::data::Pair;
use crate::train::runner::batch::{Encoded, PairBatch, pair_labels};
use crate::train::runner::tensors::{PAD_INDEX, Positions, gpu_backend};

/// Slots of a row on the device: the longest list, and one that only a
/// mirror image fills (with the side-to-move bit).
pub const SLOTS: usize = MAX_ACTIVE + 1;

/// The most device memory the positions' table may take: 38 slots of 4
/// bytes a position (the GPU backends' integers), about 42 M positions. A
/// larger training split keeps its batches on the host, so a desktop GPU's
/// memory holds the rest of the run.
pub const TABLE_BUDGET: usize = 6 << 30;

/// Whether training batches are best gathered on `device`: on the GPU
/// backends.
pub fn gather_on_device(device: &Device) -> bool {
    gpu_backend(device)
}

/// Whether a training split of `positions` is gathered on `device`
/// ([`gather_on_device`]) with its table within [`TABLE_BUDGET`]; says so
/// (unless `quiet`) where the table alone keeps the batches on the host.
pub fn gather_split_on_device(device: &Device, positions: usize, quiet: bool) -> bool {
    if !gather_on_device(device) {
        return false;
    }
    let bytes = positions.saturating_mul(SLOTS * 4);
    if bytes > TABLE_BUDGET {
        if !quiet {
            eprintln!(
                "{positions} training positions would take {:.1} GiB on the device: batches are built on the host",
                bytes as f64 / f64::from(1u32 << 30)
            );
        }
        return false;
    }
    true
}

/// Every training position's bit list, on the device.
pub struct DeviceEncoded {
    /// `[positions, SLOTS]`: the bits, padded with [`PAD_INDEX`].
    bits: Tensor<2, Int>,
    /// `[positions, 1]`: what the mirror image adds, the side-to-move bit
    /// where the position lacks it, else padding.
    added: Tensor<2, Int>,
    /// `[INPUTS + 1]`: each input's image in the mirror (the side-to-move
    /// bit's and padding's: padding).
    table: Tensor<1, Int>,
}

impl DeviceEncoded {
    /// Uploads every position of `encoded` to `device`, once.
    pub fn new(encoded: &Encoded, device: &Device) -> DeviceEncoded {
        let n = encoded.len();
        let mut bits = vec![PAD_INDEX as i64; n * SLOTS];
        let mut added = vec![i64::from(SIDE_TO_MOVE_INDEX); n];
        for (i, (row, add)) in bits.chunks_exact_mut(SLOTS).zip(&mut added).enumerate() {
            let list = encoded.features(i as u32).as_slice();
            for (slot, &bit) in row.iter_mut().zip(list) {
                *slot = i64::from(bit);
            }
            if list.contains(&SIDE_TO_MOVE_INDEX) {
                *add = PAD_INDEX as i64;
            }
        }
        let table: Vec<i64> = (0..=INPUTS)
            .map(|i| match u16::try_from(i).ok().filter(|&i| usize::from(i) < INPUTS).and_then(mirror_index) {
                Some(image) => i64::from(image),
                None => PAD_INDEX as i64,
            })
            .collect();
        DeviceEncoded {
            bits: Tensor::from_data(TensorData::new(bits, [n, SLOTS]), device),
            added: Tensor::from_data(TensorData::new(added, [n, 1]), device),
            table: Tensor::from_data(TensorData::new(table, [INPUTS + 1]), device),
        }
    }

    /// The positions at `rows` (`[batch]`, on the device), each its mirror
    /// image where `mirror` (`[batch]`) is true.
    pub fn batch_where(&self, rows: Tensor<1, Int>, mirror: Tensor<1, Bool>) -> Positions {
        let plain = self.batch(rows.clone(), false).indices;
        let images = self.batch(rows, true).indices;
        let [batch, slots] = plain.dims();
        let mirror = mirror.reshape([batch, 1]).expand([batch, slots]);
        Positions { indices: plain.mask_where(mirror, images) }
    }

    /// The positions at `rows` (`[batch]`, on the device), or their mirror
    /// images.
    pub fn batch(&self, rows: Tensor<1, Int>, mirror: bool) -> Positions {
        let bits = self.bits.clone().select(0, rows.clone()); // [batch, SLOTS]
        if !mirror {
            return Positions { indices: bits };
        }
        let [batch, _] = bits.dims();
        // The first MAX_ACTIVE slots through the table, the last from `added`.
        let listed = bits.narrow(1, 0, MAX_ACTIVE).reshape([batch * MAX_ACTIVE]);
        let images = self.table.clone().select(0, listed).reshape([batch, MAX_ACTIVE]);
        let added = self.added.clone().select(0, rows);
        Positions { indices: Tensor::cat(vec![images, added], 1) }
    }
}

/// A learner's way to its batches: on the device (every training position
/// there, and the current epoch's items, an `S`), or built on the host.
pub struct DeviceBatches<S> {
    encoded: Option<DeviceEncoded>,
    staged: RefCell<Option<S>>,
}

impl<S> DeviceBatches<S> {
    /// Batches built on the host.
    pub fn host() -> Self {
        DeviceBatches { encoded: None, staged: RefCell::new(None) }
    }

    /// On the device when `on` (uploading `encoded`'s positions to `device`
    /// now), else on the host.
    pub fn new(on: bool, encoded: &Encoded, device: &Device) -> Self {
        DeviceBatches { encoded: on.then(|| DeviceEncoded::new(encoded, device)), staged: RefCell::new(None) }
    }

    /// Keeps an epoch's items on the device, as `stage` uploads them (on the
    /// device only).
    pub fn stage(&self, stage: impl FnOnce() -> S) {
        if self.encoded.is_some() {
            *self.staged.borrow_mut() = Some(stage());
        }
    }

    /// `batch` of the positions and the staged epoch on the device; `None`
    /// where batches are built on the host.
    pub fn with<R>(&self, batch: impl FnOnce(&DeviceEncoded, &S) -> R) -> Option<R> {
        let staged = self.staged.borrow();
        Some(batch(self.encoded.as_ref()?, staged.as_ref()?))
    }
}

/// Rows of the positions' table as a `[rows]` tensor on `device`.
fn upload_rows(rows: impl Iterator<Item = u32>, device: &Device) -> Tensor<1, Int> {
    let rows: Vec<i64> = rows.map(i64::from).collect();
    let n = rows.len();
    Tensor::from_data(TensorData::new(rows, [n]), device)
}

/// An epoch's positions on the device (their rows), uploaded once; a step
/// narrows them to its batch.
pub struct StagedRows {
    rows: Tensor<1, Int>,
}

impl StagedRows {
    /// Uploads an epoch's rows.
    pub fn new(rows: &[u32], device: &Device) -> StagedRows {
        StagedRows { rows: upload_rows(rows.iter().copied(), device) }
    }

    /// Rows `at..at + len`.
    pub fn slice(&self, at: usize, len: usize) -> Tensor<1, Int> {
        self.rows.clone().narrow(0, at, len)
    }
}

/// An epoch's items on the device: the rows of its positions and a float
/// target for each, uploaded once; a step narrows them to its batch.
pub struct StagedEpoch {
    rows: StagedRows,
    targets: Tensor<1>,
}

impl StagedEpoch {
    /// Uploads an epoch's `(row, target)` items.
    pub fn new(items: &[(u32, f32)], device: &Device) -> StagedEpoch {
        let targets: Vec<f32> = items.iter().map(|&(_, t)| t).collect();
        StagedEpoch {
            rows: StagedRows { rows: upload_rows(items.iter().map(|&(i, _)| i), device) },
            targets: Tensor::from_data(TensorData::new(targets, [items.len()]), device),
        }
    }

    /// Items `at..at + len`: their rows and their targets (`[len, 1]`).
    pub fn slice(&self, at: usize, len: usize) -> (Tensor<1, Int>, Tensor<2>) {
        (self.rows.slice(at, len), self.targets.clone().narrow(0, at, len).reshape([len, 1]))
    }
}

/// An epoch's pairs on the device, in the order the network sees each
/// (see [`Pair::ordered`]), with their labels; a step narrows them to its
/// batch.
pub struct StagedPairs {
    first: Tensor<1, Int>,
    second: Tensor<1, Int>,
    mirror: Tensor<1, Bool>,
    target: Tensor<2>,
    classes: Tensor<2, Int>,
}

impl StagedPairs {
    /// Uploads an epoch's pairs.
    pub fn new(pairs: &[Pair], device: &Device) -> StagedPairs {
        let n = pairs.len();
        let rows = |side: usize| upload_rows(pairs.iter().map(|p| p.ordered()[side].0), device);
        // Both positions of a pair are mirrored, or neither.
        let mirror: Vec<bool> = pairs.iter().map(|p| p.mirror).collect();
        let (target, classes) = pair_labels(pairs, device);
        StagedPairs {
            first: rows(0),
            second: rows(1),
            mirror: Tensor::from_data(TensorData::new(mirror, [n]), device),
            target,
            classes,
        }
    }

    /// Pairs `at..at + len` as a batch, their positions gathered from `encoded`.
    pub fn batch(&self, encoded: &DeviceEncoded, at: usize, len: usize) -> PairBatch {
        let mirror = self.mirror.clone().narrow(0, at, len);
        PairBatch {
            first: encoded.batch_where(self.first.clone().narrow(0, at, len), mirror.clone()),
            second: encoded.batch_where(self.second.clone().narrow(0, at, len), mirror),
            target: self.target.clone().narrow(0, at, len),
            classes: self.classes.clone().narrow(0, at, len),
        }
    }
}

#[cfg(all(test, feature = "flex"))]
mod tests {
    use super::*;
    use crate::data::random_records;

    /// A row's bits as a sorted list without padding.
    fn lists(positions: &Positions) -> Vec<Vec<i64>> {
        let [_, slots] = positions.indices.dims();
        let values = positions.indices.clone().into_data().convert::<i64>().try_to_vec::<i64>().unwrap();
        values
            .chunks_exact(slots)
            .map(|row| {
                let mut row: Vec<i64> = row.iter().copied().filter(|&b| b != PAD_INDEX as i64).collect();
                row.sort_unstable();
                row
            })
            .collect()
    }

    #[test]
    fn gathered_rows_and_mirror_images_are_the_hosts() {
        let records = random_records(300, 7);
        let encoded = Encoded::new(&records);
        let device = Device::flex();
        let on_device = DeviceEncoded::new(&encoded, &device);
        let picks: Vec<u32> = (0..200).map(|i| (i * 37 % 300) as u32).collect();
        let rows = upload_rows(picks.iter().copied(), &device);
        // Both sides to move occur, so the side-to-move bit is removed and added.
        let white = picks.iter().filter(|&&i| encoded.features(i).as_slice().contains(&SIDE_TO_MOVE_INDEX)).count();
        assert!(white > 0 && white < picks.len(), "{white} of {} with White to move", picks.len());
        for mirror in [false, true] {
            let host = encoded.batch(picks.iter().map(|&i| (i, mirror)), &device);
            let gathered = on_device.batch(rows.clone(), mirror);
            assert_eq!(gathered.indices.dims(), [picks.len(), SLOTS]);
            assert_eq!(lists(&gathered), lists(&host), "mirror {mirror}");
        }
    }

    #[test]
    fn staged_pairs_are_the_hosts_batches() {
        let records = random_records(120, 3);
        let encoded = Encoded::new(&records);
        let device = Device::flex();
        let on_device = DeviceEncoded::new(&encoded, &device);
        let pairs: Vec<Pair> = (0..64u32)
            .map(|i| Pair {
                better: i * 7 % 120,
                worse: (i * 11 + 5) % 120,
                label: 0.5 + (i % 5) as f32 / 10.0,
                swap: i % 3 == 0,
                mirror: i % 4 < 2,
            })
            .collect();
        let staged = StagedPairs::new(&pairs, &device);
        let (at, len) = (10, 40);
        let host = crate::train::runner::batch::pair_batch(&encoded, &pairs[at..at + len], &device);
        let gathered = staged.batch(&on_device, at, len);
        assert_eq!(lists(&gathered.first), lists(&host.first));
        assert_eq!(lists(&gathered.second), lists(&host.second));
        let floats = |t: Tensor<2>| t.into_data().try_to_vec::<f32>().unwrap();
        assert_eq!(floats(gathered.target), floats(host.target));
        let ints = |t: Tensor<2, Int>| t.into_data().convert::<i64>().try_to_vec::<i64>().unwrap();
        assert_eq!(ints(gathered.classes), ints(host.classes));
    }

    #[test]
    fn a_staged_epoch_gives_each_batch_its_items() {
        let device = Device::flex();
        let items: Vec<(u32, f32)> = (0..10).map(|i| (i * 3, i as f32 / 10.0)).collect();
        let (rows, targets) = StagedEpoch::new(&items, &device).slice(4, 3);
        assert_eq!(rows.into_data().convert::<i64>().try_to_vec::<i64>().unwrap(), [12, 15, 18]);
        assert_eq!(targets.dims(), [3, 1]);
        assert_eq!(targets.into_data().try_to_vec::<f32>().unwrap(), [0.4, 0.5, 0.6]);
    }
}
