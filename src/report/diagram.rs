//! Board diagrams: a position of any variant drawn as a picture (SVG and PNG, through
//! plotters), with the move that led to it: the hole played, the sowing path lap by lap, and
//! the holes captured from. The [`Layout`] says where everything stands; the step-through page
//! (`report::stepper`) draws from the same layout in the browser.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::Serialize;

use super::chart::{color, dash, Picture, FONT};
use super::trace::{game_status, holes_of};
use crate::engine::{Event, Game, MoveReport, Position};
use crate::rules::{Rules, Side};

/// A pit's radius, in pixels.
const PIT: i32 = 25;
/// From one pit's centre to the next along a row.
const STEP: i32 = 62;
/// Between the two rows' pits: room for the sowing path.
const GAP: i32 = 56;
/// The row labels' column, left of the board.
const LABELS: i32 = 78;
/// A store's width.
const STORE: i32 = 72;
/// Between a store and the pits.
const AISLE: i32 = 10;
/// Above the board: the title.
const TOP: i32 = 44;
/// Seeds drawn as dots up to this many in a pit; above it, the count alone.
pub const MOST_DOTS: u16 = 12;

/// Where everything stands in a variant's diagrams; the same for every position of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Layout {
    /// Width in pixels.
    pub width: i32,
    /// Height in pixels.
    pub height: i32,
    /// A pit's radius.
    pub pit: i32,
    /// Half a store's width and half its height.
    pub store: [i32; 2],
    /// Per position, holes `0..2N` then South's store and North's: where it stands.
    pub spots: Vec<Spot>,
    /// The rows, top to bottom.
    pub rows: Vec<RowPlace>,
    /// The title's baseline.
    pub title_y: i32,
    /// The status line's baseline (who is to move, how the game ended).
    pub status_y: i32,
    /// The board's frame: left, top, right, bottom.
    pub frame: [i32; 4],
}

/// Where one hole or store stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Spot {
    /// Its centre.
    pub x: i32,
    /// Where a sowing path enters it: its centre for a hole, a store's side facing the pits.
    pub track_x: i32,
    /// Its centre.
    pub y: i32,
    /// The height at which a sowing path passes it, between the rows.
    pub track: i32,
    /// Which way a second lap's path is moved off the first: toward the middle of the board.
    pub inward: i32,
    /// Where its number is written (a store has none: 0).
    pub number_y: i32,
}

/// A row of the picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RowPlace {
    /// Whose row it is.
    pub side: Side,
    /// Its centre line.
    pub y: i32,
}

impl Layout {
    /// The layout of `rules`' board: North's row on top with its first hole at the right,
    /// South's below from the left, North's store at the left end and South's at the right
    /// (where a counterclockwise lap meets them), as a player sitting South sees the board.
    pub fn of(rules: &Rules) -> Layout {
        let n = rules.holes_per_row() as i32;
        let north_y = TOP + 24 + PIT;
        let south_y = north_y + 2 * PIT + GAP;
        let middle = (north_y + south_y) / 2;
        let pits_left = LABELS + STORE + AISLE;
        let column = |c: i32| pits_left + STEP / 2 + c * STEP;
        let pits_right = pits_left + n * STEP;
        let mut spots = Vec::with_capacity(2 * n as usize + 2);
        for c in 0..n {
            spots.push(Spot {
                x: column(c),
                track_x: column(c),
                y: south_y,
                track: south_y - PIT - 6,
                inward: -1,
                number_y: south_y + PIT + 14,
            });
        }
        for h in 0..n {
            spots.push(Spot {
                x: column(n - 1 - h),
                track_x: column(n - 1 - h),
                y: north_y,
                track: north_y + PIT + 6,
                inward: 1,
                number_y: north_y - PIT - 12,
            });
        }
        // A path ends at the side of a store that faces the pits, clear of its count.
        let store = |x: i32, inner: i32| Spot {
            x,
            track_x: x + inner * (STORE / 2 - 6),
            y: middle,
            track: middle,
            inward: 0,
            number_y: 0,
        };
        spots.push(store(pits_right + AISLE + STORE / 2, -1));
        spots.push(store(LABELS + STORE / 2, 1));
        let bottom = south_y + PIT + 24;
        Layout {
            width: pits_right + AISLE + STORE + 16,
            height: bottom + 34,
            pit: PIT,
            store: [STORE / 2, (south_y - north_y) / 2 + PIT],
            spots,
            rows: vec![
                RowPlace {
                    side: Side::North,
                    y: north_y,
                },
                RowPlace {
                    side: Side::South,
                    y: south_y,
                },
            ],
            title_y: 26,
            status_y: bottom + 22,
            frame: [LABELS - 8, TOP, pits_right + AISLE + STORE + 8, bottom],
        }
    }

    /// The point a sowing path passes at position `p`, moved `off` pixels toward the middle.
    pub fn track(&self, p: usize, off: i32) -> (i32, i32) {
        let s = self.spots[p];
        (s.track_x, s.track + s.inward * off)
    }
}

/// One lap of a move: where its seeds were lifted and where each was dropped.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Lap {
    /// The hole the lap lifted its seeds from.
    pub from: usize,
    /// Where each seed went, in order (stores are positions `2N` and `2N+1`).
    pub drops: Vec<usize>,
}

/// What a diagram shows: a position and, after a move, what the move did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Scene {
    /// The heading: the variant, and the move.
    pub title: String,
    /// Seeds in holes `0..2N`.
    pub board: Vec<u16>,
    /// The stores (captured seeds), South first.
    pub stores: [u16; 2],
    /// Closed holes.
    pub closed: Vec<usize>,
    /// Houses (holes a player has made their own).
    pub houses: Vec<usize>,
    /// Holes owned by the player whose row they are not in, with their owner.
    pub foreign: Vec<(usize, Side)>,
    /// Who is to move, while the game goes on.
    pub to_move: Option<Side>,
    /// Who is to move, or how the game ended, in words.
    pub status: String,
    /// The hole played.
    pub played: Option<usize>,
    /// The laps sown, in order.
    pub laps: Vec<Lap>,
    /// Holes captured from.
    pub captured: Vec<usize>,
}

impl Scene {
    /// The position of `game`, with no move marked.
    pub fn at(game: &Game<'_>, title: String) -> Scene {
        let position = game.position();
        let mut scene = Scene::of_position(game.rules(), position, title);
        scene.to_move = game.to_move();
        // A picture's one line: who is to move or who won, not why (a game over before its
        // first move explains itself at length; the page and `trace` give the reason).
        let status = game_status(game, "game");
        scene.status = match status.split_once(", because") {
            Some((head, _)) => format!("{head}\n"),
            None => status,
        };
        scene
    }

    /// A position's seeds, closed holes, houses and owners, with nothing else marked.
    pub fn of_position(rules: &Rules, position: &Position, title: String) -> Scene {
        let holes = position.board().len();
        let foreign = (0..holes)
            .filter(|&h| position.owner(h) != rules.geometry.owner(h))
            .map(|h| (h, position.owner(h)))
            .collect();
        Scene {
            title,
            board: position.board().to_vec(),
            stores: position.stores(),
            closed: holes_of(position.closed()),
            houses: holes_of(position.houses()),
            foreign,
            ..Scene::default()
        }
    }

    /// The position of `game` after a move, with the move marked: the hole played, its laps
    /// (from the move's `events`) and the holes captured from.
    pub fn after(game: &Game<'_>, title: String, report: &MoveReport, events: &[Event]) -> Scene {
        Scene {
            played: Some(report.mv.hole()),
            laps: laps(events),
            captured: captured(events),
            ..Scene::at(game, title)
        }
    }
}

/// The laps of a move, from its events.
pub fn laps(events: &[Event]) -> Vec<Lap> {
    let mut laps: Vec<Lap> = Vec::new();
    for event in events {
        match event {
            Event::Lift { hole, .. } => laps.push(Lap {
                from: *hole,
                drops: Vec::new(),
            }),
            Event::Drop { at, .. } => {
                if let Some(lap) = laps.last_mut() {
                    lap.drops.push(*at);
                }
            }
            _ => {}
        }
    }
    laps
}

/// The holes a move captured from (captures, houses taken with their seeds, raids).
pub fn captured(events: &[Event]) -> Vec<usize> {
    let mut mask = 0u64;
    for event in events {
        match event {
            Event::Capture { holes, .. } => mask |= holes,
            Event::House { hole, seeds, .. } if *seeds > 0 => mask |= 1 << hole,
            Event::Raid { hole, .. } => mask |= 1 << hole,
            _ => {}
        }
    }
    holes_of(mask)
}

/// A lap's path is moved off the track by this many pixels a step, toward the middle of the
/// board, stepping once a lap and once each time round the board, and back after this many.
pub const OFFSET_STEP: i32 = 4;
/// See [`OFFSET_STEP`].
pub const OFFSET_CYCLE: usize = 5;

/// How far a lap's path is moved off the track, so that laps, and a lap's rounds of the
/// board, stay apart: 0 to 16 pixels, toward the middle of the board.
pub fn lap_offset(lap: usize, drop: usize, ring: usize) -> i32 {
    ((lap + drop / ring.max(1)) % OFFSET_CYCLE) as i32 * OFFSET_STEP
}

/// A scene of a variant, ready to draw.
pub struct Diagram<'a> {
    /// The board's layout.
    pub layout: &'a Layout,
    /// What to show.
    pub scene: &'a Scene,
    /// Positions a lap can pass: the holes, and the stores where they are sown.
    pub ring: usize,
    /// The stores' label: `store` where they are sown, `captured` where they only keep.
    pub store_label: &'static str,
}

impl<'a> Diagram<'a> {
    /// `scene` on `rules`' board, laid out by `layout`.
    pub fn new(rules: &Rules, layout: &'a Layout, scene: &'a Scene) -> Diagram<'a> {
        let sown = rules.program.board.stores.sown();
        Diagram {
            layout,
            scene,
            ring: rules.geometry.ring.count_ones() as usize,
            store_label: if sown { "store" } else { "captured" },
        }
    }
}

/// The board's wood, a pit's inside, and the marks.
const WOOD: RGBColor = RGBColor(239, 228, 207);
const PIT_FILL: RGBColor = RGBColor(255, 251, 242);
const INK: RGBColor = RGBColor(40, 40, 40);
const FAINT: RGBColor = RGBColor(150, 150, 150);
const PLAYED: RGBColor = RGBColor(0, 73, 140);
const CAPTURED: RGBColor = RGBColor(213, 94, 0);
const CAPTURED_FILL: RGBColor = RGBColor(250, 222, 204);
const CLOSED_FILL: RGBColor = RGBColor(190, 190, 190);

type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

impl Picture for Diagram<'_> {
    fn size(&self) -> (u32, u32) {
        (self.layout.width as u32, self.layout.height as u32)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        self.draw_all(root).map_err(|e| e.to_string())
    }
}

impl Diagram<'_> {
    fn draw_all<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Drawn<DB> {
        let (l, s) = (self.layout, self.scene);
        let text = |size: u32, h: HPos| {
            TextStyle::from((FONT, size).into_font())
                .color(&INK)
                .pos(Pos::new(h, VPos::Center))
        };
        root.fill(&WHITE)?;
        root.draw(&Text::new(
            s.title.clone(),
            (12, l.title_y),
            TextStyle::from((FONT, 18).into_font().style(FontStyle::Bold))
                .color(&INK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        let [left, top, right, bottom] = l.frame;
        root.draw(&Rectangle::new(
            [(left, top), (right, bottom)],
            WOOD.filled(),
        ))?;
        root.draw(&Rectangle::new(
            [(left, top), (right, bottom)],
            INK.stroke_width(1),
        ))?;
        for row in &l.rows {
            let to_move = s.to_move == Some(row.side);
            let name = if to_move {
                format!("{} ▸", row.side.name())
            } else {
                row.side.name().to_string()
            };
            let style = if to_move {
                TextStyle::from((FONT, 15).into_font().style(FontStyle::Bold))
                    .color(&INK)
                    .pos(Pos::new(HPos::Right, VPos::Center))
            } else {
                text(15, HPos::Right)
            };
            root.draw(&Text::new(name, (LABELS - 14, row.y), style))?;
        }
        let holes = s.board.len();
        for side in [Side::South, Side::North] {
            let p = holes + side.index();
            let spot = l.spots[p];
            let [hw, hh] = l.store;
            let corners = [(spot.x - hw, spot.y - hh), (spot.x + hw, spot.y + hh)];
            root.draw(&Rectangle::new(corners, PIT_FILL.filled()))?;
            root.draw(&Rectangle::new(corners, INK.stroke_width(1)))?;
            root.draw(&Text::new(
                s.stores[side.index()].to_string(),
                (spot.x, spot.y),
                TextStyle::from((FONT, 20).into_font().style(FontStyle::Bold))
                    .color(&INK)
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            ))?;
            let label = format!("{} {}", &side.name()[..1].to_uppercase(), self.store_label);
            root.draw(&Text::new(
                label,
                (spot.x, spot.y + hh - 10),
                text(11, HPos::Center),
            ))?;
        }
        for h in 0..holes {
            self.pit(root, h)?;
        }
        self.path(root)?;
        root.draw(&Text::new(
            s.status.trim_end().to_string(),
            (12, l.status_y),
            text(14, HPos::Left),
        ))?;
        if s.played.is_some() {
            root.draw(&Text::new(
                "ring: hole played · red: captured from · arrows: the sowing, a colour a lap"
                    .to_string(),
                (l.width - 12, l.status_y),
                TextStyle::from((FONT, 12).into_font())
                    .color(&FAINT)
                    .pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
        }
        Ok(())
    }

    /// One hole: its pit, seeds, count and number, and its marks.
    fn pit<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, h: usize) -> Drawn<DB> {
        let (l, s) = (self.layout, self.scene);
        let spot = l.spots[h];
        let at = (spot.x, spot.y);
        let closed = s.closed.contains(&h);
        let captured = s.captured.contains(&h);
        if s.houses.contains(&h) {
            let r = PIT + 5;
            root.draw(&Rectangle::new(
                [(at.0 - r, at.1 - r), (at.0 + r, at.1 + r)],
                INK.stroke_width(2),
            ))?;
        }
        let fill = if closed {
            CLOSED_FILL
        } else if captured {
            CAPTURED_FILL
        } else {
            PIT_FILL
        };
        root.draw(&Circle::new(at, PIT, fill.filled()))?;
        let (edge, width) = if s.played == Some(h) {
            (PLAYED, 4)
        } else if captured {
            (CAPTURED, 3)
        } else {
            (INK, 1)
        };
        root.draw(&Circle::new(at, PIT, edge.stroke_width(width)))?;
        let number = TextStyle::from((FONT, 11).into_font())
            .color(&FAINT)
            .pos(Pos::new(HPos::Center, VPos::Center));
        root.draw(&Text::new(h.to_string(), (spot.x, spot.number_y), number))?;
        if closed {
            root.draw(&Text::new(
                "×".to_string(),
                at,
                TextStyle::from((FONT, 26).into_font())
                    .color(&INK)
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            ))?;
            return Ok(());
        }
        let seeds = s.board[h];
        if seeds <= MOST_DOTS {
            for (dx, dy) in dots(seeds) {
                root.draw(&Circle::new(
                    (at.0 + dx, at.1 + dy),
                    3,
                    INK.mix(0.75).filled(),
                ))?;
            }
        }
        let ink = if seeds == 0 { FAINT } else { INK };
        root.draw(&Text::new(
            seeds.to_string(),
            at,
            TextStyle::from((FONT, 16).into_font().style(FontStyle::Bold))
                .color(&ink)
                .pos(Pos::new(HPos::Center, VPos::Center)),
        ))?;
        if let Some(&(_, owner)) = s.foreign.iter().find(|(f, _)| *f == h) {
            root.draw(&Text::new(
                owner.name()[..1].to_uppercase(),
                (at.0 + PIT - 2, at.1 - PIT + 4),
                TextStyle::from((FONT, 12).into_font().style(FontStyle::Bold))
                    .color(&PLAYED)
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            ))?;
        }
        Ok(())
    }

    /// The sowing path: a line a lap, from the hole lifted through every drop, ending in an
    /// arrowhead; laps differ in colour and dash, and are numbered when there are several.
    fn path<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Drawn<DB> {
        let (l, s) = (self.layout, self.scene);
        for (k, lap) in s.laps.iter().enumerate() {
            let mut points = vec![l.track(lap.from, lap_offset(k, 0, self.ring))];
            for (i, &p) in lap.drops.iter().enumerate() {
                points.push(l.track(p, lap_offset(k, i, self.ring)));
            }
            let style = color(k).stroke_width(2);
            match dash(k) {
                None => root.draw(&PathElement::new(points.clone(), style))?,
                Some((on, off)) => {
                    root.draw(&DashedPathElement::new(points.clone(), on, off, style))?
                }
            }
            root.draw(&Circle::new(points[0], 3, color(k).filled()))?;
            if let [.., a, b] = points[..] {
                root.draw(&Polygon::new(arrowhead(a, b), color(k).filled()))?;
            }
            if s.laps.len() > 1 {
                root.draw(&Text::new(
                    (k + 1).to_string(),
                    (points[0].0 - 8, points[0].1),
                    TextStyle::from((FONT, 11).into_font().style(FontStyle::Bold))
                        .color(&color(k))
                        .pos(Pos::new(HPos::Right, VPos::Center)),
                ))?;
            }
        }
        Ok(())
    }
}

/// Where `seeds` dots stand in a pit, from its centre: on a ring inside the rim, from the top.
pub fn dots(seeds: u16) -> Vec<(i32, i32)> {
    let ring = f64::from(PIT - 8);
    (0..seeds)
        .map(|i| {
            let angle = std::f64::consts::TAU * f64::from(i) / f64::from(seeds);
            (
                (ring * angle.sin()).round() as i32,
                -(ring * angle.cos()).round() as i32,
            )
        })
        .collect()
}

/// A filled triangle at `b`, pointing from `a` to `b`.
fn arrowhead(a: (i32, i32), b: (i32, i32)) -> Vec<(i32, i32)> {
    let (dx, dy) = (f64::from(b.0 - a.0), f64::from(b.1 - a.1));
    let length = dx.hypot(dy).max(1.0);
    let (ux, uy) = (dx / length, dy / length);
    let point = |along: f64, across: f64| {
        (
            (f64::from(b.0) + ux * along - uy * across).round() as i32,
            (f64::from(b.1) + uy * along + ux * across).round() as i32,
        )
    };
    vec![point(4.0, 0.0), point(-7.0, 5.0), point(-7.0, -5.0)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On every board the language describes (1 to 16 holes a row, with and without stores),
    /// no two pits touch, no pit touches a store, nothing leaves the picture, and hole numbers
    /// stand clear of the pits.
    #[test]
    fn every_board_lays_out_without_overlaps() {
        for holes in 1..=16 {
            for variant in ["kalah", "oware"] {
                let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join(format!("variants/{variant}.sow"));
                let rules =
                    crate::lang::compile_path(&path, &[("holes".into(), holes.to_string())])
                        .expect("compiles");
                let l = Layout::of(&rules);
                let pits = &l.spots[..2 * holes];
                for (i, a) in pits.iter().enumerate() {
                    for b in &pits[i + 1..] {
                        let apart = f64::from(a.x - b.x).hypot(f64::from(a.y - b.y));
                        assert!(
                            apart > f64::from(2 * l.pit),
                            "{variant} {holes}: pits touch"
                        );
                    }
                    assert!((a.number_y - a.y).abs() > l.pit + 5, "a number on its pit");
                    for store in &l.spots[2 * holes..] {
                        assert!(
                            (a.x - store.x).abs() > l.pit + l.store[0],
                            "a pit in a store"
                        );
                    }
                    assert!(a.x - l.pit > 0 && a.x + l.pit < l.width);
                    assert!(a.number_y > l.title_y && a.number_y < l.status_y);
                }
                for store in &l.spots[2 * holes..] {
                    assert!(store.x - l.store[0] > 0 && store.x + l.store[0] < l.width);
                }
                // The two rows' paths stay apart whatever the lap: the largest offsets leave
                // a gap between them.
                let (north, south) = (l.spots[holes], l.spots[0]);
                assert!(north.track + 16 < south.track - 16);
            }
        }
    }

    /// Five seeds are five dots, spread round the pit, none at its centre (the count's place).
    #[test]
    fn seeds_are_dots_round_the_rim() {
        let five = dots(5);
        assert_eq!(five.len(), 5);
        assert_eq!(five[0], (0, -(PIT - 8)));
        for (x, y) in &five {
            let r = f64::from(*x).hypot(f64::from(*y));
            assert!((r - f64::from(PIT - 8)).abs() < 1.0);
        }
        assert!(dots(0).is_empty());
    }

    /// A move's scene marks the hole played, each lap and the holes captured from.
    #[test]
    fn a_move_marks_its_hole_its_laps_and_its_captures() {
        let events = [
            Event::Lift {
                lap: 1,
                hole: 2,
                seeds: 2,
            },
            Event::Drop { at: 3, count: 1 },
            Event::Drop { at: 4, count: 5 },
            Event::Land { at: 4, count: 5 },
            Event::Lift {
                lap: 2,
                hole: 4,
                seeds: 5,
            },
            Event::Drop { at: 5, count: 1 },
            Event::Capture {
                rule: 0,
                holes: 1 << 6 | 1 << 7,
                seeds: 4,
                to: Side::South,
            },
        ];
        assert_eq!(
            laps(&events),
            [
                Lap {
                    from: 2,
                    drops: vec![3, 4]
                },
                Lap {
                    from: 4,
                    drops: vec![5]
                }
            ]
        );
        assert_eq!(captured(&events), [6, 7]);
    }
}
