//! The maze as a block grid: every character of the drawing is one cell, a
//! wall or a passage with a weight (the cost of stepping onto it). Generated
//! mazes and hand-drawn files share this one representation, so the solvers,
//! the step log (`visit r c`) and the drawing all speak of the same cells.
//!
//! A generated maze of W×H rooms becomes a (2H+1)×(2W+1) grid: rooms sit on
//! odd rows and columns, the cells between them are walls or open doorways.

use std::fmt;

use crate::rng::SplitMix64;

/// Row and column in the block grid, (0, 0) the top-left corner.
pub type Cell = (usize, usize);

/// Largest grid accepted from a file or the command line, per side.
pub const MAX_SIDE: usize = 2001;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub rows: usize,
    pub cols: usize,
    /// `None` for a wall, `Some(w)` for a passage costing `w` (1..=9) to enter.
    cells: Vec<Option<u8>>,
    pub start: Cell,
    pub goal: Cell,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MazeError(pub String);

impl fmt::Display for MazeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MazeError {}

impl Grid {
    pub fn weight(&self, (r, c): Cell) -> Option<u8> {
        self.cells[r * self.cols + c]
    }

    pub fn is_open(&self, cell: Cell) -> bool {
        self.weight(cell).is_some()
    }

    fn set(&mut self, (r, c): Cell, w: Option<u8>) {
        self.cells[r * self.cols + c] = w;
    }

    /// Open neighbours in a fixed order (up, right, down, left), so every
    /// solver's exploration is reproducible.
    pub fn neighbours(&self, (r, c): Cell) -> impl Iterator<Item = Cell> + '_ {
        let up = r.checked_sub(1).map(|r| (r, c));
        let right = (c + 1 < self.cols).then_some((r, c + 1));
        let down = (r + 1 < self.rows).then_some((r + 1, c));
        let left = c.checked_sub(1).map(|c| (r, c));
        [up, right, down, left]
            .into_iter()
            .flatten()
            .filter(|&n| self.is_open(n))
    }

    pub fn min_weight(&self) -> u32 {
        self.cells
            .iter()
            .flatten()
            .map(|&w| u32::from(w))
            .min()
            .unwrap_or(1)
    }

    pub fn has_weights(&self) -> bool {
        self.cells.iter().flatten().any(|&w| w != 1)
    }

    /// A perfect maze (exactly one path between any two rooms) of `width` ×
    /// `height` rooms, carved by depth-first backtracking: walk to a random
    /// unvisited neighbour room, knocking down the wall between, and step back
    /// when there is none.
    pub fn generate(width: usize, height: usize, seed: u64) -> Result<Grid, MazeError> {
        if width == 0 || height == 0 || 2 * width + 1 > MAX_SIDE || 2 * height + 1 > MAX_SIDE {
            return Err(MazeError(format!(
                "maze size {width}x{height} out of range (1 to {} rooms a side)",
                (MAX_SIDE - 1) / 2
            )));
        }
        let (rows, cols) = (2 * height + 1, 2 * width + 1);
        let mut grid = Grid {
            rows,
            cols,
            cells: vec![None; rows * cols],
            start: (1, 1),
            goal: (rows - 2, cols - 2),
        };
        let mut rng = SplitMix64::new(seed);
        let room = |(y, x): (usize, usize)| (2 * y + 1, 2 * x + 1);
        let mut visited = vec![false; width * height];
        let mut stack = vec![(0usize, 0usize)];
        visited[0] = true;
        grid.set(room((0, 0)), Some(1));
        while let Some(&(y, x)) = stack.last() {
            let mut unvisited = Vec::with_capacity(4);
            if y > 0 && !visited[(y - 1) * width + x] {
                unvisited.push((y - 1, x));
            }
            if x + 1 < width && !visited[y * width + x + 1] {
                unvisited.push((y, x + 1));
            }
            if y + 1 < height && !visited[(y + 1) * width + x] {
                unvisited.push((y + 1, x));
            }
            if x > 0 && !visited[y * width + x - 1] {
                unvisited.push((y, x - 1));
            }
            if unvisited.is_empty() {
                stack.pop();
                continue;
            }
            let next = unvisited[rng.below_scaled(unvisited.len())];
            visited[next.0 * width + next.1] = true;
            let (a, b) = (room((y, x)), room(next));
            grid.set(((a.0 + b.0) / 2, (a.1 + b.1) / 2), Some(1));
            grid.set(b, Some(1));
            stack.push(next);
        }
        Ok(grid)
    }

    /// Opens each inner wall that separates two passages (left-right or
    /// up-down) with probability `fraction`, so there is more than one way
    /// through and shortest paths start to matter.
    pub fn open_loops(&mut self, fraction: f64, seed: u64) {
        let mut rng = SplitMix64::new(seed ^ 0x6C6F_6F70);
        for r in 1..self.rows - 1 {
            for c in 1..self.cols - 1 {
                if self.is_open((r, c)) {
                    continue;
                }
                let horizontal = self.is_open((r, c - 1)) && self.is_open((r, c + 1));
                let vertical = self.is_open((r - 1, c)) && self.is_open((r + 1, c));
                if (horizontal || vertical) && rng.unit_f64() < fraction {
                    self.set((r, c), Some(1));
                }
            }
        }
    }

    /// Gives every passage but the start and goal a random cost 1..=9, so the
    /// cheapest path is no longer the shortest and Dijkstra/A* part ways with BFS.
    pub fn randomise_weights(&mut self, seed: u64) {
        let mut rng = SplitMix64::new(seed ^ 0x7765_6967);
        for r in 0..self.rows {
            for c in 0..self.cols {
                if self.is_open((r, c)) && (r, c) != self.start && (r, c) != self.goal {
                    self.set((r, c), Some(1 + rng.below_scaled(9) as u8));
                }
            }
        }
    }

    /// Reads a maze drawn as text (see [`FILE_FORMAT`]).
    pub fn parse(text: &str) -> Result<Grid, MazeError> {
        let lines: Vec<&str> = text
            .lines()
            .map(|l| l.trim_end_matches('\r'))
            .filter(|l| !l.starts_with(';'))
            .collect();
        let lines: Vec<&str> = {
            let end = lines
                .iter()
                .rposition(|l| !l.trim().is_empty())
                .map_or(0, |i| i + 1);
            lines[..end].to_vec()
        };
        if lines.is_empty() {
            return Err(MazeError("the maze file is empty".into()));
        }
        let cols = lines[0].chars().count();
        if lines.len() > MAX_SIDE || cols > MAX_SIDE {
            return Err(MazeError(format!(
                "maze of {}x{cols} characters is too large (at most {MAX_SIDE} a side)",
                lines.len()
            )));
        }
        let mut cells = Vec::with_capacity(lines.len() * cols);
        let (mut start, mut goal) = (None, None);
        for (r, line) in lines.iter().enumerate() {
            let width = line.chars().count();
            if width != cols {
                return Err(MazeError(format!(
                    "line {} has {width} characters, expected {cols} like the first line \
                     (every row of the drawing must be equally wide)",
                    r + 1
                )));
            }
            for (c, ch) in line.chars().enumerate() {
                let place = |slot: &mut Option<Cell>, what: &str| match slot {
                    Some((r0, c0)) => Err(MazeError(format!(
                        "second {what} at line {} column {} (the first is at line {} column {})",
                        r + 1,
                        c + 1,
                        *r0 + 1,
                        *c0 + 1
                    ))),
                    None => {
                        *slot = Some((r, c));
                        Ok(())
                    }
                };
                cells.push(match ch {
                    '#' => None,
                    '.' | ' ' => Some(1),
                    '1'..='9' => Some(ch as u8 - b'0'),
                    'S' => {
                        place(&mut start, "start 'S'")?;
                        Some(1)
                    }
                    'G' => {
                        place(&mut goal, "goal 'G'")?;
                        Some(1)
                    }
                    other => {
                        return Err(MazeError(format!(
                            "unexpected character {other:?} at line {} column {} \
                             (use '#' wall, '.' or space passage, 1-9 weighted passage, S start, G goal)",
                            r + 1,
                            c + 1
                        )));
                    }
                });
            }
        }
        let start = start.ok_or_else(|| MazeError("the maze has no start 'S'".into()))?;
        let goal = goal.ok_or_else(|| MazeError("the maze has no goal 'G'".into()))?;
        Ok(Grid {
            rows: lines.len(),
            cols,
            cells,
            start,
            goal,
        })
    }

    /// The drawing in the file format: parsing it gives the same grid back.
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity((self.cols + 1) * self.rows);
        for r in 0..self.rows {
            for c in 0..self.cols {
                out.push(match self.weight((r, c)) {
                    _ if (r, c) == self.start => 'S',
                    _ if (r, c) == self.goal => 'G',
                    None => '#',
                    Some(1) => '.',
                    Some(w) => char::from(b'0' + w),
                });
            }
            out.push('\n');
        }
        out
    }
}

/// The text format of `--file`, also printed by `--help`.
pub const FILE_FORMAT: &str = "\
One character per cell, every line equally wide:
  #      wall
  . or space   passage (cost 1 to enter)
  1-9    passage with that cost to enter
  S      start (exactly one)    G  goal (exactly one)
Lines starting with ';' are comments; trailing blank lines are ignored.
Moves go up, right, down and left; the grid's edge counts as a wall.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_maze_is_perfect_and_reproducible() {
        let a = Grid::generate(12, 7, 42).unwrap();
        assert_eq!(a, Grid::generate(12, 7, 42).unwrap());
        assert_ne!(a, Grid::generate(12, 7, 43).unwrap());
        // A perfect maze on n rooms is a spanning tree: n rooms, n-1 doorways.
        let open = (0..a.rows)
            .flat_map(|r| (0..a.cols).map(move |c| (r, c)))
            .filter(|&p| a.is_open(p))
            .count();
        assert_eq!(open, 12 * 7 + (12 * 7 - 1));
        // The border is solid.
        for c in 0..a.cols {
            assert!(!a.is_open((0, c)) && !a.is_open((a.rows - 1, c)));
        }
    }

    #[test]
    fn loops_open_walls_and_text_round_trips() {
        let perfect = Grid::generate(15, 9, 3).unwrap();
        let mut looped = perfect.clone();
        looped.open_loops(0.3, 3);
        looped.randomise_weights(3);
        assert_ne!(perfect, looped);
        assert!(looped.has_weights());
        assert_eq!(Grid::parse(&looped.to_text()).unwrap(), looped);
    }

    #[test]
    fn bad_files_give_clear_errors() {
        let err = |t: &str| Grid::parse(t).unwrap_err().0;
        assert!(err("").contains("empty"));
        assert!(err("#####\n#S.G#\n####\n").contains("line 3 has 4 characters"));
        assert!(
            err("#####\n#S.x#\n#####\n").contains("unexpected character 'x' at line 2 column 4")
        );
        assert!(err("#####\n#S..#\n#####\n").contains("no goal"));
        assert!(err("#####\n#..G#\n#####\n").contains("no start"));
        assert!(err("#####\n#SSG#\n#####\n").contains("second start"));
        let ok = Grid::parse("; a comment\n#####\n#S2G#\n#####\n\n").unwrap();
        assert_eq!(
            (ok.rows, ok.cols, ok.start, ok.goal),
            (3, 5, (1, 1), (1, 3))
        );
        assert_eq!(ok.weight((1, 2)), Some(2));
    }
}
