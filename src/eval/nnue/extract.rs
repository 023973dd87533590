//! `tarpon extract-net`: cuts the Stockfish 15.1 net a Stockfish binary
//! embeds out of it, so the net never has to be downloaded (or committed).
//!
//! The net sits in the binary byte for byte as its file: the version word,
//! the header hash, the description, the transformer hash, then parameters
//! whose length follows from the architecture. Every occurrence of the
//! version word is tried until one parses as a whole net.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use super::format::{STOCKFISH15_VERSION, stockfish15_net_len};
use super::network::Network;

/// Arguments of `tarpon extract-net`.
#[derive(Args, Debug)]
pub struct ExtractArgs {
    /// A Stockfish 15.1 binary with its net embedded (e.g. /usr/games/stockfish).
    pub binary: PathBuf,
    /// Where to write the net.
    pub out: PathBuf,
}

/// The first complete Stockfish 15.1 net in `bytes`: its offset, its bytes
/// and the net they hold.
pub fn find_embedded_net(bytes: &[u8]) -> Option<(usize, &[u8], Network)> {
    let word = STOCKFISH15_VERSION.to_le_bytes();
    let mut from = 0;
    while let Some(found) = bytes[from..].windows(4).position(|w| w == word) {
        let at = from + found;
        if let Ok(len) = stockfish15_net_len(&bytes[at..])
            && let Some(net) = bytes.get(at..at + len)
            && let Ok(parsed) = Network::from_bytes(net)
        {
            return Some((at, net, parsed));
        }
        from = at + 1;
    }
    None
}

/// Reads `binary`, finds its net and writes it to `out`; the message says
/// what was written.
pub fn extract(binary: &Path, out: &Path) -> Result<String, String> {
    let bytes = std::fs::read(binary).map_err(|e| format!("{}: {e}", binary.display()))?;
    let (offset, net, parsed) = find_embedded_net(&bytes).ok_or_else(|| {
        format!(
            "{}: no embedded Stockfish 15.1 net found (version word {STOCKFISH15_VERSION:08x}, HalfKAv2_hm header, complete parameters)",
            binary.display()
        )
    })?;
    std::fs::write(out, net).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(format!(
        "wrote {} ({} bytes from offset {offset:#x} of {}): {}, \"{}\"",
        out.display(),
        net.len(),
        binary.display(),
        parsed.architecture(),
        parsed.description
    ))
}

pub fn run(args: ExtractArgs) -> ExitCode {
    match extract(&args.binary, &args.out) {
        Ok(message) => {
            println!("{message}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
