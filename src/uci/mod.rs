//! The UCI protocol layer: parsing commands, the option table, playing
//! levels, and the engine loop that ties them to the search.

pub mod command;
pub mod options;
pub mod strength;
