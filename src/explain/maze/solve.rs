//! The four path finders, each recording what it does step by step:
//! `visit` when a cell is expanded, `frontier` when a cell joins the frontier,
//! `backtrack` when depth-first search steps back out of a dead end.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::time::{Duration, Instant};

use super::grid::{Cell, Grid};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    Bfs,
    Dfs,
    Dijkstra,
    AStar,
}

impl Algo {
    pub const ALL: [Algo; 4] = [Algo::Bfs, Algo::Dfs, Algo::Dijkstra, Algo::AStar];

    pub fn name(self) -> &'static str {
        match self {
            Algo::Bfs => "bfs",
            Algo::Dfs => "dfs",
            Algo::Dijkstra => "dijkstra",
            Algo::AStar => "astar",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Visit(Cell),
    Frontier(Cell),
    Backtrack(Cell),
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (word, (r, c)) = match *self {
            Step::Visit(p) => ("visit", p),
            Step::Frontier(p) => ("frontier", p),
            Step::Backtrack(p) => ("backtrack", p),
        };
        write!(f, "{word} {r} {c}")
    }
}

#[derive(Clone, Debug)]
pub struct Solution {
    pub algo: Algo,
    /// Start to goal inclusive, or `None` when the goal cannot be reached.
    pub path: Option<Vec<Cell>>,
    pub steps: Vec<Step>,
    pub time: Duration,
}

impl Solution {
    /// Cells expanded, in order.
    pub fn expanded(&self) -> impl Iterator<Item = Cell> + '_ {
        self.steps.iter().filter_map(|s| match s {
            Step::Visit(p) => Some(*p),
            _ => None,
        })
    }

    pub fn expanded_count(&self) -> usize {
        self.expanded().count()
    }

    /// Moves along the path (cells minus one).
    pub fn length(&self) -> Option<usize> {
        self.path.as_ref().map(|p| p.len() - 1)
    }

    /// Sum of the weights of the cells entered (the start is not entered).
    pub fn cost(&self, grid: &Grid) -> Option<u32> {
        self.path.as_ref().map(|p| path_cost(grid, p))
    }
}

pub fn path_cost(grid: &Grid, path: &[Cell]) -> u32 {
    path.iter()
        .skip(1)
        .map(|&p| u32::from(grid.weight(p).unwrap_or(0)))
        .sum()
}

pub fn solve(grid: &Grid, algo: Algo) -> Solution {
    let started = Instant::now();
    let mut search = Search::new(grid);
    let found = match algo {
        Algo::Bfs => search.breadth_first(),
        Algo::Dfs => search.depth_first(),
        Algo::Dijkstra => search.best_first(|_| 0),
        Algo::AStar => {
            // Manhattan distance times the cheapest step never overestimates
            // the remaining cost, so A* stays optimal with weights.
            let (gr, gc) = grid.goal;
            let min_w = grid.min_weight();
            search.best_first(move |(r, c)| (r.abs_diff(gr) + c.abs_diff(gc)) as u32 * min_w)
        }
    };
    let path = found.then(|| search.path_to(grid.goal));
    Solution {
        algo,
        path,
        steps: search.steps,
        time: started.elapsed(),
    }
}

struct Search<'g> {
    grid: &'g Grid,
    parent: Vec<Option<Cell>>,
    /// Seen: on the frontier or expanded (BFS, DFS), or settled (Dijkstra, A*).
    seen: Vec<bool>,
    steps: Vec<Step>,
}

impl<'g> Search<'g> {
    fn new(grid: &'g Grid) -> Search<'g> {
        let n = grid.rows * grid.cols;
        Search {
            grid,
            parent: vec![None; n],
            seen: vec![false; n],
            steps: Vec::new(),
        }
    }

    fn index(&self, (r, c): Cell) -> usize {
        r * self.grid.cols + c
    }

    fn path_to(&self, goal: Cell) -> Vec<Cell> {
        let mut path = vec![goal];
        let mut at = goal;
        while let Some(p) = self.parent[self.index(at)] {
            path.push(p);
            at = p;
        }
        path.reverse();
        path
    }

    fn breadth_first(&mut self) -> bool {
        let (start, goal) = (self.grid.start, self.grid.goal);
        let mut queue = VecDeque::from([start]);
        let i = self.index(start);
        self.seen[i] = true;
        self.steps.push(Step::Frontier(start));
        while let Some(cell) = queue.pop_front() {
            self.steps.push(Step::Visit(cell));
            if cell == goal {
                return true;
            }
            for n in self.grid.neighbours(cell) {
                let ni = self.index(n);
                if !self.seen[ni] {
                    self.seen[ni] = true;
                    self.parent[ni] = Some(cell);
                    self.steps.push(Step::Frontier(n));
                    queue.push_back(n);
                }
            }
        }
        false
    }

    /// Walks forward into the first unseen neighbour and steps back out of
    /// dead ends: the path found is the stack at the moment the goal is reached.
    fn depth_first(&mut self) -> bool {
        let (start, goal) = (self.grid.start, self.grid.goal);
        let mut stack = vec![start];
        let i = self.index(start);
        self.seen[i] = true;
        self.steps.push(Step::Visit(start));
        while let Some(&cell) = stack.last() {
            if cell == goal {
                return true;
            }
            let next = self
                .grid
                .neighbours(cell)
                .find(|&n| !self.seen[self.index(n)]);
            match next {
                Some(n) => {
                    let ni = self.index(n);
                    self.seen[ni] = true;
                    self.parent[ni] = Some(cell);
                    self.steps.push(Step::Frontier(n));
                    self.steps.push(Step::Visit(n));
                    stack.push(n);
                }
                None => {
                    self.steps.push(Step::Backtrack(cell));
                    stack.pop();
                }
            }
        }
        false
    }

    /// Dijkstra when `heuristic` is zero, A* otherwise. Ties on f go to the
    /// larger g (the cell nearer the goal by the heuristic), then to the
    /// earlier insertion, which keeps runs reproducible.
    fn best_first(&mut self, heuristic: impl Fn(Cell) -> u32) -> bool {
        let (start, goal) = (self.grid.start, self.grid.goal);
        let mut best_g = vec![u32::MAX; self.grid.rows * self.grid.cols];
        let mut heap = BinaryHeap::new();
        let mut order = 0u64;
        let si = self.index(start);
        best_g[si] = 0;
        heap.push((Reverse(heuristic(start)), 0u32, Reverse(order), start));
        self.steps.push(Step::Frontier(start));
        while let Some((_, g, _, cell)) = heap.pop() {
            let ci = self.index(cell);
            if self.seen[ci] || g > best_g[ci] {
                continue;
            }
            self.seen[ci] = true;
            self.steps.push(Step::Visit(cell));
            if cell == goal {
                return true;
            }
            for n in self.grid.neighbours(cell) {
                let ni = self.index(n);
                let ng = g + u32::from(self.grid.weight(n).unwrap_or(0));
                if !self.seen[ni] && ng < best_g[ni] {
                    best_g[ni] = ng;
                    self.parent[ni] = Some(cell);
                    order += 1;
                    heap.push((Reverse(ng + heuristic(n)), ng, Reverse(order), n));
                    self.steps.push(Step::Frontier(n));
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_valid_path(grid: &Grid, path: &[Cell]) -> bool {
        path.first() == Some(&grid.start)
            && path.last() == Some(&grid.goal)
            && path.iter().all(|&p| grid.is_open(p))
            && path
                .windows(2)
                .all(|w| w[0].0.abs_diff(w[1].0) + w[0].1.abs_diff(w[1].1) == 1)
    }

    #[test]
    fn shortest_path_finders_agree_and_astar_expands_least() {
        for seed in 0..12 {
            let mut grid = Grid::generate(25, 15, seed).unwrap();
            grid.open_loops(0.15, seed);
            let [bfs, dfs, dijkstra, astar] = Algo::ALL.map(|a| solve(&grid, a));
            for s in [&bfs, &dfs, &dijkstra, &astar] {
                assert!(
                    is_valid_path(&grid, s.path.as_ref().unwrap()),
                    "{:?}",
                    s.algo
                );
            }
            let shortest = bfs.length().unwrap();
            assert_eq!(dijkstra.length(), Some(shortest), "seed {seed}");
            assert_eq!(astar.length(), Some(shortest), "seed {seed}");
            assert!(dfs.length().unwrap() >= shortest);
            assert!(
                astar.expanded_count() <= dijkstra.expanded_count(),
                "seed {seed}: A* {} > Dijkstra {}",
                astar.expanded_count(),
                dijkstra.expanded_count()
            );
        }
    }

    #[test]
    fn weighted_cost_is_optimal_for_dijkstra_and_astar() {
        for seed in 0..8 {
            let mut grid = Grid::generate(20, 12, seed).unwrap();
            grid.open_loops(0.2, seed);
            grid.randomise_weights(seed);
            let [bfs, _, dijkstra, astar] = Algo::ALL.map(|a| solve(&grid, a));
            let best = dijkstra.cost(&grid).unwrap();
            assert_eq!(astar.cost(&grid), Some(best));
            assert!(bfs.cost(&grid).unwrap() >= best);
        }
    }

    #[test]
    fn unreachable_goal_gives_no_path_and_dfs_logs_backtracks() {
        let grid = Grid::parse("#######\n#S..#G#\n#######\n").unwrap();
        for algo in Algo::ALL {
            assert_eq!(solve(&grid, algo).path, None);
        }
        let dfs = solve(&grid, Algo::Dfs);
        let log: Vec<String> = dfs.steps.iter().map(|s| s.to_string()).collect();
        assert_eq!(log.first().map(String::as_str), Some("visit 1 1"));
        assert!(log.contains(&"backtrack 1 3".to_string()));
        assert!(log.contains(&"frontier 1 2".to_string()));
    }
}
