//! A training run's directory: its config, its checkpoints and its state,
//! each file replaced atomically (written to a temporary name, then
//! renamed), with `state.json` written last. A run killed at any moment
//! keeps its last completed epoch whole, and `--resume` continues from it.

use std::path::{Path, PathBuf};

use anyhow::Context;
use burn::config::Config;
use burn::module::Module;
use burn::optim::ModuleOptimizer;

/// The float network of the last completed epoch, in a run's directory.
pub const FLOAT_NETWORK: &str = "model.dcnf";
/// The float network of the best validation epoch, in a run's directory.
pub const BEST_FLOAT_NETWORK: &str = "best.dcnf";
/// A learner's `.dcsn` network of the last completed epoch, in its run's directory.
pub const LEARNED_NETWORK: &str = "model.dcsn";
/// A learner's `.dcsn` network of the best validation epoch.
pub const BEST_LEARNED_NETWORK: &str = "best.dcsn";
/// The AlphaZero network (`.dcaz`) of the last completed epoch.
pub const AZ_NETWORK: &str = "model.dcaz";
/// The AlphaZero network of the best validation epoch.
pub const BEST_AZ_NETWORK: &str = "best.dcaz";

/// The directory of one run.
pub struct RunDir {
    dir: PathBuf,
}

impl RunDir {
    /// Creates the directory if needed.
    pub fn create(dir: &Path) -> anyhow::Result<RunDir> {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        Ok(RunDir { dir: dir.to_owned() })
    }

    /// The run directory as another MPI rank knows it: it neither creates
    /// nor reads it (rank 0 does both).
    pub fn elsewhere(dir: &Path) -> RunDir {
        RunDir { dir: dir.to_owned() }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A file of the run.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Replaces `name` with `bytes` atomically.
    pub fn replace(&self, name: &str, bytes: &[u8]) -> anyhow::Result<()> {
        let tmp = self.path(&format!("{name}.tmp"));
        std::fs::write(&tmp, bytes)?;
        std::fs::rename(&tmp, self.path(name))?;
        Ok(())
    }

    /// Saves a module as `<name>.bpk` atomically.
    pub fn save_module<M: Module>(&self, name: &str, module: &M) -> anyhow::Result<()> {
        module.clone().save_file(self.path(&format!("{name}.tmp.bpk"))).map_err(|e| anyhow::anyhow!("{e:?}"))?;
        std::fs::rename(self.path(&format!("{name}.tmp.bpk")), self.path(&format!("{name}.bpk")))?;
        Ok(())
    }

    /// Loads `<name>.bpk` into `module` (which gives the shapes and the device).
    pub fn load_module<M: Module>(&self, name: &str, module: M) -> anyhow::Result<M> {
        let path = self.path(&format!("{name}.bpk"));
        anyhow::ensure!(path.exists(), "{} is missing", path.display());
        Ok(module.load_file(path))
    }

    /// Saves an optimizer's state as `<name>.bpk` atomically.
    pub fn save_optimizer(&self, name: &str, optim: &ModuleOptimizer) -> anyhow::Result<()> {
        optim.save(self.path(&format!("{name}.tmp.bpk"))).map_err(|e| anyhow::anyhow!("{e:?}"))?;
        std::fs::rename(self.path(&format!("{name}.tmp.bpk")), self.path(&format!("{name}.bpk")))?;
        Ok(())
    }

    /// Loads an optimizer's state from `<name>.bpk`.
    pub fn load_optimizer(&self, name: &str, optim: ModuleOptimizer) -> anyhow::Result<ModuleOptimizer> {
        optim.load(self.path(&format!("{name}.bpk"))).map_err(|e| anyhow::anyhow!("{e:?}"))
    }

    /// Writes the epoch's float network (`.dcnf` bytes) as [`FLOAT_NETWORK`],
    /// and as [`BEST_FLOAT_NETWORK`] too when `best`: what `deepchess
    /// export` reads.
    pub fn save_float(&self, bytes: &[u8], best: bool) -> anyhow::Result<()> {
        self.save_network(FLOAT_NETWORK, BEST_FLOAT_NETWORK, bytes, best)
    }

    /// Writes the epoch's learner network (`.dcsn` bytes) as
    /// [`LEARNED_NETWORK`], and as [`BEST_LEARNED_NETWORK`] too when `best`.
    pub fn save_learned(&self, bytes: &[u8], best: bool) -> anyhow::Result<()> {
        self.save_network(LEARNED_NETWORK, BEST_LEARNED_NETWORK, bytes, best)
    }

    /// Writes the epoch's AlphaZero network (`.dcaz` bytes) as
    /// [`AZ_NETWORK`], and as [`BEST_AZ_NETWORK`] too when `best`.
    pub fn save_az(&self, bytes: &[u8], best: bool) -> anyhow::Result<()> {
        self.save_network(AZ_NETWORK, BEST_AZ_NETWORK, bytes, best)
    }

    fn save_network(&self, last: &str, best_name: &str, bytes: &[u8], best: bool) -> anyhow::Result<()> {
        self.replace(last, bytes)?;
        if best {
            self.replace(best_name, bytes)?;
        }
        Ok(())
    }

    /// The run's configuration: with `resume`, the one saved in
    /// `config.json` (a resumed run keeps its own, whatever the command line
    /// says); otherwise `given`, saved there.
    pub fn config<C: Config>(&self, given: C, resume: bool) -> anyhow::Result<C> {
        let path = self.path("config.json");
        if resume && path.exists() {
            return C::load(&path).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()));
        }
        given.save(&path).with_context(|| format!("cannot write {}", path.display()))?;
        Ok(given)
    }

    /// The saved state, if the run has completed an epoch.
    pub fn state(&self) -> anyhow::Result<Option<serde_json::Value>> {
        let path = self.path("state.json");
        if !path.exists() {
            return Ok(None);
        }
        let text = std::fs::read_to_string(&path)?;
        Ok(Some(serde_json::from_str(&text).with_context(|| format!("bad {}", path.display()))?))
    }

    /// Writes the state: the last file of a checkpoint.
    pub fn set_state(&self, state: serde_json::Value) -> anyhow::Result<()> {
        self.replace("state.json", state.to_string().as_bytes())
    }
}

/// A field of a run's state.
pub fn state_field(state: &serde_json::Value, name: &str) -> anyhow::Result<usize> {
    state[name].as_u64().map(|v| v as usize).with_context(|| format!("state.json lacks {name}"))
}
