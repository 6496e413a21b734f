//! Times both libraries' perft and walk natively over the suite: one line
//! each, `work library seconds count` (`run.mjs` reads them beside its own
//! WebAssembly timings).

use std::time::Instant;

use deepchess_movegen_bench::{DEPTHS, Library, Work, count, depth, expected};

fn main() {
    for work in [Work::Perft, Work::Walk] {
        for library in [Library::Shakmaty, Library::Cozy] {
            let start = Instant::now();
            let mut total = 0;
            for index in 0..DEPTHS.len() {
                let depth = depth(work, index);
                let n = count(library, work, index, depth);
                if work == Work::Perft && n != expected(index, depth) {
                    eprintln!(
                        "{library:?}: position {index} depth {depth}: {n}, the suite says {}",
                        expected(index, depth)
                    );
                    std::process::exit(1);
                }
                total += n;
            }
            let seconds = start.elapsed().as_secs_f64();
            println!("{work:?} {library:?} {seconds:.4} {total}");
        }
    }
}
