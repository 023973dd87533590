//! Chooses the net the binary embeds: the file named by the environment
//! variable `TARPON_EVALFILE` (the Makefile sets it from OpenBench's
//! `EVALFILE=<path>`), else `nets/default.nnue` when it exists. The NNUE code
//! reads it with `include_bytes!(env!("TARPON_EMBEDDED_NET"))` under
//! `cfg(tarpon_default_net)`, so the binary runs with no files beside it and
//! builds fine before any net is trained.

use std::path::{Path, PathBuf};

fn main() {
    println!("cargo::rustc-check-cfg=cfg(tarpon_default_net)");
    println!("cargo::rerun-if-env-changed=TARPON_EVALFILE");
    println!("cargo::rerun-if-changed=nets/default.nnue");
    // Cargo scans a watched folder for any change, so watching `nets` always
    // would rebuild the engine for an edit of the ledger or a script there;
    // it is watched only while it holds no default net, to see one arrive.
    let default = Path::new(env!("CARGO_MANIFEST_DIR")).join("nets/default.nnue");
    if !default.exists() {
        println!("cargo::rerun-if-changed=nets");
    }
    let net = match std::env::var_os("TARPON_EVALFILE").filter(|v| !v.is_empty()) {
        Some(file) => {
            let path = PathBuf::from(file);
            // A net asked for but missing must fail the build, not fall back
            // to the default net unnoticed.
            if !path.is_file() {
                eprintln!(
                    "error: TARPON_EVALFILE (EVALFILE) names {}, which is not a file",
                    path.display()
                );
                std::process::exit(1);
            }
            println!("cargo::rerun-if-changed={}", path.display());
            Some(path)
        }
        None => default.exists().then_some(default),
    };
    if let Some(path) = net {
        let path = path.canonicalize().unwrap_or(path);
        println!("cargo::rustc-env=TARPON_EMBEDDED_NET={}", path.display());
        println!("cargo::rustc-cfg=tarpon_default_net");
    }
}
