//! Match arithmetic: score, Elo difference with a 95% interval, likelihood
//! of superiority (the formulas cutechess and BayesElo users know), and the
//! match's tally with forfeits apart ([`Tally`]).

use deepchess_core::shakmaty::Color;

use crate::data::GameResult;

/// A match's games won, drawn and lost, from one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// An Elo difference and its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// Most likely difference.
    pub diff: f64,
    /// Lower end of the 95% interval.
    pub lower: f64,
    /// Upper end of the 95% interval.
    pub upper: f64,
}

/// The Elo difference that predicts `score` (0 < score < 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Our points for a game's result, as White or as Black: 1, ½ or 0.
pub fn points(result: GameResult, ours_white: bool) -> f64 {
    match (result, ours_white) {
        (GameResult::Draw, _) => 0.5,
        (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => 1.0,
        _ => 0.0,
    }
}

/// Whether `forfeit` (the side that forfeited and how) is the opponent's,
/// for us as White or as Black.
pub fn opponent_forfeited(forfeit: Option<(Color, Forfeit)>, ours_white: bool) -> bool {
    forfeit.is_some_and(|(side, _)| (side == Color::White) != ours_white)
}

impl Score {
    /// Counts one game's result, for us as White or as Black.
    pub fn add(&mut self, result: GameResult, ours_white: bool) {
        match (result, ours_white) {
            (GameResult::Draw, _) => self.draws += 1,
            (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => self.wins += 1,
            _ => self.losses += 1,
        }
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, 0 to 1.
    pub fn fraction(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games().max(1))
    }

    /// Elo difference with a 95% interval from the per-game variance of the
    /// score; `None` when the score is 0 or 1 (the difference is unbounded).
    pub fn elo(&self) -> Option<Elo> {
        let n = f64::from(self.games());
        let s = self.fraction();
        if n == 0.0 || s <= 0.0 || s >= 1.0 {
            return None;
        }
        let variance = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        let margin = 1.959_964 * (variance / n).sqrt();
        let clamp = |x: f64| x.clamp(1e-6, 1.0 - 1e-6);
        Some(Elo {
            diff: elo_from_score(s),
            lower: elo_from_score(clamp(s - margin)),
            upper: elo_from_score(clamp(s + margin)),
        })
    }

    /// The 95% interval of the score (points per game, 0 to 1): Wilson's
    /// score interval over the games, a draw counting half. Unlike the
    /// normal interval of [`Score::elo`], it stays open at a score of 0 or
    /// 1 (0 of 20 games won: 0 to 16.1%).
    pub fn interval(&self) -> (f64, f64) {
        let n = f64::from(self.games());
        if n == 0.0 {
            return (0.0, 1.0);
        }
        let (s, z) = (self.fraction(), 1.959_964_f64);
        let centre = (s + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z / (1.0 + z * z / n) * (s * (1.0 - s) / n + z * z / (4.0 * n * n)).sqrt();
        ((centre - half).max(0.0), (centre + half).min(1.0))
    }

    /// Likelihood of superiority: the probability that the first player is
    /// stronger, from wins and losses (draws carry no information).
    pub fn los(&self) -> f64 {
        let (w, l) = (f64::from(self.wins), f64::from(self.losses));
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + libm::erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

impl std::fmt::Display for Score {
    /// `+12 =5 -3 (72.5%), Elo +168 [+64, +345], LOS 99.5%`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "+{} ={} -{} ({:.1}%)", self.wins, self.draws, self.losses, 100.0 * self.fraction())?;
        match self.elo() {
            Some(e) => write!(f, ", Elo {:+.0} [{:+.0}, {:+.0}]", e.diff, e.lower, e.upper)?,
            None => write!(f, ", Elo {}", if self.fraction() >= 1.0 { "+inf" } else { "-inf" })?,
        }
        write!(f, ", LOS {:.1}%", 100.0 * self.los())
    }
}

/// How a game was lost by forfeit rather than played to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// The engine crashed, quit or stopped answering.
    Crash,
    /// The engine ran out of time.
    Time,
    /// The engine sent an illegal or malformed move.
    Illegal,
}

/// Forfeits by kind: crashes, time losses, illegal moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Forfeits {
    /// Crashes, exits and hangs.
    pub crashes: u32,
    /// Losses on time.
    pub time: u32,
    /// Illegal moves.
    pub illegal: u32,
}

impl Forfeits {
    fn add(&mut self, forfeit: Forfeit) {
        *match forfeit {
            Forfeit::Crash => &mut self.crashes,
            Forfeit::Time => &mut self.time,
            Forfeit::Illegal => &mut self.illegal,
        } += 1;
    }

    /// All of them.
    pub fn total(&self) -> u32 {
        self.crashes + self.time + self.illegal
    }
}

impl std::fmt::Display for Forfeits {
    /// `3 (crashes 1, on time 2, illegal moves 0)`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (crashes {}, on time {}, illegal moves {})", self.total(), self.crashes, self.time, self.illegal)
    }
}

/// A match from our side. The headline score leaves out the games the
/// opponent forfeited (its crashes, time losses and illegal moves say
/// nothing of our strength); our own forfeits stay in it as losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Every game that was played to its end or that we forfeited.
    pub headline: Score,
    /// Every game, the opponent's forfeits included.
    pub all: Score,
    /// The opponent's forfeits (our wins, left out of the headline).
    pub theirs: Forfeits,
    /// Our forfeits (our losses, counted in the headline).
    pub ours: Forfeits,
    /// The headline's games split by our colour: as White, as Black.
    pub by_colour: [Score; 2],
}

impl Tally {
    /// Counts one game: its result, whether we had White, and the side
    /// that forfeited it and how, if one did.
    pub fn add(&mut self, result: GameResult, ours_white: bool, forfeit: Option<(Color, Forfeit)>) {
        self.all.add(result, ours_white);
        match forfeit {
            Some((_, how)) if opponent_forfeited(forfeit, ours_white) => {
                self.theirs.add(how);
                return;
            }
            Some((_, how)) => self.ours.add(how),
            None => {}
        }
        self.headline.add(result, ours_white);
        self.by_colour[usize::from(!ours_white)].add(result, ours_white);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opponents_forfeits_are_left_out_and_ours_count() {
        let mut tally = Tally::default();
        // We are White: a win, the opponent's crash, its time loss, our crash.
        tally.add(GameResult::WhiteWins, true, None);
        tally.add(GameResult::WhiteWins, true, Some((Color::Black, Forfeit::Crash)));
        tally.add(GameResult::BlackWins, false, Some((Color::White, Forfeit::Time)));
        tally.add(GameResult::BlackWins, true, Some((Color::White, Forfeit::Crash)));
        assert_eq!(tally.headline, Score { wins: 1, draws: 0, losses: 1 });
        assert_eq!(tally.by_colour, [Score { wins: 1, draws: 0, losses: 1 }, Score::default()]);
        assert_eq!(tally.all, Score { wins: 3, draws: 0, losses: 1 });
        assert_eq!(tally.theirs, Forfeits { crashes: 1, time: 1, illegal: 0 });
        assert_eq!(tally.ours, Forfeits { crashes: 1, time: 0, illegal: 0 });
        assert_eq!(tally.theirs.to_string(), "2 (crashes 1, on time 1, illegal moves 0)");
    }

    #[test]
    fn the_score_interval_is_wilsons_and_stays_open_at_the_ends() {
        let close = |(a, b): (f64, f64), (c, d): (f64, f64)| (a - c).abs() < 5e-4 && (b - d).abs() < 5e-4;
        // Wilson at 0 of 20: up to z² / (n + z²) = 16.1%.
        assert!(close(Score { wins: 0, draws: 0, losses: 20 }.interval(), (0.0, 0.1611)));
        assert!(close(Score { wins: 20, draws: 0, losses: 0 }.interval(), (0.8389, 1.0)));
        // Even scores are centred on one half; more games, a narrower interval.
        let (lo, hi) = Score { wins: 8, draws: 4, losses: 8 }.interval();
        assert!((lo + hi - 1.0).abs() < 1e-12 && close((lo, hi), (0.2993, 0.7007)));
        let (lo400, hi400) = Score { wins: 160, draws: 80, losses: 160 }.interval();
        assert!(hi400 - lo400 < (hi - lo) / 4.0);
        assert_eq!(Score::default().interval(), (0.0, 1.0));
    }
}
