//! Growing our own nets: the training-data format, self-play data generation
//! and the NNUE trainer (`tarpon datagen`, `tarpon train`).

pub mod checkpoint;
pub mod data;
pub mod datagen;
pub mod model;
pub mod optim;
pub mod trainer;
