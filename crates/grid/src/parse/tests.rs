//! Tests of reading puzzle files.

use super::*;

const PENTA: &str = r#"
family = "grid"
name = "tiny"
board = """
  ###
  #.#
"""
[[piece]]
name = "U"
shape = """
#.#
###
"""
"#;

#[test]
fn art_is_read_with_rows_going_down() {
    let p = parse(PENTA, "t.toml").unwrap();
    assert_eq!(p.puzzle.cells(), 5);
    assert!(p.puzzle.board_index([1, 1, 0]).is_none());
    assert_eq!(p.board_line, 4);
    assert_eq!(p.piece_lines, vec![8]);
    let u = &p.puzzle.pieces[0];
    assert_eq!(u.size(), 5);
}

#[test]
fn coordinates_in_three_spellings() {
    let text = r#"
lattice = "cube"
board = { size = [2, 2, 1] }
[[piece]]
name = "A"
cells = "000 100"
[[piece]]
name = "B"
cells = [[0,0,0],[1,0,0]]
"#;
    let p = parse(text, "t.toml").unwrap();
    assert_eq!(p.puzzle.pieces[0].shape, p.puzzle.pieces[1].shape);
    let text2 = "board = { size = [2, 1] }\n[[piece]]\nname = \"D\"\ncells = \"(0,0)(1,0)\"\n";
    assert_eq!(parse(text2, "t.toml").unwrap().puzzle.pieces[0].size(), 2);
}

#[test]
fn art_errors_name_their_line() {
    let text = "board = \"\"\"\n##\n#?\n\"\"\"\n[[piece]]\nname = \"A\"\nshape = \"###\"\n";
    let e = parse(text, "t.toml").unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    assert!(matches!(e.problem, Problem::ArtCharacter { ch: '?', .. }));
    let layers = "lattice = \"cube\"\nboard = [\"\"\"\n##\n\"\"\", \"\"\"\n#%\n\"\"\"]\n[[piece]]\nname = \"A\"\nshape = \"####\"\n";
    let e = parse(layers, "t.toml").unwrap_err();
    assert_eq!(e.line, 5, "{e}");
}

#[test]
fn colours_must_be_declared() {
    let text =
        "colours = [\"b\", \"w\"]\nboard = \"bw\"\n[[piece]]\nname = \"D\"\nshape = \"bx\"\n";
    let e = parse(text, "t.toml").unwrap_err();
    assert!(
        matches!(e.problem, Problem::UnknownColour { ch: 'x', .. }),
        "{e}"
    );
    assert_eq!(e.line, 5);
}

#[test]
fn triangle_art_alternates_down_and_up_and_keeps_its_indentation() {
    let text = "lattice = \"triangle\"\nboard = \"\"\"\n##\n ##\n\"\"\"\n[[piece]]\nname = \"A\"\nshape = \"\"\"\n ##\n\"\"\"\n[[piece]]\nname = \"B\"\ncells = [[0, 0, 0], [0, 0, 1]]\n";
    let p = parse(text, "t.toml").unwrap().puzzle;
    let board: Vec<Cell> = p.board.iter().map(|s| s.0).collect();
    // Line 0: down, up at x = 0; line 1 from column 1: down, up at x = 0.
    assert_eq!(board, [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1]]);
    // " ##" starts with an up triangle, so piece A is up then down:
    // [0,0,1] and [1,0,0], which is not the rhombus of piece B.
    assert_eq!(p.pieces[0].shape, [([0, 0, 1], None), ([1, 0, 0], None)]);
    assert_eq!(p.pieces[1].shape, [([0, 0, 0], None), ([0, 0, 1], None)]);
}

#[test]
fn hexagon_art_is_axial_and_names_a_cell_between_hexagons() {
    let text = "lattice = \"hexagon\"\nboard = \"\"\"\n  # #\n   #\n\"\"\"\n[[piece]]\nname = \"A\"\nshape = \"# # #\"\n";
    let p = parse(text, "t.toml").unwrap().puzzle;
    let board: Vec<Cell> = p.board.iter().map(|s| s.0).collect();
    assert_eq!(board, [[0, 0, 0], [0, 1, 0], [1, 0, 0]]);
    let bad = text.replace("   #\n", "  #\n");
    let e = parse(&bad, "t.toml").unwrap_err();
    assert_eq!(e.line, 4, "{e}");
    assert!(
        matches!(e.problem, Problem::BetweenHexagons { col: 1, .. }),
        "{e}"
    );
}

#[test]
fn boxes_on_the_plane_lattices_are_parallelograms() {
    let text = "lattice = \"triangle\"\nboard = { size = [3, 2], holes = [[0, 0, 1]] }\n[[piece]]\nname = \"A\"\nshape = \"#\"\ncopies = 11\n";
    assert_eq!(parse(text, "t.toml").unwrap().puzzle.cells(), 11);
    let hex = "lattice = \"hexagon\"\nboard = { size = [3, 2] }\n[[piece]]\nname = \"A\"\nshape = \"#\"\ncopies = 6\n";
    assert_eq!(parse(hex, "t.toml").unwrap().puzzle.cells(), 6);
    let e = parse(&text.replace("[0, 0, 1]", "[0, 0, 2]"), "t.toml").unwrap_err();
    assert_eq!(e.line, 2, "{e}");
}

#[test]
fn model_errors_point_at_the_piece() {
    let text = "board = \"####\"\n[[piece]]\nname = \"A\"\nshape = \"#.#\"\n[[piece]]\nname = \"B\"\nshape = \"##\"\n";
    let e = parse(text, "t.toml").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.to_string().contains("not connected"), "{e}");
}
