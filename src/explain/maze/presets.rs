//! Named benchmark mazes: the same layouts for everyone, so runs of different
//! algorithms (or different people's implementations) can be compared.

use super::Source;
use super::grid::{Grid, MazeError};

enum Recipe {
    Generated {
        width: usize,
        height: usize,
        seed: u64,
        loops: f64,
        weights: bool,
    },
    Drawn(&'static str),
}

struct Preset {
    name: &'static str,
    about: &'static str,
    recipe: Recipe,
}

/// An open hall with a wall across the middle: A* heads for the gap while
/// Dijkstra and BFS flood the whole room, and DFS wanders.
const HALL: &str = "\
###############################
#S............................#
#.............................#
#.............................#
#.............................#
#.........#################...#
#.........#...................#
#.........#...................#
#.........#..................G#
###############################
";

/// A cheap long way round and an expensive short cut: BFS takes the short
/// cut, Dijkstra and A* pay less by walking around.
const TOLL: &str = "\
#####################
#S99999999999999999G#
#.#################.#
#...................#
#####################
";

const PRESETS: [Preset; 8] = [
    Preset {
        name: "tiny",
        about: "8x4 perfect maze, small enough to read every step",
        recipe: Recipe::Generated {
            width: 8,
            height: 4,
            seed: 1,
            loops: 0.0,
            weights: false,
        },
    },
    Preset {
        name: "classic",
        about: "30x15 perfect maze: every algorithm finds the one path",
        recipe: Recipe::Generated {
            width: 30,
            height: 15,
            seed: 2026,
            loops: 0.0,
            weights: false,
        },
    },
    Preset {
        name: "loops",
        about: "30x15 with 10% of inner walls opened: shortest paths differ from DFS's",
        recipe: Recipe::Generated {
            width: 30,
            height: 15,
            seed: 11,
            loops: 0.1,
            weights: false,
        },
    },
    Preset {
        name: "braided",
        about: "30x15 with 40% of inner walls opened: many routes, A* shines",
        recipe: Recipe::Generated {
            width: 30,
            height: 15,
            seed: 12,
            loops: 0.4,
            weights: false,
        },
    },
    Preset {
        name: "weighted",
        about: "30x15, 20% loops, cell costs 1-9: cheapest is not shortest",
        recipe: Recipe::Generated {
            width: 30,
            height: 15,
            seed: 5,
            loops: 0.2,
            weights: true,
        },
    },
    Preset {
        name: "large",
        about: "100x50 with 5% loops, for timing",
        recipe: Recipe::Generated {
            width: 100,
            height: 50,
            seed: 9,
            loops: 0.05,
            weights: false,
        },
    },
    Preset {
        name: "hall",
        about: "hand-drawn open hall with a wall: A* versus flooding",
        recipe: Recipe::Drawn(HALL),
    },
    Preset {
        name: "toll",
        about: "hand-drawn expensive short cut: BFS pays, Dijkstra walks around",
        recipe: Recipe::Drawn(TOLL),
    },
];

pub fn build(name: &str) -> Result<Source, MazeError> {
    let preset = PRESETS.iter().find(|p| p.name == name).ok_or_else(|| {
        let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        MazeError(format!(
            "unknown preset '{name}' (known: {})",
            names.join(", ")
        ))
    })?;
    let grid = match preset.recipe {
        Recipe::Generated {
            width,
            height,
            seed,
            loops,
            weights,
        } => {
            let mut grid = Grid::generate(width, height, seed)?;
            if loops > 0.0 {
                grid.open_loops(loops, seed);
            }
            if weights {
                grid.randomise_weights(seed);
            }
            grid
        }
        Recipe::Drawn(text) => Grid::parse(text)?,
    };
    Ok(Source {
        label: format!("preset {name}"),
        grid,
    })
}

/// The presets' names, in listing order.
pub fn names() -> impl Iterator<Item = &'static str> {
    PRESETS.iter().map(|p| p.name)
}

pub fn listing() -> String {
    PRESETS
        .iter()
        .map(|p| format!("{:<10} {}\n", p.name, p.about))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_builds_and_is_solvable() {
        for p in &PRESETS {
            let source = build(p.name).unwrap();
            let s = super::super::solve::solve(&source.grid, super::super::solve::Algo::Bfs);
            assert!(s.path.is_some(), "{}", p.name);
        }
        assert!(build("nope").unwrap_err().0.contains("known: tiny"));
    }
}
