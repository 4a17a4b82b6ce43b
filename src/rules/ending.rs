//! End rules: when a game is over, who gets the seeds left, and who wins.

use serde::Serialize;

/// Who receives seeds left on the board when an end rule fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Award {
    /// The player who made the last capture (R2).
    Capturer,
    /// The player whose turn it is (R8).
    PlayerToMove,
    /// The player who made the last move.
    LastMover,
    /// Each side's seeds to that side's owner (R10).
    Owners,
    /// Split evenly; an odd seed stays unawarded.
    Split,
    /// Split evenly; an odd seed goes to the player who has captured fewer.
    SplitOddToPoorer,
    /// The opponent of the player whose turn it is.
    Opponent,
    /// The player who moved first in the game.
    Starter,
    /// Nobody: they leave the game.
    Nobody,
    /// The winner of the previous round of a match (Hoyito III, rounds 3 on).
    PreviousWinner,
}

/// When the last-seeds rule is checked (R2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum LastSeedsCheck {
    /// After every capture, counting seeds on the board and in hand, even mid-sowing.
    AfterCapture,
    /// When the move has ended, counting the board.
    AfterMove,
}

/// "When only N seeds remain, they go to ...".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct LastSeeds {
    /// The game ends when at most this many seeds are in play.
    pub at_most: u16,
    /// When that is checked.
    pub check: LastSeedsCheck,
    /// Who takes them.
    pub to: Award,
}

/// What a player with no legal move does (R3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum NoMove {
    /// They pass; if the opponent cannot move either, the game ends (`no-moves`).
    Pass,
    /// The game ends and the board goes to the given party.
    EndGame(Award),
}

/// What is done with a move whose sowing can never end (R11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Endless {
    /// It is not a legal move.
    Illegal,
    /// Choosing it ends the game; the board is swept by side.
    EndsGame,
    /// It is legal and stops when the drop cap is reached.
    StopAtCap,
}

/// How the winner is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Scoring {
    /// More seeds captured wins; equal is a draw.
    MostCaptured,
    /// A player who cannot move when it is their turn loses (and the game ends then).
    StuckLoses,
    /// The first player whose holes are all empty after their own move wins.
    EmptiedWins,
    /// A player whose holes are all empty once a move is over loses at once, whoever moved;
    /// where both rows are, the captured totals decide.
    EmptiedLoses,
}

/// Whose row an empty-row rule looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum RowTest {
    /// Either player's.
    Either,
    /// The mover's own, after their move.
    Mover,
    /// The opponent's, after the mover's move.
    Opponent,
}

/// The end of a game by captured seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Majority {
    /// Half the seeds is enough (Chonka), not more than half.
    pub at_half: bool,
    /// Who gets the board then.
    pub award: Award,
}

/// An end rule that can be tried after a move, as an `order:` line names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum EndCheck {
    /// `last seeds` (checked after the move).
    LastSeeds,
    /// `majority`.
    Majority,
    /// `empty row`.
    EmptyRow,
    /// `singletons`.
    Singletons,
    /// `no capture for`.
    Quiet,
    /// `no move`: the player to move next cannot move, and the rules end the game then.
    NoMove,
}

impl EndCheck {
    /// The order the engine tries the rules in after a move when a file states none; `no
    /// move` is looked at when the next turn starts.
    pub const USUAL_AFTER_MOVE: [EndCheck; 5] = [
        EndCheck::LastSeeds,
        EndCheck::Majority,
        EndCheck::EmptyRow,
        EndCheck::Singletons,
        EndCheck::Quiet,
    ];

    /// The rule's name in a file's `end` block.
    pub fn name(self) -> &'static str {
        match self {
            EndCheck::LastSeeds => "last seeds",
            EndCheck::Majority => "majority",
            EndCheck::EmptyRow => "empty row",
            EndCheck::Singletons => "singletons",
            EndCheck::Quiet => "no capture for",
            EndCheck::NoMove => "no move",
        }
    }
}

/// All the end rules of a variant.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Ending {
    /// The last-seeds rule (R2), if any.
    pub last_seeds: Option<LastSeeds>,
    /// The game ends when a player has captured more than half the seeds (or both exactly
    /// half, or, as the rule says, one half).
    pub majority: Option<Majority>,
    /// The game ends after a move that leaves a row empty (whose, as the test says); the
    /// board goes to this party.
    pub empty_row: Option<(RowTest, Award)>,
    /// The game ends after a move that leaves no hole with more than one seed.
    pub singletons: Option<Award>,
    /// The game ends after this many moves in a row without a capture.
    pub quiet: Option<(u32, Award)>,
    /// A player with no legal move.
    pub no_move: NoMove,
    /// Moves (chosen holes, extra turns included, passes not) after which the game stops.
    pub move_cap: u32,
    /// Who gets the board at the cap.
    pub cap_award: Award,
    /// The occurrence of the same position that ends the game (3 = third time).
    pub repetition: u16,
    /// Who gets the board on repetition.
    pub repetition_award: Award,
    /// Whether a game stopped by cap or repetition is scored as a draw whatever the totals.
    pub unfinished_is_draw: bool,
    /// Endless moves.
    pub endless: Endless,
    /// Winner.
    pub scoring: Scoring,
    /// The order the file states for the rules tried after a move (`order:`), first
    /// deciding; empty where it states none ([`EndCheck::USUAL_AFTER_MOVE`]). Left out of the
    /// rules hash when empty, so that the variants without it keep theirs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub order: Vec<EndCheck>,
}
