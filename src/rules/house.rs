//! House rules: holes that become a player's property during play (Toguz Kumalak's tuzdyk,
//! the captured holes of Ethiopian games, Kotu-baendum's baenda). A house is never played or
//! relayed from, and is never captured from.

use serde::Serialize;

use super::capture::{Condition, Recipient, Trigger};

/// What becomes of the seeds a house holds when it is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum HouseContents {
    /// They are captured by the house's owner.
    Captured,
    /// They stay in it, and belong to its owner at the end.
    Kept,
}

/// What becomes of seeds sown into a house afterwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum HouseSown {
    /// Each goes straight to the owner's store.
    ToOwner,
    /// They stay in it, and belong to its owner at the end.
    Kept,
}

/// What a lap's last seed does in the other player's house.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Raid {
    /// The mover takes the landing seed and at most this many more from the house.
    pub more: u16,
    /// Afterwards the mover plays again (else the move ends).
    pub extra_turn: bool,
}

/// One way holes become houses.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct HouseRule {
    /// The rule's name in the variant file; not part of the rules hash.
    #[serde(skip_serializing)]
    pub name: String,
    /// When it is looked at (the last drop of a lap or of the move).
    pub trigger: Trigger,
    /// What the hole must look like.
    pub condition: Condition,
    /// Who owns the house: the mover or the hole's owner.
    pub owner: Recipient,
    /// At most this many houses per player in a game; 0 for no limit.
    pub per_player: u8,
    /// Not the hole at the same place in its row as a house of the other player.
    pub not_matching: bool,
    /// The seeds it holds when made.
    pub contents: HouseContents,
    /// Seeds sown into it later.
    pub sown: HouseSown,
    /// The move ends when a house is made (else sowing goes on as it would have).
    pub ends_move: bool,
    /// A lap ending in the other player's house raids it; without this, it simply ends.
    pub raid: Option<Raid>,
}
