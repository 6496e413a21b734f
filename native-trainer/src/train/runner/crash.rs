//! What a panic during training leaves behind, and says.
//!
//! A backend can panic after the device is chosen (a GPU driver's error, a
//! kernel that fails to compile, memory that runs out on the device). The
//! epoch runner saves a checkpoint after every epoch, each file replaced
//! atomically and `state.json` last, so such a panic never damages the last
//! one; what it must do is end the run with a clear error that says where
//! that checkpoint is and how to continue.
//!
//! Two ways, one per panic strategy:
//! - where panics unwind (the test and dev profiles), the runner catches the
//!   panic of an epoch ([`guard`]) and returns it as an error, which `main`
//!   prints (and under `mpirun`, ends the other ranks with);
//! - where they abort (the release profile), nothing can be caught: the
//!   panic hook ([`install_hook`]) prints the same sentence before the
//!   process aborts.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

/// The run in progress, for the hook: its directory and the epochs its
/// checkpoint holds.
static RUN: Mutex<Option<(PathBuf, usize)>> = Mutex::new(None);

/// Records that `dir`'s checkpoint now holds `epochs_done` epochs (the
/// hook's sentence names them).
pub fn checkpointed(dir: &Path, epochs_done: usize) {
    *RUN.lock().unwrap_or_else(|e| e.into_inner()) = Some((dir.to_path_buf(), epochs_done));
}

/// Forgets the run (it ended, well or not).
pub fn finished() {
    *RUN.lock().unwrap_or_else(|e| e.into_inner()) = None;
}

/// The run [`checkpointed`] last named, if it has not finished.
fn current() -> Option<(PathBuf, usize)> {
    RUN.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// What a panic in epoch `epochs_done + 1` of the run in `dir` leaves: the
/// sentence both ways print.
fn message(dir: &Path, epochs_done: usize, panic: &str) -> String {
    let saved = if epochs_done == 0 {
        String::from("no epoch had completed, so nothing was saved; start the run again")
    } else {
        format!(
            "its checkpoint in {} holds the {epochs_done} completed epoch{} and is intact: continue with the same \
             command and --resume",
            dir.display(),
            if epochs_done == 1 { "" } else { "s" }
        )
    };
    format!("training stopped by a panic in epoch {}: {panic}; {saved}", epochs_done + 1)
}

/// The text of a panic's payload.
fn payload_text(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        String::from("(a panic without a message)")
    }
}

/// Installs, once, a panic hook that runs the previous one (the panic's own
/// message and location) and then, where panics abort and a run is under
/// way, says what `message` says.
pub fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            previous(info);
            if cfg!(panic = "abort")
                && let Some((dir, done)) = current()
            {
                eprintln!("error: {}", message(&dir, done, &payload_text(info.payload())));
            }
        }));
    });
}

/// Runs the epochs (`body`) of the run last named by [`checkpointed`]: a
/// panic inside them becomes an error that says what `message` says.
pub fn guard<T>(body: impl FnOnce() -> anyhow::Result<T>) -> anyhow::Result<T> {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(result) => result,
        Err(payload) => {
            let panic = payload_text(payload.as_ref());
            Err(match current() {
                Some((dir, done)) => anyhow::anyhow!(message(&dir, done, &panic)),
                None => anyhow::anyhow!("training stopped by a panic: {panic}"),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // One test: the run it names is process-wide.
    #[test]
    fn a_panic_in_an_epoch_becomes_an_error_naming_the_checkpoint() {
        let dir = Path::new("runs/x");
        checkpointed(dir, 2);
        let err = guard::<()>(|| panic!("device lost")).unwrap_err().to_string();
        assert_eq!(
            err,
            "training stopped by a panic in epoch 3: device lost; its checkpoint in runs/x holds the 2 completed \
             epochs and is intact: continue with the same command and --resume"
        );
        checkpointed(dir, 0);
        let err = guard::<()>(|| panic!("{}", String::from("out of memory"))).unwrap_err().to_string();
        assert!(err.starts_with("training stopped by a panic in epoch 1: out of memory; no epoch"), "{err}");
        assert_eq!(guard(|| Ok(5)).unwrap(), 5);
        assert_eq!(guard::<()>(|| anyhow::bail!("plain error")).unwrap_err().to_string(), "plain error");
        finished();
        assert_eq!(guard::<()>(|| panic!("late")).unwrap_err().to_string(), "training stopped by a panic: late");
    }
}
