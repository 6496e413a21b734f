//! `--preset smoke|quick|paper`: which configuration a learner starts from.
//! Each learner keeps its own presets beside its code (`presets.rs` in
//! `deepchess/`, `learned/` and `alphazero/`), as `XConfig::preset`.

/// `--preset`: a configuration to start from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Preset {
    /// For tests: the distilled shape, tiny epochs (seconds).
    Smoke,
    /// Under an hour on this project's 2-core machine.
    Quick,
    /// Each work's own sizes, schedules and settings, as its paper gives
    /// them (`seed` is the same preset).
    #[value(alias = "seed")]
    Paper,
}
