//! Pinned pieces (the hints of a printed puzzle), checked against the
//! board and their pieces.

use super::{cell_text, ModelError, Piece, Pin, Place, Puzzle, Sides, Site};
use crate::lattice::{Cell, Lattice};
use std::collections::HashMap;

/// How a set of board sites compares with a piece.
enum Fit {
    /// They are the piece moved by a motion it may make, colours agreeing.
    Fits,
    /// No allowed motion gives their shape.
    Shape,
    /// Some motion gives the shape, but none with colours that agree.
    Colour,
}

/// Whether `sites` (board cells with their colours) are `piece` moved by a
/// motion it may make, with every coloured piece cell on a board cell of no
/// colour or of its colour.
fn fit(lattice: Lattice, piece: &Piece, sites: &[Site]) -> Fit {
    if sites.len() != piece.shape.len() {
        return Fit::Shape;
    }
    let mut target = sites.to_vec();
    lattice.normalize(&mut target);
    let mut shape = false;
    for m in piece.motions(lattice) {
        let mut moved: Vec<Site> = piece
            .shape
            .iter()
            .map(|&(c, k)| (lattice.apply(m, c), k))
            .collect();
        lattice.normalize(&mut moved);
        if moved.iter().zip(&target).all(|(a, b)| a.0 == b.0) {
            shape = true;
            let agree = moved
                .iter()
                .zip(&target)
                .all(|(a, b)| a.1.is_none() || b.1.is_none() || a.1 == b.1);
            if agree {
                return Fit::Fits;
            }
        }
    }
    if shape {
        Fit::Colour
    } else {
        Fit::Shape
    }
}

impl Puzzle {
    /// The puzzle with `pins` (replacing any it had), each checked: its
    /// piece exists, its cells are board cells and are the piece moved by a
    /// motion it may make with colours that agree, no two pins share a
    /// cell, and no piece has more pins than copies. Each pin's cells are
    /// sorted. Errors name the pin (`Place::Pin`).
    pub fn with_pins(mut self, mut pins: Vec<Pin>) -> Result<Puzzle, (ModelError, Place)> {
        let lattice = self.lattice;
        let mut owner: HashMap<Cell, usize> = HashMap::new();
        let mut per_piece = vec![0usize; self.pieces.len()];
        for (i, pin) in pins.iter_mut().enumerate() {
            let place = Place::Pin(i);
            let Some(piece) = self.pieces.get(pin.piece) else {
                return Err((
                    ModelError::PinPiece {
                        pin: i + 1,
                        piece: pin.piece,
                        pieces: self.pieces.len(),
                    },
                    place,
                ));
            };
            let what = format!("the pin of piece '{}'", piece.name);
            pin.cells.sort_unstable();
            if let Some(w) = pin.cells.windows(2).find(|w| w[0] == w[1]) {
                return Err((
                    ModelError::RepeatedCell {
                        what,
                        cell: cell_text(lattice, w[0]),
                    },
                    place,
                ));
            }
            let mut sites = Vec::with_capacity(pin.cells.len());
            for &c in &pin.cells {
                if !lattice.contains(c) {
                    return Err((
                        ModelError::OffLattice {
                            what,
                            cell: cell_text(Lattice::Cube, c),
                            lattice,
                        },
                        place,
                    ));
                }
                match self.board_index(c) {
                    Some(b) => sites.push(self.board[b]),
                    None => {
                        return Err((
                            ModelError::PinOffBoard {
                                piece: piece.name.clone(),
                                cell: cell_text(lattice, c),
                            },
                            place,
                        ))
                    }
                }
            }
            match fit(lattice, piece, &sites) {
                Fit::Fits => {}
                Fit::Shape => {
                    return Err((
                        ModelError::PinShape {
                            piece: piece.name.clone(),
                            flips: piece.sides == Sides::Two,
                        },
                        place,
                    ))
                }
                Fit::Colour => {
                    return Err((
                        ModelError::PinColour {
                            piece: piece.name.clone(),
                        },
                        place,
                    ))
                }
            }
            for &c in &pin.cells {
                if let Some(&j) = owner.get(&c) {
                    return Err((
                        ModelError::PinOverlap {
                            first: self.pieces[j].name.clone(),
                            second: piece.name.clone(),
                            cell: cell_text(lattice, c),
                        },
                        place,
                    ));
                }
            }
            for &c in &pin.cells {
                owner.insert(c, pin.piece);
            }
            per_piece[pin.piece] += 1;
            if per_piece[pin.piece] > piece.copies as usize {
                return Err((
                    ModelError::TooManyPins {
                        piece: piece.name.clone(),
                        pins: per_piece[pin.piece],
                        copies: piece.copies,
                    },
                    place,
                ));
            }
        }
        self.pins = pins;
        Ok(self)
    }

    /// The pins of piece `piece`, in file order.
    pub fn pins_of(&self, piece: usize) -> impl Iterator<Item = &Pin> {
        self.pins.iter().filter(move |p| p.piece == piece)
    }
}
