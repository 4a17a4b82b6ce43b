//! Match rules: how the rounds of a match are linked — what each player carries from one
//! round to the next, who owns and who may play which hole, who starts, and when the match
//! ends. The engine plays them in `engine::round`.

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
    /// The player who started the previous round starts again.
    PreviousStarter,
    /// The player holding fewer seeds; when both hold as many, the player who did not start
    /// the last round.
    Poorer,
}

/// What happens to seeds a player cannot place in their own holes at a refill (R12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Surplus {
    /// They stay off the board in the player's reserve and count as theirs.
    Reserve,
    /// They fill the opponent's unfilled holes, which change owner for the round.
    OpponentHoles,
}

/// Which holes a player refills first (their territory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Territory {
    /// Their own row, every round: holes won by the opponent go back at the next refill.
    Rows,
    /// The holes they owned at the end of the last round (their row in round 1): holes won
    /// by surplus stay won until a refill cannot fill them.
    Kept,
}

/// How a player refills holes from what they hold (R12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Refill {
    /// Seeds per refilled hole.
    pub per_hole: u16,
    /// Holes that cannot be filled are closed for the round (else they stay open, empty).
    pub close_unfilled: bool,
    /// Seeds beyond the player's own holes.
    pub surplus: Surplus,
    /// Which holes a player fills first.
    pub territory: Territory,
    /// Holes are filled from the player's last hole (in sowing order) backwards.
    pub from_last: bool,
    /// The richer player fills only the holes at the places the poorer could fill (Adi).
    pub mirrored: bool,
    /// The two players' remainders go together into one more hole, owned by the one whose
    /// remainder is larger (none on a tie, unless the next field says so).
    pub leftover_hole: bool,
    /// Equal remainders go into the poorer player's hole (Gabata of Ghinda).
    pub leftover_tie_to_poorer: bool,
}

/// How the board of the next round is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Carry {
    /// Every round starts from the variant's layout; only the results are tallied.
    Fresh,
    /// Each player refills holes from what they hold (captures plus reserve).
    Refill(Refill),
}

/// How the winner of the match is decided when it ends by the round cap or by a first-to
/// rule (a player brought below `lose_below` loses at once, whatever this says).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum MatchScoring {
    /// More seeds held (captures plus reserve) wins.
    Seeds,
    /// More rounds won wins.
    RoundsWon,
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
    /// How the next round's board is made.
    pub carry: Carry,
    /// Who starts a round after the first (the first is the board's starter).
    pub starter: Starter,
    /// A player whose total is below this at the end of a round loses the match (0: never).
    pub lose_below: u16,
    /// The match ends after this many rounds.
    pub round_cap: u16,
    /// The match ends when a player has won this many rounds.
    pub first_to: Option<u16>,
    /// Who wins a match that ends by the round cap or the first-to rule.
    pub scoring: MatchScoring,
    /// Round-dependent rules, by first round.
    pub round_rules: Vec<RoundRule>,
}
