//! `tarpon scan` speed: the square classifier per square (the vector path
//! against the portable one) and a whole picture read, net load included.
//!
//! `cargo bench --bench scan`

use std::hint::black_box;

mod harness;

use harness::Runner;
use tarpon::scan::classifier::Classifier;
use tarpon::scan::net::{Ensemble, SIDE};
use tarpon::scan::sense::Bottom;

/// A book-style board filling a page, 904×870 pixels: about the 1000-pixel
/// picture the time limit speaks of.
const PICTURE: &[u8] = include_bytes!("../tests/data/scan/hatched-board-filling-a-page.png");

/// Squares with something in them: a smooth ramp with a disc, standardised
/// as the reader feeds the net.
fn squares() -> Vec<Vec<f32>> {
    (0..8)
        .map(|k| {
            (0..SIDE * SIDE)
                .map(|i| {
                    let (x, y) = ((i % SIDE) as f32, (i / SIDE) as f32);
                    let r = ((x - 16.0).powi(2) + (y - 16.0 - k as f32).powi(2)).sqrt();
                    if r < 6.0 + k as f32 {
                        -1.0
                    } else {
                        (x + y) / 64.0
                    }
                })
                .collect()
        })
        .collect()
}

fn classifier(c: &mut Runner) {
    let nets = Ensemble::embedded().expect("the embedded nets load");
    let classifier = Classifier::new(&nets.members[0]);
    let inputs = squares();
    let mut group = c.group("scan/classify 8 squares (rate: squares)");
    group.elements(inputs.len() as u64);
    type Path = fn(&Classifier, &[f32]) -> [f32; 13];
    let paths: [(&str, Path); 2] = [
        (
            "dispatched (AVX2 and FMA where the CPU has them)",
            Classifier::classify,
        ),
        ("portable", Classifier::classify_portable),
    ];
    for (name, classify) in paths {
        group.bench_function(name, |b| {
            b.iter(|| {
                inputs
                    .iter()
                    .map(|input| classify(&classifier, black_box(input))[0])
                    .sum::<f32>()
            })
        });
    }
}

fn whole_picture(c: &mut Runner) {
    c.bench_function(
        "scan/read a 904x870 picture (decode, net load, find, classify)",
        |b| {
            b.iter(|| {
                let image =
                    tarpon::scan::picture::decode(black_box(PICTURE)).expect("the fixture decodes");
                let nets = Ensemble::load(None).expect("the embedded nets load");
                tarpon::scan::read_image(&nets, &image, Bottom::Auto, None).is_ok()
            })
        },
    );
}

fn main() {
    let mut c = Runner::from_args();
    classifier(&mut c);
    whole_picture(&mut c);
}
