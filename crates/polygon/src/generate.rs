//! Planted puzzles (to be written).
