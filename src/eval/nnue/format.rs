//! Net files: the classic Stockfish 12 `.nnue` layout (HalfKP, read and
//! written unchanged), Stockfish 15.1's (HalfKAv2_hm with PSQT and layer
//! stacks, read and written unchanged) and tarpon's own checksummed layout
//! (any feature set, output buckets, the clipped ReLU stack or the SCReLU
//! head). All are documented byte by byte in `nets/README.md`.
//!
//! Every read checks sizes before it touches data, so a truncated, foreign or
//! random file yields a [`NetError`], never a panic.

use std::path::Path;

use super::features::{FeatureSet, KingBuckets};
use super::layers::{
    Affine, FeatureTransformer, SCRELU_WEIGHT_ONE, STOCKFISH_OUTPUT_SCALE, ScreluOutput, padded,
};
use super::network::{Head, MAX_BUCKETS, MAX_HALF_DIMS, MAX_LAYER_WIDTH, NetError, Network};
use super::simd::SCRELU_ONE;

/// Stockfish 12's file version word.
pub const STOCKFISH12_VERSION: u32 = 0x7AF3_2F16;
/// The file version word of Stockfish 14 to 16 (HalfKAv2 and later nets).
pub const STOCKFISH15_VERSION: u32 = 0x7AF3_2F20;
/// Stockfish 15.1's `fc_0` outputs before the forwarded one (`FC_0_OUTPUTS`).
pub const STOCKFISH15_FC0_OUTPUTS: usize = 15;
/// Stockfish 15.1's `fc_1` outputs.
pub const STOCKFISH15_FC1_OUTPUTS: usize = 32;
/// Stockfish 15.1's layer stacks and PSQT buckets.
pub const STOCKFISH15_BUCKETS: usize = 8;
/// What Stockfish 16 and later write before each compressed array.
const LEB128_MAGIC: &[u8] = b"COMPRESSED_LEB128";
/// The feature set hashes Stockfish embeds in its files.
const HALFKP_HASH: u32 = 0x5D69_D5B8;
const HALFKAV2_HM_HASH: u32 = 0x7F23_4CB8;
/// Magic bytes of tarpon's own format.
pub const TARPON_MAGIC: &[u8; 8] = b"TARPNNUE";
/// The newest version of tarpon's format this build reads and writes.
/// Version 2 added the accumulator shift; version 3 the head field and the
/// Chess768 feature set with its king bucket table. Older files still load,
/// and nets an older version can hold are written in it.
pub const TARPON_VERSION: u32 = 3;
/// The version that [`TARPON_VERSION`] 3 extends: what plain HalfKP and
/// HalfKAv2_hm nets are still written in.
const TARPON_VERSION_PLAIN: u32 = 2;
/// Head ids of version 3.
const HEAD_PLAIN: u32 = 1;
const HEAD_SCRELU: u32 = 2;
/// Longest description accepted (Stockfish's strings are a few hundred bytes).
const MAX_DESCRIPTION: usize = 1 << 16;
/// Most dense layers accepted in tarpon's format.
const MAX_LAYERS: usize = 8;
/// Widest hidden layer searched for when sizing a Stockfish 12 file.
const MAX_SF12_HIDDEN: u32 = 512;

impl Network {
    /// Reads a net file (either format), validated before use. The file is
    /// read into memory rather than memory-mapped, as the Syzygy tables are:
    /// a file truncated or replaced on disk while it is read then gives an
    /// error instead of a SIGBUS.
    pub fn load(path: impl AsRef<Path>) -> Result<Network, NetError> {
        let path = path.as_ref();
        let bytes =
            std::fs::read(path).map_err(|e| NetError::Io(format!("{}: {e}", path.display())))?;
        Network::from_bytes(&bytes)
    }

    /// Parses a net from memory, detecting the format from its first bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let version = (bytes.len() >= 4)
            .then(|| u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]));
        if bytes.starts_with(TARPON_MAGIC) {
            read_tarpon(bytes)
        } else if version == Some(STOCKFISH12_VERSION) {
            read_stockfish12(bytes)
        } else if version == Some(STOCKFISH15_VERSION) {
            read_stockfish15(bytes)
        } else if bytes.len() < 4 {
            Err(NetError::Truncated {
                needed: 4,
                found: bytes.len() as u64,
            })
        } else {
            Err(NetError::UnknownFormat(format!(
                "starts with {:02x?}, expected a Stockfish version word (7af32f16, 7af32f20) or \"TARPNNUE\"",
                &bytes[..bytes.len().min(8)]
            )))
        }
    }

    /// Serialises in the layout users expect: Stockfish 15.1's for nets of
    /// its architecture, Stockfish 12 for HalfKP nets it can hold, tarpon's
    /// format otherwise.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self.head {
            Head::Stockfish15 => self.to_stockfish15_bytes(),
            Head::Plain => self
                .to_stockfish12_bytes()
                .unwrap_or_else(|_| self.to_tarpon_bytes()),
            Head::Screlu => self.to_tarpon_bytes(),
        }
    }

    /// Stockfish 15.1's layout (only for nets with its head).
    fn to_stockfish15_bytes(&self) -> Vec<u8> {
        let ft_hash = stockfish15_transformer_hash(self.half_dims() as u32);
        let net_hash = stockfish15_network_hash(self.half_dims() as u32);
        let mut w = Writer::default();
        w.u32(STOCKFISH15_VERSION);
        w.u32(ft_hash ^ net_hash);
        w.u32(self.description.len() as u32);
        w.bytes(self.description.as_bytes());
        w.u32(ft_hash);
        self.write_transformer(&mut w);
        for &x in &self.transformer.psqt_weights {
            w.u32(x as u32);
        }
        for stack in &self.stacks {
            w.u32(net_hash);
            for layer in stack {
                w.layer(layer);
            }
        }
        w.0
    }

    /// Writes the net to `path` in the layout [`Network::to_bytes`] picks.
    pub fn save(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        std::fs::write(path, self.to_bytes())
    }

    /// The Stockfish 12 layout; only HalfKP nets with two hidden layers and a
    /// single output bucket fit it. Its description field is the
    /// architecture string (the net's own description is not kept).
    pub fn to_stockfish12_bytes(&self) -> Result<Vec<u8>, NetError> {
        let sizes = self.layer_sizes();
        if self.features() != FeatureSet::HalfKP
            || self.buckets() != 1
            || self.transformer.shift != 0
            || sizes.len() != 3
            || self.output_scale != STOCKFISH_OUTPUT_SCALE
        {
            return Err(NetError::Architecture(format!(
                "the Stockfish 12 layout holds HalfKP 2N->h1->h2->1 nets with output scale {STOCKFISH_OUTPUT_SCALE}, not {}",
                self.architecture()
            )));
        }
        let n = self.half_dims() as u32;
        let ft_hash = stockfish12_transformer_hash(n);
        let net_hash = stockfish12_network_hash(2 * n, sizes[0] as u32, sizes[1] as u32);
        // The description field holds the architecture string, as
        // Stockfish's trainers write it: readers rely on it to size the stack.
        let description = stockfish12_architecture_string(n, sizes[0], sizes[1]);
        let mut w = Writer::default();
        w.u32(STOCKFISH12_VERSION);
        w.u32(ft_hash ^ net_hash);
        w.u32(description.len() as u32);
        w.bytes(description.as_bytes());
        w.u32(ft_hash);
        self.write_transformer(&mut w);
        w.u32(net_hash);
        for layer in &self.stacks[0] {
            w.layer(layer);
        }
        Ok(w.0)
    }

    /// tarpon's own layout (see `nets/README.md`), in the oldest version that
    /// holds the net.
    pub fn to_tarpon_bytes(&self) -> Vec<u8> {
        let features = self.features();
        let screlu = self.head == Head::Screlu;
        let version = if screlu || matches!(features, FeatureSet::Chess768(_)) {
            TARPON_VERSION
        } else {
            TARPON_VERSION_PLAIN
        };
        let mut w = Writer::default();
        w.bytes(TARPON_MAGIC);
        w.u32(version);
        w.u32(feature_set_id(features));
        if version >= 3 {
            w.u32(if screlu { HEAD_SCRELU } else { HEAD_PLAIN });
            if let FeatureSet::Chess768(buckets) = features {
                w.u32(buckets.count() as u32);
                w.bytes(&buckets.table());
            }
        }
        w.u32(self.half_dims() as u32);
        w.u32(self.buckets() as u32);
        if screlu {
            w.u32(self.output_scale as u32);
            w.u32(SCRELU_ONE as u32);
            w.u32(SCRELU_WEIGHT_ONE as u32);
        } else {
            let sizes = self.layer_sizes();
            w.u32(sizes.len() as u32);
            for s in sizes {
                w.u32(s as u32);
            }
            w.u32(self.output_scale as u32);
            w.u32(self.transformer.shift);
        }
        w.u32(self.description.len() as u32);
        w.bytes(self.description.as_bytes());
        self.write_transformer(&mut w);
        for stack in &self.stacks {
            for layer in stack {
                w.layer(layer);
            }
        }
        for bucket in 0..self.screlu.buckets() {
            w.u32(self.screlu.biases[bucket] as u32);
            w.i16s(self.screlu.row(bucket));
        }
        let crc = crc32(&w.0);
        w.u32(crc);
        w.0
    }

    fn write_transformer(&self, w: &mut Writer) {
        w.i16s(&self.transformer.biases);
        w.i16s(&self.transformer.weights);
    }
}

/// The feature set's id in tarpon's net and checkpoint files (Chess768's
/// bucket table follows it there).
pub fn feature_set_id(set: FeatureSet) -> u32 {
    match set {
        FeatureSet::HalfKP => 1,
        FeatureSet::HalfKAv2Hm => 2,
        FeatureSet::Chess768(_) => 3,
    }
}

/// Reads what [`feature_set_id`] and, for Chess768, the bucket count and
/// table after it describe; `bytes` gives the next `n` bytes of the file.
pub fn read_feature_set<E>(
    id: u32,
    mut bytes: impl FnMut(usize) -> Result<Vec<u8>, E>,
    bad: impl Fn(String) -> E,
) -> Result<FeatureSet, E> {
    match id {
        1 => Ok(FeatureSet::HalfKP),
        2 => Ok(FeatureSet::HalfKAv2Hm),
        3 => {
            let raw = bytes(4)?;
            let count = u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]) as usize;
            let table: [u8; 32] = bytes(32)?
                .try_into()
                .map_err(|_| bad("short king bucket table".into()))?;
            KingBuckets::new(count, table)
                .map(FeatureSet::Chess768)
                .ok_or_else(|| {
                    bad(format!(
                        "king bucket table {table:?} for {count} buckets (1 to {}, every entry below the count)",
                        KingBuckets::MAX
                    ))
                })
        }
        other => Err(bad(format!("unknown feature set id {other}"))),
    }
}

// ---------------------------------------------------------------- Stockfish 12

/// Stockfish 12 hashes each layer's kind and size into the file so a net is
/// never read with the wrong architecture. These are its formulas.
fn stockfish12_transformer_hash(half_dims: u32) -> u32 {
    HALFKP_HASH ^ (2 * half_dims)
}

fn input_slice_hash(outputs: u32) -> u32 {
    0xEC42_E90D ^ outputs
}

fn affine_hash(previous: u32, outputs: u32) -> u32 {
    0xCC03_DAE4_u32.wrapping_add(outputs) ^ (previous >> 1) ^ (previous << 31)
}

fn clipped_relu_hash(previous: u32) -> u32 {
    0x538D_24C7_u32.wrapping_add(previous)
}

fn stockfish12_network_hash(inputs: u32, h1: u32, h2: u32) -> u32 {
    let h = input_slice_hash(inputs);
    let h = clipped_relu_hash(affine_hash(h, h1));
    let h = clipped_relu_hash(affine_hash(h, h2));
    affine_hash(h, 1)
}

fn stockfish12_architecture_string(n: u32, h1: usize, h2: usize) -> String {
    let i = 2 * n;
    format!(
        "Features=HalfKP(Friend)[41024->{n}x2],Network=AffineTransform[1<-{h2}](ClippedReLU[{h2}](AffineTransform[{h2}<-{h1}](ClippedReLU[{h1}](AffineTransform[{h1}<-{i}](InputSlice[{i}(0:{i})])))))"
    )
}

/// `(2N, h1, h2)` from an architecture string of the form
/// [`stockfish12_architecture_string`] writes (and Stockfish 12's nets carry).
fn parse_stockfish12_architecture(description: &str) -> Option<(usize, usize, usize)> {
    let mut layers = description.split("AffineTransform[").skip(1).map(|rest| {
        let (shape, _) = rest.split_once(']')?;
        let (out, inp) = shape.split_once("<-")?;
        Some((out.parse::<usize>().ok()?, inp.parse::<usize>().ok()?))
    });
    let (one, h2) = layers.next()??;
    let (h2_again, h1) = layers.next()??;
    let (h1_again, inputs) = layers.next()??;
    (one == 1 && h2 == h2_again && h1 == h1_again && layers.next().is_none())
        .then_some((inputs, h1, h2))
}

/// Bytes the dense part (after the network hash) takes for `2N -> h1 -> h2 -> 1`.
fn stockfish12_dense_bytes(inputs: usize, h1: usize, h2: usize) -> usize {
    [(inputs, h1), (h1, h2), (h2, 1)]
        .iter()
        .map(|&(i, o)| 4 * o + o * padded(i))
        .sum()
}

/// The fields every Stockfish layout starts with, after its version word:
/// file hash, description and transformer hash.
fn read_stockfish_header(r: &mut Reader) -> Result<(u32, String, u32), NetError> {
    let file_hash = r.u32()?;
    let description = r.description()?;
    let transformer_hash = r.u32()?;
    Ok((file_hash, description, transformer_hash))
}

fn read_stockfish12(bytes: &[u8]) -> Result<Network, NetError> {
    let mut r = Reader::new(bytes);
    r.u32()?; // the version word, already recognised
    let (file_hash, description, ft_hash) = read_stockfish_header(&mut r)?;
    let width = ft_hash ^ HALFKP_HASH;
    if width == 0 || !width.is_multiple_of(2) || width as usize / 2 > MAX_HALF_DIMS {
        return Err(NetError::Architecture(format!(
            "feature transformer hash {ft_hash:08x} is not HalfKP(Friend); newer Stockfish nets (HalfKAv2 and later) need their own loader"
        )));
    }
    let n = width / 2;
    let transformer = read_transformer(&mut r, FeatureSet::HalfKP, n as usize)?;
    let net_hash = r.u32()?;
    if file_hash != ft_hash ^ net_hash {
        return Err(NetError::Malformed(format!(
            "header hash {file_hash:08x} is not the transformer hash {ft_hash:08x} xor the network hash {net_hash:08x}"
        )));
    }
    // The hash alone is ambiguous (different sizes can collide), and so is
    // the size: trust the architecture string Stockfish's trainers write as
    // the description, else take a stack matching both hash and size.
    let rest = bytes.len() - r.position();
    let described =
        parse_stockfish12_architecture(&description).filter(|&(n2, _, _)| n2 == width as usize);
    let mut hash_matches = (1..=MAX_SF12_HIDDEN)
        .flat_map(|h1| (1..=MAX_SF12_HIDDEN).map(move |h2| (h1 as usize, h2 as usize)))
        .filter(|&(h1, h2)| described.is_none_or(|(_, d1, d2)| (d1, d2) == (h1, h2)))
        .filter(|&(h1, h2)| stockfish12_network_hash(width, h1 as u32, h2 as u32) == net_hash)
        .peekable();
    let Some(&(first_h1, first_h2)) = hash_matches.peek() else {
        return Err(NetError::Architecture(format!(
            "network hash {net_hash:08x} is no HalfKP {width}->h1->h2->1 stack with hidden layers up to {MAX_SF12_HIDDEN}{}",
            if described.is_some() {
                " matching the description"
            } else {
                ""
            }
        )));
    };
    let Some((h1, h2)) =
        hash_matches.find(|&(h1, h2)| stockfish12_dense_bytes(width as usize, h1, h2) == rest)
    else {
        let needed = r.position() + stockfish12_dense_bytes(width as usize, first_h1, first_h2);
        return Err(if bytes.len() < needed {
            NetError::Truncated {
                needed: needed as u64,
                found: bytes.len() as u64,
            }
        } else {
            NetError::Malformed(format!(
                "{rest} bytes of dense layers fit no stack with network hash {net_hash:08x}"
            ))
        });
    };
    let stack = [(width as usize, h1), (h1, h2), (h2, 1)]
        .iter()
        .map(|&(i, o)| r.layer(i, o))
        .collect::<Result<Vec<_>, _>>()?;
    r.finish()?;
    Network::new(
        transformer,
        vec![stack],
        STOCKFISH_OUTPUT_SCALE,
        description,
    )
}

// ---------------------------------------------------------------- Stockfish 15.1

/// The hashes Stockfish 15.1 embeds: the transformer's (feature set and
/// output width) and the dense stack's, folded over its layers as in
/// Stockfish 12 (the squared clipped ReLU does not take part).
fn stockfish15_transformer_hash(half_dims: u32) -> u32 {
    HALFKAV2_HM_HASH ^ (2 * half_dims)
}

fn stockfish15_network_hash(half_dims: u32) -> u32 {
    let h = input_slice_hash(2 * half_dims);
    let h = clipped_relu_hash(affine_hash(h, STOCKFISH15_FC0_OUTPUTS as u32 + 1));
    let h = clipped_relu_hash(affine_hash(h, STOCKFISH15_FC1_OUTPUTS as u32));
    affine_hash(h, 1)
}

/// The layer shapes of one Stockfish 15.1 stack, `(inputs, outputs)`.
fn stockfish15_stack_shape(half_dims: usize) -> [(usize, usize); 3] {
    [
        (half_dims, STOCKFISH15_FC0_OUTPUTS + 1),
        (2 * STOCKFISH15_FC0_OUTPUTS, STOCKFISH15_FC1_OUTPUTS),
        (STOCKFISH15_FC1_OUTPUTS, 1),
    ]
}

fn dense_bytes(shape: &[(usize, usize)]) -> usize {
    shape.iter().map(|&(i, o)| 4 * o + o * padded(i)).sum()
}

/// What the header of a Stockfish 15.1 file announces.
struct Stockfish15Header {
    description: String,
    file_hash: u32,
    transformer_hash: u32,
    half_dims: usize,
    /// Bytes of the header (up to and with the transformer hash).
    header_len: usize,
    /// Bytes of the whole file.
    file_len: usize,
}

fn stockfish15_header(bytes: &[u8]) -> Result<Stockfish15Header, NetError> {
    let mut r = Reader::new(bytes);
    if r.u32()? != STOCKFISH15_VERSION {
        return Err(NetError::UnknownFormat(
            "no Stockfish 15.1 version word".into(),
        ));
    }
    let (file_hash, description, transformer_hash) = read_stockfish_header(&mut r)?;
    let width = transformer_hash ^ HALFKAV2_HM_HASH;
    if width == 0 || !width.is_multiple_of(32) || width as usize / 2 > MAX_HALF_DIMS {
        return Err(NetError::Architecture(format!(
            "feature transformer hash {transformer_hash:08x} is not HalfKAv2_hm(Friend) with a width tarpon runs"
        )));
    }
    if bytes[r.position()..].starts_with(LEB128_MAGIC) {
        return Err(NetError::UnsupportedVersion(
            "LEB128-compressed Stockfish net (Stockfish 16 and later); tarpon reads Stockfish 15.1's layout".into(),
        ));
    }
    let half_dims = width as usize / 2;
    let dims = FeatureSet::HalfKAv2Hm.dimensions();
    let transformer = 2 * half_dims + 2 * half_dims * dims + 4 * STOCKFISH15_BUCKETS * dims;
    let stacks = STOCKFISH15_BUCKETS * (4 + dense_bytes(&stockfish15_stack_shape(half_dims)));
    Ok(Stockfish15Header {
        description,
        file_hash,
        transformer_hash,
        half_dims,
        header_len: r.position(),
        file_len: r.position() + transformer + stacks,
    })
}

/// The exact length of the Stockfish 15.1 net whose header starts `bytes`
/// (which may go on past the net), from the architecture the header
/// announces: how `tarpon extract-net` cuts a net out of a binary.
pub fn stockfish15_net_len(bytes: &[u8]) -> Result<usize, NetError> {
    let header = stockfish15_header(bytes)?;
    let expected = header.file_hash ^ header.transformer_hash;
    let network_hash = stockfish15_network_hash(header.half_dims as u32);
    if expected != network_hash {
        return Err(NetError::Architecture(format!(
            "network hash {expected:08x} is not Stockfish 15.1's {network_hash:08x} for width {}",
            header.half_dims
        )));
    }
    Ok(header.file_len)
}

fn read_stockfish15(bytes: &[u8]) -> Result<Network, NetError> {
    let header = stockfish15_header(bytes)?;
    let n = header.half_dims;
    let network_hash = stockfish15_network_hash(n as u32);
    if header.file_hash != header.transformer_hash ^ network_hash {
        return Err(NetError::Architecture(format!(
            "header hash {:08x} is not Stockfish 15.1's transformer hash {:08x} xor its network hash {network_hash:08x} (another HalfKAv2_hm architecture?)",
            header.file_hash, header.transformer_hash
        )));
    }
    if bytes.len() < header.file_len {
        return Err(NetError::Truncated {
            needed: header.file_len as u64,
            found: bytes.len() as u64,
        });
    }
    if bytes.len() > header.file_len {
        // Earlier HalfKAv2_hm nets can carry the same hashes with a first
        // layer that reads both accumulators whole: a longer file.
        return Err(NetError::Architecture(format!(
            "{} bytes after the Stockfish 15.1 layout (perhaps an earlier HalfKAv2_hm net, Stockfish 14-15.0, whose first layer reads {} inputs: not supported)",
            bytes.len() - header.file_len,
            2 * n
        )));
    }
    let mut r = Reader::new(bytes);
    r.bytes(header.header_len)?;
    let mut transformer = read_transformer(&mut r, FeatureSet::HalfKAv2Hm, n)?;
    transformer.psqt_buckets = STOCKFISH15_BUCKETS;
    transformer.psqt_weights = r.i32s(STOCKFISH15_BUCKETS * FeatureSet::HalfKAv2Hm.dimensions())?;
    let mut stacks = Vec::with_capacity(STOCKFISH15_BUCKETS);
    for bucket in 0..STOCKFISH15_BUCKETS {
        let hash = r.u32()?;
        if hash != network_hash {
            return Err(NetError::Malformed(format!(
                "layer stack {bucket} has hash {hash:08x}, not {network_hash:08x}"
            )));
        }
        let stack = stockfish15_stack_shape(n)
            .iter()
            .map(|&(i, o)| r.layer(i, o))
            .collect::<Result<Vec<_>, _>>()?;
        stacks.push(stack);
    }
    r.finish()?;
    Network::new_stockfish15(transformer, stacks, header.description)
}

// ---------------------------------------------------------------- tarpon

fn read_tarpon(bytes: &[u8]) -> Result<Network, NetError> {
    let mut r = Reader::new(bytes);
    r.bytes(TARPON_MAGIC.len())?;
    let version = r.u32()?;
    if !(1..=TARPON_VERSION).contains(&version) {
        return Err(NetError::UnsupportedVersion(format!(
            "tarpon net format version {version}; this build reads versions 1 to {TARPON_VERSION}"
        )));
    }
    let feature_id = r.u32()?;
    let screlu = version >= 3
        && match r.u32()? {
            HEAD_PLAIN => false,
            HEAD_SCRELU => true,
            other => return Err(NetError::Architecture(format!("unknown head id {other}"))),
        };
    if version < 3 && feature_id > 2 {
        return Err(NetError::Architecture(format!(
            "feature set id {feature_id} in a version {version} file"
        )));
    }
    let features = read_feature_set(
        feature_id,
        |n| r.bytes(n).map(<[u8]>::to_vec),
        NetError::Architecture,
    )?;
    let n = r.u32()? as usize;
    if n == 0 || n > MAX_HALF_DIMS {
        return Err(NetError::Architecture(format!(
            "feature transformer width {n}"
        )));
    }
    let buckets = r.u32()? as usize;
    if buckets == 0 || buckets > MAX_BUCKETS {
        return Err(NetError::Architecture(format!("{buckets} output buckets")));
    }
    // The dense shape (none for the SCReLU head), the output scale and the shift.
    let mut shape = vec![2 * n];
    let (output_scale, shift) = if screlu {
        let output_scale = i32::try_from(r.u32()?).unwrap_or(0);
        let (qa, qb) = (r.u32()?, r.u32()?);
        if (qa, qb) != (SCRELU_ONE as u32, SCRELU_WEIGHT_ONE as u32) {
            return Err(NetError::Architecture(format!(
                "SCReLU quantisation QA = {qa}, QB = {qb} (this build runs {SCRELU_ONE} and {SCRELU_WEIGHT_ONE})"
            )));
        }
        (output_scale, 0)
    } else {
        let layers = r.u32()? as usize;
        if layers == 0 || layers > MAX_LAYERS {
            return Err(NetError::Architecture(format!(
                "{layers} dense layers (1 to {MAX_LAYERS} supported)"
            )));
        }
        for _ in 0..layers {
            let size = r.u32()? as usize;
            if size == 0 || size > MAX_LAYER_WIDTH {
                return Err(NetError::Architecture(format!("dense layer width {size}")));
            }
            shape.push(size);
        }
        let output_scale = i32::try_from(r.u32()?).unwrap_or(0);
        // Network::new refuses a shift out of range.
        let shift = if version >= 2 { r.u32()? } else { 0 };
        (output_scale, shift)
    };
    let description = r.description()?;

    // Everything is bounded above, so this cannot overflow.
    let transformer_bytes = 2 * n + 2 * n * features.dimensions();
    let head_bytes = if screlu {
        4 + 2 * 2 * n
    } else {
        shape
            .windows(2)
            .map(|io| 4 * io[1] + io[1] * padded(io[0]))
            .sum()
    };
    let needed = r.position() + transformer_bytes + buckets * head_bytes + 4;
    if bytes.len() < needed {
        return Err(NetError::Truncated {
            needed: needed as u64,
            found: bytes.len() as u64,
        });
    }
    if bytes.len() > needed {
        return Err(NetError::Malformed(format!(
            "{} bytes after the checksum",
            bytes.len() - needed
        )));
    }
    let tail = &bytes[needed - 4..];
    let stored = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
    let computed = crc32(&bytes[..needed - 4]);
    if stored != computed {
        return Err(NetError::Checksum { stored, computed });
    }

    let transformer = read_transformer(&mut r, features, n)?.with_shift(shift);
    let net = if screlu {
        let mut output = ScreluOutput::default();
        for _ in 0..buckets {
            output.biases.push(r.u32()? as i32);
            output.weights.extend(r.i16s(2 * n)?);
        }
        Network::new_screlu(transformer, output, output_scale, description)
    } else {
        let mut stacks = Vec::with_capacity(buckets);
        for _ in 0..buckets {
            let stack = shape
                .windows(2)
                .map(|io| r.layer(io[0], io[1]))
                .collect::<Result<Vec<_>, _>>()?;
            stacks.push(stack);
        }
        Network::new(transformer, stacks, output_scale, description)
    };
    r.u32()?; // the checksum, verified above
    r.finish()?;
    net
}

fn read_transformer(
    r: &mut Reader,
    features: FeatureSet,
    n: usize,
) -> Result<FeatureTransformer, NetError> {
    let biases = r.i16s(n)?;
    let weights = r.i16s(n * features.dimensions())?;
    Ok(FeatureTransformer::new(features, n, biases, weights))
}

// ---------------------------------------------------------------- bytes

/// CRC-32 (IEEE 802.3: reflected, polynomial 0xEDB88320, initial value and
/// final XOR 0xFFFFFFFF), as zip and PNG use.
pub fn crc32(data: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
                k += 1;
            }
            table[i] = c;
            i += 1;
        }
        table
    };
    !data.iter().fold(!0u32, |c, &b| {
        TABLE[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8)
    })
}

/// Little-endian reads that report truncation instead of panicking.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, pos: 0 }
    }

    fn position(&self) -> usize {
        self.pos
    }

    fn bytes(&mut self, n: usize) -> Result<&'a [u8], NetError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or(NetError::Truncated {
                needed: self.pos as u64 + n as u64,
                found: self.bytes.len() as u64,
            })?;
        let out = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, NetError> {
        let b = self.bytes(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn description(&mut self) -> Result<String, NetError> {
        let len = self.u32()? as usize;
        if len > MAX_DESCRIPTION {
            return Err(NetError::Malformed(format!("description of {len} bytes")));
        }
        Ok(String::from_utf8_lossy(self.bytes(len)?).into_owned())
    }

    fn i32s(&mut self, n: usize) -> Result<Vec<i32>, NetError> {
        let raw = self.bytes(n.saturating_mul(4))?;
        Ok(raw
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, NetError> {
        let raw = self.bytes(n.saturating_mul(2))?;
        Ok(raw
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }

    /// A dense layer: int32 biases, then int8 weights row by row with
    /// padded rows.
    fn layer(&mut self, inputs: usize, outputs: usize) -> Result<Affine, NetError> {
        let mut layer = Affine::zeros(inputs, outputs);
        for b in layer.biases.iter_mut() {
            *b = self.u32()? as i32;
        }
        let raw = self.bytes(layer.weights.len())?;
        for (w, &r) in layer.weights.iter_mut().zip(raw) {
            *w = r as i8;
        }
        Ok(layer)
    }

    fn finish(&self) -> Result<(), NetError> {
        if self.pos == self.bytes.len() {
            Ok(())
        } else {
            Err(NetError::Malformed(format!(
                "{} unexpected bytes at the end",
                self.bytes.len() - self.pos
            )))
        }
    }
}

#[derive(Default)]
struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    fn bytes(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }

    fn i16s(&mut self, values: &[i16]) {
        self.0.extend(values.iter().flat_map(|v| v.to_le_bytes()));
    }

    fn layer(&mut self, layer: &Affine) {
        for &b in &layer.biases {
            self.u32(b as u32);
        }
        self.0.extend(layer.weights.iter().map(|&w| w as u8));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn stockfish12_hashes_match_the_published_halfkp_256x2_32_32() {
        // The values every Stockfish 12 halfkp_256x2-32-32 net carries.
        assert_eq!(stockfish12_network_hash(512, 32, 32), 0x6333_7156);
        assert_eq!(
            stockfish12_transformer_hash(256) ^ stockfish12_network_hash(512, 32, 32),
            0x3E5A_A6EE
        );
    }
}
