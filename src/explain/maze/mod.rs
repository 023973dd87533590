//! `tarpon explain maze`: generate or read a maze, solve it with BFS, DFS,
//! Dijkstra and A*, and show how each one explored it.

pub mod grid;
mod presets;
mod render;
pub mod solve;

use clap::{Args, ValueEnum};

use crate::explain::json::Json;
use grid::{Grid, MazeError};
use solve::Algo;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AlgoArg {
    Bfs,
    Dfs,
    Dijkstra,
    Astar,
    All,
}

/// Generate (or read) a maze and solve it with BFS, DFS, Dijkstra and A*.
#[derive(Args, Debug)]
#[command(after_help = format!("Maze file format (--file):\n{}", grid::FILE_FORMAT))]
pub struct MazeArgs {
    /// Width in rooms of a generated maze.
    #[arg(long, default_value_t = 20)]
    pub width: usize,
    /// Height in rooms of a generated maze.
    #[arg(long, default_value_t = 10)]
    pub height: usize,
    /// Seed of the generator: the same seed gives the same maze everywhere.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A named benchmark maze (see --list-presets).
    #[arg(long, conflicts_with = "file")]
    pub preset: Option<String>,
    /// Read a maze drawn by hand as text (format below).
    #[arg(long)]
    pub file: Option<std::path::PathBuf>,
    /// List the named benchmark mazes and exit.
    #[arg(long)]
    pub list_presets: bool,
    /// Which algorithms to run (comma-separated).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "all")]
    pub algo: Vec<AlgoArg>,
    /// Print the step log: `visit r c`, `frontier r c`, `backtrack r c`.
    #[arg(long)]
    pub steps: bool,
    /// Open this fraction (0..1) of the inner walls, making loops.
    #[arg(long)]
    pub loops: Option<f64>,
    /// Give passages random costs 1-9 (seeded), so cheapest differs from shortest.
    #[arg(long)]
    pub weights: bool,
    /// Machine-readable output.
    #[arg(long, conflicts_with = "dot")]
    pub json: bool,
    /// Graphviz output of the maze graph with the first algorithm's path
    /// (render with `neato -n -Tsvg`).
    #[arg(long, conflicts_with = "html")]
    pub dot: bool,
    /// Write the runs, animated side by side, as one self-contained HTML page
    /// (`-`: stdout).
    #[arg(long, value_name = "FILE", conflicts_with = "json")]
    pub html: Option<std::path::PathBuf>,
    /// A maze drawn as text, given directly (the play server's maze page,
    /// where the walls are edited by clicking); not a command-line flag.
    #[arg(skip)]
    pub text: Option<String>,
}

/// Where the maze came from, for the header line.
#[derive(Debug)]
pub struct Source {
    pub label: String,
    pub grid: Grid,
}

fn build(args: &MazeArgs) -> Result<Source, MazeError> {
    let mut source = if let Some(text) = &args.text {
        Source {
            label: "drawn by hand".into(),
            grid: Grid::parse(text)?,
        }
    } else if let Some(name) = &args.preset {
        presets::build(name)?
    } else if let Some(path) = &args.file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| MazeError(format!("cannot read {}: {e}", path.display())))?;
        let grid =
            Grid::parse(&text).map_err(|e| MazeError(format!("{}: {}", path.display(), e.0)))?;
        Source {
            label: format!("file {}", path.display()),
            grid,
        }
    } else {
        Source {
            label: format!("{}x{} rooms, seed {}", args.width, args.height, args.seed),
            grid: Grid::generate(args.width, args.height, args.seed)?,
        }
    };
    if let Some(p) = args.loops {
        if !(0.0..=1.0).contains(&p) {
            return Err(MazeError(format!(
                "--loops {p} is not a fraction between 0 and 1"
            )));
        }
        source.grid.open_loops(p, args.seed);
        source.label.push_str(&format!(", loops {p}"));
    }
    if args.weights {
        source.grid.randomise_weights(args.seed);
        source.label.push_str(", weights 1-9");
    }
    Ok(source)
}

fn selected(algos: &[AlgoArg]) -> Vec<Algo> {
    let mut out = Vec::new();
    for a in algos {
        let add: &[Algo] = match a {
            AlgoArg::Bfs => &[Algo::Bfs],
            AlgoArg::Dfs => &[Algo::Dfs],
            AlgoArg::Dijkstra => &[Algo::Dijkstra],
            AlgoArg::Astar => &[Algo::AStar],
            AlgoArg::All => &Algo::ALL,
        };
        for &x in add {
            if !out.contains(&x) {
                out.push(x);
            }
        }
    }
    out
}

fn solved(args: &MazeArgs) -> Result<(Source, Vec<solve::Solution>), String> {
    let source = build(args).map_err(|e| e.0)?;
    let solutions = selected(&args.algo)
        .into_iter()
        .map(|a| solve::solve(&source.grid, a))
        .collect();
    Ok((source, solutions))
}

/// The maze and every selected run with its steps: the `--json --steps`
/// document, which the HTML page animates.
pub fn document(args: &MazeArgs) -> Result<Json, String> {
    let (source, solutions) = solved(args)?;
    Ok(render::json(&source, &solutions, true))
}

/// The named benchmark mazes (`--preset`).
pub fn preset_names() -> Vec<&'static str> {
    presets::names().collect()
}

/// The text `explain maze` prints, or why it cannot.
pub fn report(args: &MazeArgs) -> Result<String, String> {
    if args.list_presets {
        return Ok(presets::listing());
    }
    let (source, solutions) = solved(args)?;
    Ok(if args.json {
        format!("{}\n", render::json(&source, &solutions, args.steps))
    } else if args.dot {
        render::dot(&source.grid, solutions.first())
    } else {
        render::text(&source, &solutions, args.steps)
    })
}
