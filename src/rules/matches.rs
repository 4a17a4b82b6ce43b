//! Match rules: how rounds are linked. Validated and shown by `explain`; played by `sim` later.

use serde::Serialize;

use super::ending::Award;

/// Who starts the next round (R13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Starter {
    /// The winner of the previous round; after a draw, the player who did not start it.
    RoundWinner,
    /// The loser of the previous round; after a draw, the player who did not start it.
    RoundLoser,
    /// Players take turns starting.
    Alternate,
}

/// What happens to seeds a player cannot place at a refill (R12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Surplus {
    /// They stay off the board in the player's reserve and count as theirs.
    Reserve,
    /// They fill the opponent's closed holes, which change owner for the round.
    OpponentHoles,
}

/// A rule that holds only from a given round on (Hoyito III's last four).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct RoundRule {
    /// First round (1-based) the rule applies to.
    pub from_round: u16,
    /// Who takes the last seeds in those rounds.
    pub last_seeds_to: Award,
}

/// Match play.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct MatchRules {
    /// Seeds per hole at each refill.
    pub refill: u16,
    /// Holes that cannot be filled are closed for the round.
    pub close_unfilled: bool,
    /// Seeds that cannot be placed.
    pub surplus: Surplus,
    /// Who starts a round.
    pub starter: Starter,
    /// A player whose total is below this at the end of a round loses the match.
    pub lose_below: u16,
    /// The match ends after this many rounds, scored by totals.
    pub round_cap: u16,
    /// Round-dependent rules.
    pub round_rules: Vec<RoundRule>,
}
