//! The processes of one run: a single process, or the ranks that `mpirun`
//! started (the `mpi` feature), on one machine or several.
//!
//! `deepchess train …` and `deepchess datagen` split their work across the
//! ranks (see `train::runner::epochs` and `commands::datagen`); every other
//! command refuses to run under a launcher with more than one rank. A process
//! is one rank of several when an MPI launcher's environment says so
//! (`OMPI_COMM_WORLD_SIZE`, `PMI_SIZE`, `PMIX_SIZE`); otherwise MPI is not
//! initialized at all, and every function here is the one-process identity.
//!
//! MPI is called from the main thread only (`MPI_THREAD_FUNNELED`): the
//! trainer's steps and datagen's collector run there, their worker threads
//! hand results to it.
//!
//! Why MPI: it is what data-parallel training across machines is built on
//! (Horovod's all-reduce, every HPC cluster), with mature implementations in
//! every distribution; burn 0.22's own all-reduce runs in one process on CUDA
//! only.

use std::sync::atomic::{AtomicUsize, Ordering};

static RANK: AtomicUsize = AtomicUsize::new(0);
static SIZE: AtomicUsize = AtomicUsize::new(1);

/// The environment variables by which MPI launchers (Open MPI's `mpirun`,
/// MPICH's Hydra, PMIx) tell a process that it is one of several.
const LAUNCHER_SIZE: [&str; 3] = ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"];

/// Whether an environment variable is one an MPI launcher sets for its
/// ranks (removed from the environment of the engines a rank starts).
pub fn is_launcher_variable(name: &str) -> bool {
    ["OMPI_", "PMI_", "PMIX_", "OPAL_", "ORTE_", "PRTE_", "HYDRA_"].iter().any(|p| name.starts_with(p))
}

/// How many processes the launcher says it started, if any did.
fn launched_size() -> Option<usize> {
    LAUNCHER_SIZE.iter().find_map(|name| std::env::var(name).ok()?.trim().parse().ok())
}

/// Keeps MPI initialized while it lives (MPI is finalized when it drops).
/// Made once, in `main`, by [`start`].
pub struct Session {
    #[cfg(feature = "mpi")]
    _universe: Option<mpi::environment::Universe>,
}

impl Session {
    /// Ends MPI (`MPI_Finalize`) where [`start`] started it.
    pub fn finish(self) {
        #[cfg(feature = "mpi")]
        drop(self._universe);
    }
}

/// Joins the launcher's ranks when a launcher started this process and the
/// command `splits` its work, or runs alone. An error where a launcher
/// started several processes of a command that does not split (each would
/// run it whole), or of a build without the `mpi` feature.
pub fn start(splits: bool) -> anyhow::Result<Session> {
    let size = launched_size().unwrap_or(1);
    anyhow::ensure!(
        size <= 1 || splits,
        "this command runs in one process; under mpirun only `train` and `datagen` split their work"
    );
    #[cfg(feature = "mpi")]
    if splits && launched_size().is_some() {
        use mpi::traits::Communicator;
        let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Funneled)
            .ok_or_else(|| anyhow::anyhow!("MPI was already initialized"))?;
        let world = universe.world();
        RANK.store(world.rank() as usize, Ordering::Relaxed);
        SIZE.store(world.size() as usize, Ordering::Relaxed);
        return Ok(Session { _universe: Some(universe) });
    }
    anyhow::ensure!(
        size <= 1,
        "an MPI launcher started {size} processes, but this deepchess was built without the `mpi` feature \
         (cargo build --release -p deepchess-trainer --features mpi)"
    );
    Ok(Session {
        #[cfg(feature = "mpi")]
        _universe: None,
    })
}

/// This process's rank, 0 to [`size`] − 1.
pub fn rank() -> usize {
    RANK.load(Ordering::Relaxed)
}

/// The number of ranks (1 without a launcher).
pub fn size() -> usize {
    SIZE.load(Ordering::Relaxed)
}

/// Whether this is rank 0, the one that writes checkpoints, metrics and
/// output files and prints progress.
pub fn is_root() -> bool {
    rank() == 0
}

/// An error unless this run is one process: for the commands that do not
/// split their work.
pub fn ensure_single(command: &str) -> anyhow::Result<()> {
    anyhow::ensure!(
        size() == 1,
        "`deepchess {command}` runs in one process; under mpirun only the learners and `datagen` split their work"
    );
    Ok(())
}

/// The part of `0..len` that rank `rank` of `size` takes: contiguous,
/// disjoint, covering `0..len`, sizes differing by at most one.
pub fn share(len: usize, rank: usize, size: usize) -> std::ops::Range<usize> {
    (len * rank / size)..(len * (rank + 1) / size)
}

/// Replaces `values` on every rank by their element-wise sum over the
/// ranks (`MPI_Allreduce`).
pub fn all_reduce_sum(values: &mut [f32]) {
    #[cfg(feature = "mpi")]
    if size() > 1 {
        use mpi::collective::SystemOperation;
        use mpi::traits::CommunicatorCollectives;
        let send = values.to_vec();
        world().all_reduce_into(&send[..], values, SystemOperation::sum());
    }
    let _ = values;
}

/// Rank 0's `bytes` on every rank (`MPI_Bcast`, its length first).
pub fn broadcast(bytes: Vec<u8>) -> Vec<u8> {
    #[cfg(feature = "mpi")]
    if size() > 1 {
        use mpi::traits::{Communicator, Root};
        let world = world();
        let root = world.process_at_rank(0);
        let mut len = bytes.len() as u64;
        root.broadcast_into(&mut len);
        let mut bytes = if is_root() { bytes } else { vec![0u8; len as usize] };
        root.broadcast_into(&mut bytes[..]);
        return bytes;
    }
    bytes
}

/// Every rank's `bytes`, in rank order, on every rank (one broadcast from
/// each rank in turn).
pub fn all_gather(bytes: Vec<u8>) -> Vec<Vec<u8>> {
    #[cfg(feature = "mpi")]
    if size() > 1 {
        use mpi::traits::{Communicator, Root};
        let world = world();
        let mut mine = Some(bytes);
        return (0..size())
            .map(|from| {
                let root = world.process_at_rank(from as i32);
                let own = from == rank();
                let mut len = if own { mine.as_ref().map_or(0, Vec::len) as u64 } else { 0 };
                root.broadcast_into(&mut len);
                let mut buffer = if own { mine.take().unwrap_or_default() } else { vec![0u8; len as usize] };
                root.broadcast_into(&mut buffer[..]);
                buffer
            })
            .collect();
    }
    vec![bytes]
}

/// Rank 0's `value` on every rank.
pub fn broadcast_u64(value: u64) -> u64 {
    let bytes = broadcast(value.to_le_bytes().to_vec());
    u64::from_le_bytes(bytes.try_into().expect("eight bytes"))
}

/// Ends every rank: the error, with this rank's number, on standard error,
/// then `MPI_Abort`, which makes the launcher stop the others and exit with
/// an error. Without MPI, or alone, only returns.
pub fn abort_others(err: &anyhow::Error) {
    #[cfg(feature = "mpi")]
    if size() > 1 {
        use mpi::traits::Communicator;
        eprintln!("error (rank {} of {}): {err:#}", rank(), size());
        world().abort(1);
    }
    let _ = err;
}

/// Datagen's messages to rank 0: a finished game, or a rank's end.
#[cfg(feature = "mpi")]
pub mod messages {
    use mpi::point_to_point::{Destination, Source};
    use mpi::traits::Communicator;

    /// The tag of a message carrying a finished game.
    const GAME: i32 = 1;
    /// The tag of the empty message a rank sends when it has no more games.
    const DONE: i32 = 2;

    /// Sends `bytes` (a game) to rank 0.
    pub fn send_game(bytes: &[u8]) {
        super::world().process_at_rank(0).send_with_tag(bytes, GAME);
    }

    /// Tells rank 0 that this rank has sent all its games.
    pub fn send_done() {
        super::world().process_at_rank(0).send_with_tag(&[0u8][..], DONE);
    }

    /// On rank 0: a waiting message from another rank, if one has come:
    /// `Some(Some(game))`, or `Some(None)` for a rank's end.
    pub fn try_receive() -> Option<Option<Vec<u8>>> {
        let (message, status) = super::world().any_process().immediate_matched_probe()?;
        let (bytes, _) = mpi::point_to_point::MatchedReceiveVec::matched_receive_vec::<u8>((message, status));
        Some((status.tag() == GAME).then_some(bytes))
    }
}

#[cfg(feature = "mpi")]
fn world() -> mpi::topology::SimpleCommunicator {
    mpi::topology::SimpleCommunicator::world()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_cover_a_range_once() {
        for len in [0, 1, 5, 256, 1001] {
            for size in 1..=5 {
                let shares: Vec<_> = (0..size).map(|r| share(len, r, size)).collect();
                assert_eq!(shares[0].start, 0);
                assert_eq!(shares[size - 1].end, len);
                for pair in shares.windows(2) {
                    assert_eq!(pair[0].end, pair[1].start);
                }
                let lens: Vec<_> = shares.iter().map(|s| s.len()).collect();
                assert!(lens.iter().max().unwrap() - lens.iter().min().unwrap() <= 1, "{lens:?}");
            }
        }
    }

    #[test]
    fn alone_the_collectives_are_identities() {
        let mut values = [1.5f32, -2.0];
        all_reduce_sum(&mut values);
        assert_eq!(values, [1.5, -2.0]);
        assert_eq!(broadcast(vec![1, 2, 3]), [1, 2, 3]);
        assert_eq!(all_gather(vec![4, 5]), [vec![4, 5]]);
        assert_eq!(broadcast_u64(42), 42);
        assert!(is_root());
    }
}
