//! `deepchess train paper-table`: every learner's `paper` preset beside
//! its work, setting by setting, in the Markdown that docs/presets.md
//! holds (a test keeps the two equal).

use crate::train::alphazero::supervised::AzConfig;
use crate::train::deepchess::pos2vec::Pos2VecConfig;
use crate::train::deepchess::siamese::SiameseConfig;
use crate::train::learned::dbn::DbnConfig;
use crate::train::learned::deep_pink::DeepPinkConfig;
use crate::train::learned::neurochess::NeuroChessConfig;
use crate::train::runner::paper::PaperTable;

/// Every learner's table, in the order docs/presets.md gives them.
pub fn tables() -> Vec<PaperTable> {
    let mut tables = vec![
        Pos2VecConfig::paper_table(),
        SiameseConfig::paper_table(),
        DbnConfig::paper_table(),
        NeuroChessConfig::paper_table(),
        DeepPinkConfig::paper_table(),
    ];
    tables.extend(AzConfig::paper_tables());
    tables
}

/// The tables in Markdown, one after another.
pub fn markdown() -> String {
    tables().iter().map(PaperTable::markdown).collect::<Vec<_>>().join("\n")
}

/// Prints [`markdown`].
pub fn run() -> anyhow::Result<()> {
    print!("{}", markdown());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docs_hold_every_table_as_the_code_gives_it() {
        let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/presets.md")).unwrap();
        let missing: Vec<String> = tables().iter().map(PaperTable::markdown).filter(|t| !docs.contains(t)).collect();
        assert!(missing.is_empty(), "docs/presets.md lacks (`deepchess train paper-table`):\n{}", missing.join("\n"));
    }

    #[test]
    fn a_row_says_why_exactly_where_ours_differs() {
        for table in tables() {
            for row in &table.rows {
                assert_eq!(row.why.is_empty(), row.ours == row.theirs, "{}: {}", table.command, row.setting);
            }
        }
    }
}
