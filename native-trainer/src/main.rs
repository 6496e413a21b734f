//! `deepchess`: the DeepChess command-line tool.

use clap::{Parser, Subcommand};
use deepchess_trainer::cluster;
use deepchess_trainer::commands::{bench, data, datagen, encode, eval, export, r#match, perft, uci};

/// See `deepchess_trainer::allocator`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// DeepChess: chess networks that learn from games, with no hand-written evaluation.
#[derive(Parser)]
#[command(name = "deepchess", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the active input bits of a position (the paper's 773-bit encoding).
    Encode(encode::Args),
    /// Run the UCI engine on standard input and output.
    Uci(uci::Args),
    /// Search the fixed bench positions to a depth or for a time (`--movetime`), with any
    /// network and search: node signature, nodes/s and depth reached.
    Bench(bench::Args),
    /// Build, inspect and sample training data.
    #[command(subcommand)]
    Data(data::Command),
    /// Play engine-vs-engine games for training data, other engines or our engine against
    /// itself at a fixed node count, each move with its score (zstd PGN, resumable).
    Datagen(datagen::Args),
    /// Train networks: DeepChess's (Pos2Vec, Siamese, distillation, utility head, value
    /// network) and the other learners (DBN, Deep Pink, NeuroChess, AlphaZero).
    #[cfg(feature = "train")]
    #[command(subcommand)]
    Train(deepchess_trainer::commands::train::Command),
    /// A trained checkpoint as a content-named weights file: a DeepChess float network
    /// quantized into `deepchess-<hash>.dcnn`; a learner's `.dcsn` or the AlphaZero reimplementation's
    /// `.dcaz` checked and named.
    Export(export::Args),
    /// Play our engine against another engine (UCI or xboard), one game at a time or more:
    /// W/D/L, Elo, forfeits apart, SPRT (`--sprt`), PGN, resumable.
    Match(r#match::Args),
    /// Count the legal move tree: one position divided by first move (`--fen`, `--depth`), or
    /// every line of an EPD perft suite against its counts (`--epd`), the search's move path
    /// held to shakmaty at every node with `--check-path`.
    Perft(perft::Args),
    /// Measure a network: held-out accuracy, test suites (EPD), the paper's static tests,
    /// the AlphaZero network's policy and value.
    #[command(subcommand)]
    Eval(eval::Command),
}

fn main() -> std::process::ExitCode {
    deepchess_trainer::allocator::keep_freed_memory();
    let cli = Cli::parse();
    // Test builds only: the fail points named in `FAILPOINTS` (see Cargo.toml).
    #[cfg(feature = "failpoints")]
    let _failpoints = fail::FailScenario::setup();
    // `match` and `datagen` write to other engines' pipes; `uci` handles its own.
    if !matches!(cli.command, Command::Match(_) | Command::Datagen(_) | Command::Uci(_)) {
        deepchess_trainer::broken_pipe::end_quietly_when_nobody_reads();
    }
    // MPI, where a launcher started this process (kept until the command ends).
    let splits = matches!(cli.command, Command::Datagen(_)) || is_train(&cli.command);
    let session = match cluster::start(splits) {
        Ok(session) => session,
        Err(err) => {
            eprintln!("error: {err:#}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let result = run(cli.command);
    if let Err(err) = &result {
        // Under mpirun, one rank's error ends them all (with its message).
        cluster::abort_others(err);
    }
    session.finish();
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Runs one command.
fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Encode(args) => encode::run(&args),
        Command::Perft(args) => perft::run(&args),
        Command::Uci(args) => uci::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Data(command) => data::run(&command),
        Command::Datagen(args) => datagen::run(&args),
        #[cfg(feature = "train")]
        Command::Train(command) => deepchess_trainer::commands::train::run(&command),
        Command::Export(args) => export::run(&args),
        Command::Eval(command) => eval::run(&command),
        Command::Match(args) => r#match::run(&args),
    }
}

/// Whether `command` is `train …`.
fn is_train(command: &Command) -> bool {
    #[cfg(feature = "train")]
    if matches!(command, Command::Train(_)) {
        return true;
    }
    let _ = command;
    false
}
