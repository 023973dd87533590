//! The index file: everything a query needs, in one file read into memory
//! whole (23 MB for 960 games; a memory map would fault a query if the file
//! were truncated under it, as the engine's nets avoid too). A fixed 64-byte header (magic, version, sizes, checksum) is
//! followed by the TF-IDF weights, the LSI basis, one f32 vector per
//! position, one 42-byte record per position (board, side to move,
//! castling, en passant, game, ply, move played), one 32-byte record per
//! game and the games' strings. All numbers little-endian.
//!
//! Opening checks the magic, the version, that the sizes add up to the
//! file's length exactly, the checksum of the body, and every record, so
//! that a truncated, foreign or corrupt file is refused with a message
//! and the accessors afterwards cannot fail.

use std::fs::File;
use std::io::{Read as _, Write as _};
use std::path::Path;

use super::features::{DIMS, Snapshot, valid_cell};
use super::games::{GameInfo, GameResult, Sample};
use super::lsi::Basis;

const MAGIC: &[u8; 8] = b"TRPNSIMI";
/// Bump when the layout or the features change: an old index is refused.
pub const VERSION: u32 = 1;
const HEADER: usize = 64;
const POSITION: usize = 42;
const GAME: usize = 32;

/// One indexed position.
#[derive(Clone, Debug)]
pub struct Entry {
    pub snapshot: Snapshot,
    pub game: u32,
    pub ply: u16,
    pub played: u16,
}

/// An open, checked index.
pub struct Index {
    bytes: Vec<u8>,
    pub dims: usize,
    pub k: usize,
    pub every: u32,
    pub positions: usize,
    pub games: usize,
    vectors_at: usize,
    records_at: usize,
    games_at: usize,
    strings_at: usize,
}

/// A fast 64-bit checksum over 8-byte words (and the tail), enough to
/// catch a flipped bit or a half-written file.
fn checksum(body: &[u8]) -> u64 {
    let mut h: u64 = 0x243f_6a88_85a3_08d3 ^ body.len() as u64;
    let words = body.chunks_exact(8);
    let tail = words.remainder();
    for w in words {
        let w = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(31);
    }
    for &b in tail {
        h = (h ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    h ^ (h >> 29)
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes([
        b[at],
        b[at + 1],
        b[at + 2],
        b[at + 3],
        b[at + 4],
        b[at + 5],
        b[at + 6],
        b[at + 7],
    ])
}

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Where each section starts, and the total length, for the given sizes;
/// `None` when they overflow (a corrupt header).
fn layout(dims: u64, k: u64, n: u64, games: u64, strings: u64) -> Option<[usize; 5]> {
    let vectors = (HEADER as u64)
        .checked_add(dims.checked_mul(4)?)?
        .checked_add(dims.checked_mul(k)?.checked_mul(4)?)?
        .checked_add(k.checked_mul(4)?)?;
    let records = vectors.checked_add(n.checked_mul(k)?.checked_mul(4)?)?;
    let game_table = records.checked_add(n.checked_mul(POSITION as u64)?)?;
    let string_blob = game_table.checked_add(games.checked_mul(GAME as u64)?)?;
    let end = string_blob.checked_add(strings)?;
    let conv = |x: u64| usize::try_from(x).ok();
    Some([
        conv(vectors)?,
        conv(records)?,
        conv(game_table)?,
        conv(string_blob)?,
        conv(end)?,
    ])
}

fn pack_snapshot(s: &Snapshot, out: &mut Vec<u8>) {
    for pair in s.cells.chunks_exact(2) {
        out.push(pair[0] | pair[1] << 4);
    }
    out.push(u8::from(s.black_to_move) | s.castling << 1);
    out.push(s.ep_file.map_or(0, |f| f + 1));
}

/// Everything the index holds, ready to write.
pub struct Contents<'a> {
    pub every: u32,
    pub idf: &'a [f32],
    pub basis: &'a Basis,
    /// `positions × basis.k`, row-major, each row of unit length.
    pub vectors: &'a [f32],
    pub samples: &'a [Sample],
    pub games: &'a [GameInfo],
}

/// Write the index to `path` (through a temporary file renamed at the end,
/// so a crash never leaves a half-written index under the name).
pub fn write(path: &Path, c: &Contents) -> Result<u64, String> {
    let mut body = Vec::new();
    c.idf.iter().for_each(|x| body.extend(x.to_le_bytes()));
    c.basis.v.iter().for_each(|x| body.extend(x.to_le_bytes()));
    c.basis
        .singular
        .iter()
        .for_each(|x| body.extend(x.to_le_bytes()));
    c.vectors.iter().for_each(|x| body.extend(x.to_le_bytes()));
    for s in c.samples {
        pack_snapshot(&s.snapshot, &mut body);
        body.extend(s.game.to_le_bytes());
        body.extend(s.ply.to_le_bytes());
        body.extend(s.played.to_le_bytes());
    }
    let mut strings: Vec<u8> = Vec::new();
    for g in c.games {
        for text in [&g.white, &g.black, &g.event, &g.date, &g.eco] {
            // Headers longer than 64 KiB are cut (at a character boundary).
            let mut end = text.len().min(usize::from(u16::MAX));
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let offset = u32::try_from(strings.len()).map_err(|_| "too many game headers")?;
            body.extend(offset.to_le_bytes());
            body.extend((end as u16).to_le_bytes());
            strings.extend(&text.as_bytes()[..end]);
        }
        body.push(g.result as u8);
        body.push(0);
    }
    body.extend(&strings);

    let mut header = Vec::with_capacity(HEADER);
    header.extend(MAGIC);
    header.extend(VERSION.to_le_bytes());
    header.extend((c.basis.dims as u32).to_le_bytes());
    header.extend((c.basis.k as u32).to_le_bytes());
    header.extend(c.every.to_le_bytes());
    header.extend((c.samples.len() as u64).to_le_bytes());
    header.extend((c.games.len() as u64).to_le_bytes());
    header.extend((strings.len() as u64).to_le_bytes());
    header.extend(checksum(&body).to_le_bytes());
    header.resize(HEADER, 0);

    let tmp = path.with_extension("tmp-writing");
    let write = || -> std::io::Result<()> {
        let mut f = std::io::BufWriter::new(File::create(&tmp)?);
        f.write_all(&header)?;
        f.write_all(&body)?;
        f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok((HEADER + body.len()) as u64)
}

impl Index {
    /// Map and check an index file.
    pub fn open(path: &Path) -> Result<Index, String> {
        let name = path.display();
        let mut file = File::open(path).map_err(|e| format!("cannot open {name}: {e}"))?;
        let len = file
            .metadata()
            .map_err(|e| format!("cannot read {name}: {e}"))?
            .len();
        if len < HEADER as u64 {
            return Err(format!(
                "{name} is not a tarpon similar index: {len} bytes, shorter than the header"
            ));
        }
        // Read as much as the file holds now: a file that shrinks or grows
        // while it is read is caught by the size and checksum checks.
        let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
        file.read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read {name}: {e}"))?;
        Index::check(bytes).map_err(|e| format!("{name}: {e}"))
    }

    #[cfg(test)]
    fn from_vec(bytes: Vec<u8>) -> Result<Index, String> {
        Index::check(bytes)
    }

    fn check(bytes: Vec<u8>) -> Result<Index, String> {
        let b = &bytes[..];
        if b.len() < HEADER || &b[..8] != MAGIC {
            return Err("not a tarpon similar index (wrong magic bytes)".into());
        }
        let version = u32_at(b, 8);
        if version != VERSION {
            return Err(format!(
                "index format version {version}, this tarpon reads version {VERSION}: rebuild the index"
            ));
        }
        let dims = u64::from(u32_at(b, 12));
        let k = u64::from(u32_at(b, 16));
        let every = u32_at(b, 20);
        let n = u64_at(b, 24);
        let games = u64_at(b, 32);
        let strings = u64_at(b, 40);
        if dims != DIMS as u64 {
            return Err(format!(
                "index has {dims} features per position, this tarpon uses {DIMS}: rebuild the index"
            ));
        }
        if k == 0 || k > dims {
            return Err(format!("corrupt header: {k} LSI dimensions"));
        }
        let [vectors_at, records_at, games_at, strings_at, end] =
            layout(dims, k, n, games, strings)
                .ok_or("corrupt header: the section sizes overflow")?;
        if end != b.len() {
            return Err(format!(
                "truncated or corrupt: the header promises {end} bytes, the file has {}",
                b.len()
            ));
        }
        if checksum(&b[HEADER..]) != u64_at(b, 48) {
            return Err("checksum mismatch: the file is corrupt".into());
        }
        let index = Index {
            dims: dims as usize,
            k: k as usize,
            every,
            positions: n as usize,
            games: games as usize,
            vectors_at,
            records_at,
            games_at,
            strings_at,
            bytes,
        };
        index.check_records()?;
        Ok(index)
    }

    /// Every record points inside the file and decodes: after this the
    /// accessors need no error path.
    fn check_records(&self) -> Result<(), String> {
        let b = &self.bytes[..];
        for i in 0..self.positions {
            let r = &b[self.records_at + i * POSITION..][..POSITION];
            let cells_ok = r[..32]
                .iter()
                .all(|&x| valid_cell(x & 15) && valid_cell(x >> 4));
            if !cells_ok || r[32] >> 5 != 0 || r[33] > 8 || u32_at(r, 34) as usize >= self.games {
                return Err(format!("corrupt position record {i}"));
            }
        }
        let blob = &b[self.strings_at..];
        for g in 0..self.games {
            let r = &b[self.games_at + g * GAME..][..GAME];
            for f in 0..5 {
                let (off, len) = (u32_at(r, 6 * f) as usize, usize::from(u16_at(r, 6 * f + 4)));
                let ok = blob
                    .get(off..off + len)
                    .is_some_and(|s| std::str::from_utf8(s).is_ok());
                if !ok {
                    return Err(format!("corrupt game record {g}"));
                }
            }
            if GameResult::from_code(r[30]).is_none() {
                return Err(format!("corrupt game record {g}"));
            }
        }
        Ok(())
    }

    pub fn idf(&self) -> Vec<f32> {
        f32s(&self.bytes[HEADER..][..self.dims * 4])
    }

    pub fn basis(&self) -> Basis {
        let at = HEADER + self.dims * 4;
        let v = f32s(&self.bytes[at..][..self.dims * self.k * 4]);
        let singular = f32s(&self.bytes[at + v.len() * 4..][..self.k * 4]);
        Basis {
            dims: self.dims,
            k: self.k,
            v,
            singular,
        }
    }

    /// The position vectors as raw little-endian f32 bytes, `k * 4` per row.
    pub fn vector_bytes(&self) -> &[u8] {
        &self.bytes[self.vectors_at..self.records_at]
    }

    pub fn entry(&self, i: usize) -> Entry {
        let r = &self.bytes[self.records_at + i * POSITION..][..POSITION];
        let mut cells = [0u8; 64];
        for (j, &x) in r[..32].iter().enumerate() {
            cells[2 * j] = x & 15;
            cells[2 * j + 1] = x >> 4;
        }
        Entry {
            snapshot: Snapshot {
                cells,
                black_to_move: r[32] & 1 != 0,
                castling: r[32] >> 1,
                ep_file: r[33].checked_sub(1),
            },
            game: u32_at(r, 34),
            ply: u16_at(r, 38),
            played: u16_at(r, 40),
        }
    }

    /// The game of position `i` (cheaper than the whole `entry`).
    pub fn game_of(&self, i: usize) -> u32 {
        u32_at(&self.bytes, self.records_at + i * POSITION + 34)
    }

    pub fn game(&self, g: u32) -> GameInfo {
        let b = &self.bytes[..];
        let r = &b[self.games_at + g as usize * GAME..][..GAME];
        let text = |f: usize| {
            let (off, len) = (u32_at(r, 6 * f) as usize, usize::from(u16_at(r, 6 * f + 4)));
            String::from_utf8_lossy(&b[self.strings_at + off..][..len]).into_owned()
        };
        GameInfo {
            white: text(0),
            black: text(1),
            event: text(2),
            date: text(3),
            eco: text(4),
            result: GameResult::from_code(r[30]).unwrap_or_default(),
        }
    }

    pub fn file_len(&self) -> usize {
        self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similar::features::Snapshot;
    use crate::test_scratch::ScratchDir;
    use shakmaty::Chess;

    fn small() -> Vec<u8> {
        let dir = ScratchDir::new("similar-index");
        let path = dir.join("small.idx");
        let k = 2;
        let basis = Basis {
            dims: DIMS,
            k,
            v: vec![0.5; DIMS * k],
            singular: vec![2.0, 1.0],
        };
        let samples = vec![Sample {
            game: 0,
            ply: 3,
            snapshot: Snapshot::of(&Chess::default()),
            played: 12,
        }];
        let games = vec![GameInfo {
            white: "Zukertort".into(),
            black: "Steinitz".into(),
            event: "World Ch".into(),
            date: "1886.01.11".into(),
            eco: "D26".into(),
            result: GameResult::BlackWins,
        }];
        let contents = Contents {
            every: 1,
            idf: &vec![1.0; DIMS],
            basis: &basis,
            vectors: &[0.6, 0.8],
            samples: &samples,
            games: &games,
        };
        let len = write(&path, &contents).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes.len() as u64, len);
        let index = Index::open(&path).unwrap();
        assert_eq!(index.game(0), games[0]);
        assert_eq!(index.entry(0).snapshot, samples[0].snapshot);
        assert_eq!((index.entry(0).ply, index.entry(0).played), (3, 12));
        assert_eq!(index.basis().singular, vec![2.0, 1.0]);
        assert_eq!(f32s(index.vector_bytes()), vec![0.6, 0.8]);
        bytes
    }

    #[test]
    fn an_index_round_trips_and_damage_is_refused() {
        let good = small();
        assert!(Index::from_vec(good.clone()).is_ok());
        let refuse = |bytes: Vec<u8>, why: &str| {
            let err = Index::from_vec(bytes).err().expect("refused");
            assert!(err.contains(why), "{err}");
        };
        refuse(good[..good.len() - 1].to_vec(), "truncated");
        refuse(good[..10].to_vec(), "magic");
        refuse(Vec::new(), "magic");
        let mut magic = good.clone();
        magic[0] = b'X';
        refuse(magic, "magic");
        let mut version = good.clone();
        version[8] = 9;
        refuse(version, "version 9");
        let mut flipped = good.clone();
        let last = flipped.len() - 3;
        flipped[last] ^= 1;
        refuse(flipped, "checksum");
        let mut huge = good.clone();
        huge[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
        refuse(huge, "corrupt header");
        let mut k = good.clone();
        k[16] = 0;
        refuse(k, "LSI dimensions");
        // Random bytes of every length up to a few KB, magic or not: never a panic.
        let mut x = 0x1234_5678_u64;
        for len in (0..good.len()).step_by(97) {
            let mut bytes: Vec<u8> = (0..len)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (x >> 56) as u8
                })
                .collect();
            if len >= 8 {
                bytes[..8].copy_from_slice(MAGIC);
            }
            assert!(Index::from_vec(bytes).is_err());
        }
    }
}
