//! `tarpon average-nets`: the weight-by-weight mean of nets of one
//! architecture (a "model soup"). Fine-tunes of one parent lie close
//! together, and their mean often evaluates better than any one of them,
//! at no training cost; a match decides, as for any candidate.
//!
//! Each net is read back into the float model (the exact inverse of the
//! export), the parameters are averaged, and the mean is quantised again.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::model::Model;
use super::trainer::write_atomically;
use crate::eval::nnue::Network;

/// Arguments of `tarpon average-nets`.
#[derive(Args, Debug, Clone)]
pub struct AverageArgs {
    /// The nets to average (two or more, one architecture; a net named twice counts twice).
    #[arg(required = true, num_args = 2..)]
    pub nets: Vec<PathBuf>,
    /// Where to write the mean net.
    #[arg(long)]
    pub out: PathBuf,
}

/// The parameter-wise mean of `models`, or why there is none: no models,
/// or two whose architectures differ (features, head, widths or layers).
pub fn average(models: &[Model]) -> Result<Model, String> {
    let (first, rest) = models.split_first().ok_or("no nets to average")?;
    for (i, m) in rest.iter().enumerate() {
        let same_shape = m.features == first.features
            && m.head == first.head
            && m.half_dims == first.half_dims
            && m.ft_weights.len() == first.ft_weights.len()
            && m.layers.len() == first.layers.len()
            && m.layers
                .iter()
                .zip(&first.layers)
                .all(|(a, b)| a.inputs == b.inputs && a.outputs == b.outputs);
        if !same_shape {
            return Err(format!(
                "net {} has another architecture than the first",
                i + 2
            ));
        }
    }
    let share = 1.0 / models.len() as f32;
    let mut mean = first.clone();
    let scale = |v: &mut [f32]| v.iter_mut().for_each(|x| *x *= share);
    let add = |into: &mut [f32], from: &[f32]| {
        debug_assert_eq!(into.len(), from.len());
        into.iter_mut().zip(from).for_each(|(a, b)| *a += b * share);
    };
    scale(&mut mean.ft_weights);
    scale(&mut mean.ft_biases);
    for layer in &mut mean.layers {
        scale(&mut layer.weights);
        scale(&mut layer.biases);
    }
    for m in rest {
        add(&mut mean.ft_weights, &m.ft_weights);
        add(&mut mean.ft_biases, &m.ft_biases);
        for (into, from) in mean.layers.iter_mut().zip(&m.layers) {
            add(&mut into.weights, &from.weights);
            add(&mut into.biases, &from.biases);
        }
    }
    // The mean of clipped weights is inside the same limits; clip anyway so
    // the export can never overflow.
    mean.clip();
    Ok(mean)
}

fn average_files(args: &AverageArgs) -> Result<(), String> {
    let models = args
        .nets
        .iter()
        .map(|path| {
            let net = Network::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
            Model::from_network(&net).map_err(|e| format!("{}: {e}", path.display()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let names: Vec<String> = args
        .nets
        .iter()
        .map(|p| {
            p.file_name()
                .unwrap_or(p.as_os_str())
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let net = average(&models)?
        .quantise(format!("tarpon net, the mean of {}", names.join(", ")))
        .map_err(|e| e.to_string())?;
    write_atomically(&args.out, &net.to_bytes())
}

pub fn run(args: AverageArgs) -> ExitCode {
    match average_files(&args) {
        Ok(()) => {
            println!(
                "the mean of {} nets written to {}",
                args.nets.len(),
                args.out.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::FeatureSet;
    use crate::eval::nnue::features::KingBuckets;

    fn random(seed: u64) -> Model {
        Model::random_screlu(FeatureSet::Chess768(KingBuckets::RANKS4), 32, seed)
    }

    #[test]
    fn the_mean_of_two_nets_is_halfway_between_them() {
        let (a, b) = (random(1), random(2));
        let mean = average(&[a.clone(), b.clone()]).unwrap();
        let halfway = |x: f32, y: f32| (x + y) / 2.0;
        for (i, m) in mean.ft_weights.iter().enumerate() {
            assert!((m - halfway(a.ft_weights[i], b.ft_weights[i])).abs() < 1e-6);
        }
        let (la, lb, lm) = (&a.layers[0], &b.layers[0], &mean.layers[0]);
        for (i, m) in lm.weights.iter().enumerate() {
            assert!((m - halfway(la.weights[i], lb.weights[i])).abs() < 1e-6);
        }
        assert_ne!(mean, a);
    }

    #[test]
    fn a_net_averaged_with_itself_is_unchanged_through_the_export() {
        let net = random(3).quantise("t".into()).unwrap();
        let model = Model::from_network(&net).unwrap();
        let mean = average(&[model.clone(), model.clone(), model]).unwrap();
        let again = mean.quantise("t".into()).unwrap();
        assert_eq!(again.to_bytes(), net.to_bytes());
    }

    #[test]
    fn nets_of_different_widths_are_refused() {
        let small = random(4);
        let wide = Model::random_screlu(FeatureSet::Chess768(KingBuckets::RANKS4), 48, 5);
        assert!(
            average(&[small, wide])
                .unwrap_err()
                .contains("architecture")
        );
        assert!(average(&[]).is_err());
    }
}
