//! Embeds the default net when `nets/default.nnue` exists (the NNUE code
//! reads it with `include_bytes!` under `cfg(tarpon_default_net)`), so the
//! binary runs with no files beside it and builds fine before any net is
//! trained.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(tarpon_default_net)");
    println!("cargo::rerun-if-changed=nets/default.nnue");
    println!("cargo::rerun-if-changed=nets");
    if std::path::Path::new("nets/default.nnue").exists() {
        println!("cargo::rustc-cfg=tarpon_default_net");
    }
}
