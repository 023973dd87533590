//! Growing our own nets: the training-data format, self-play data generation,
//! OpenBench's openings and PGNs, and the NNUE trainer (`tarpon datagen`,
//! `genfens`, `tarpon convert`, `tarpon train`, `tarpon average-nets`).

pub mod average;
pub mod checkpoint;
pub mod convert;
pub mod data;
pub mod datagen;
pub mod genfens;
pub mod model;
pub mod openings;
pub mod optim;
pub mod trainer;
