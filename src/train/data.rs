//! The training-data format: fixed 32-byte records, one scored position each,
//! laid out byte by byte in `nets/README.md` ("Training data format").
//!
//! Files have no header, so they are appendable (and `cat a b > c` merges
//! them). A run killed mid-write leaves a partial record at the end: readers
//! stop at the last whole record, and [`RecordWriter::append`] cuts the partial
//! tail off before writing so later records stay aligned.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

/// Bytes per record.
pub const RECORD_SIZE: usize = 32;
/// Last byte of every record; a reader that finds anything else is looking at
/// a misaligned or foreign file.
pub const RECORD_TAG: u8 = 0xA7;

/// The game result from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

impl GameResult {
    /// 0, ½ or 1: the target the trainer blends with the search score.
    pub fn score(self) -> f32 {
        self as u8 as f32 * 0.5
    }

    /// The same result seen by the other side.
    pub fn flipped(self) -> GameResult {
        match self {
            GameResult::Loss => GameResult::Win,
            GameResult::Draw => GameResult::Draw,
            GameResult::Win => GameResult::Loss,
        }
    }

    /// The result for `side` of a game won by `winner` (`None`: drawn).
    pub fn for_side(side: Color, winner: Option<Color>) -> GameResult {
        match winner {
            None => GameResult::Draw,
            Some(w) if w == side => GameResult::Win,
            Some(_) => GameResult::Loss,
        }
    }
}

/// A record that cannot be a position: the file is corrupt or not ours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError(pub String);

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DataError {}

impl From<io::Error> for DataError {
    fn from(e: io::Error) -> Self {
        DataError(e.to_string())
    }
}

/// One training position, unpacked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainingPosition {
    pub board: Board,
    pub turn: Color,
    /// Search score in centipawns from the side to move's point of view.
    pub score: i16,
    /// Game result from the side to move's point of view.
    pub result: GameResult,
    /// Plies since the last capture or pawn move (saturates at 255).
    pub halfmoves: u8,
    pub fullmoves: u16,
}

/// Nibble code of a piece: white pawn..king 0..5, black pawn..king 6..11.
fn piece_code(piece: Piece) -> u8 {
    (piece.role as u8 - 1) + if piece.color == Color::White { 0 } else { 6 }
}

fn code_piece(code: u8) -> Option<Piece> {
    if code >= 12 {
        return None;
    }
    let color = if code < 6 { Color::White } else { Color::Black };
    Some(Role::ALL[usize::from(code % 6)].of(color))
}

/// One record as stored: cheap to keep millions in memory, decoded on use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedPosition(pub [u8; RECORD_SIZE]);

impl PackedPosition {
    /// Packs `pos`. Boards with more than 32 pieces cannot be packed.
    pub fn pack(pos: &TrainingPosition) -> Result<PackedPosition, DataError> {
        let occupied = pos.board.occupied();
        if occupied.count() > 32 {
            return Err(DataError(format!(
                "{} pieces on the board; a record holds at most 32",
                occupied.count()
            )));
        }
        let mut bytes = [0u8; RECORD_SIZE];
        bytes[0..8].copy_from_slice(&occupied.0.to_le_bytes());
        for (i, sq) in occupied.into_iter().enumerate() {
            let piece = pos.board.piece_at(sq).expect("occupied square has a piece");
            bytes[8 + i / 2] |= piece_code(piece) << (4 * (i % 2));
        }
        bytes[24..26].copy_from_slice(&pos.score.to_le_bytes());
        bytes[26] = pos.result as u8;
        bytes[27] = u8::from(pos.turn == Color::Black);
        bytes[28] = pos.halfmoves;
        bytes[29..31].copy_from_slice(&pos.fullmoves.to_le_bytes());
        bytes[31] = RECORD_TAG;
        Ok(PackedPosition(bytes))
    }

    /// Checks everything the trainer relies on: tag, flags, result, piece
    /// codes, one king of each colour.
    pub fn validate(&self) -> Result<(), DataError> {
        let b = &self.0;
        if b[31] != RECORD_TAG {
            return Err(DataError(format!("bad record tag {:#04x}", b[31])));
        }
        if b[27] > 1 {
            return Err(DataError(format!("bad side-to-move byte {}", b[27])));
        }
        if b[26] > 2 {
            return Err(DataError(format!("bad result byte {}", b[26])));
        }
        if self.occupancy().count() > 32 {
            return Err(DataError("more than 32 pieces".into()));
        }
        let mut kings = [0u8; 2];
        for (i, _) in self.occupancy().into_iter().enumerate() {
            let code = self.code(i);
            let piece =
                code_piece(code).ok_or_else(|| DataError(format!("bad piece code {code}")))?;
            if piece.role == Role::King {
                kings[piece.color as usize] += 1;
            }
        }
        if kings != [1, 1] {
            return Err(DataError("a record needs one king of each colour".into()));
        }
        Ok(())
    }

    pub fn occupancy(&self) -> Bitboard {
        Bitboard(u64::from_le_bytes(
            self.0[0..8].try_into().expect("8 bytes"),
        ))
    }

    fn code(&self, i: usize) -> u8 {
        (self.0[8 + i / 2] >> (4 * (i % 2))) & 0x0f
    }

    /// The pieces, in ascending square order. Only valid on validated records.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + Clone + '_ {
        self.occupancy()
            .into_iter()
            .enumerate()
            .filter_map(|(i, sq)| code_piece(self.code(i)).map(|p| (sq, p)))
    }

    pub fn turn(&self) -> Color {
        if self.0[27] & 1 == 1 {
            Color::Black
        } else {
            Color::White
        }
    }

    pub fn score(&self) -> i16 {
        i16::from_le_bytes([self.0[24], self.0[25]])
    }

    pub fn result(&self) -> GameResult {
        match self.0[26] {
            0 => GameResult::Loss,
            1 => GameResult::Draw,
            _ => GameResult::Win,
        }
    }

    pub fn unpack(&self) -> Result<TrainingPosition, DataError> {
        self.validate()?;
        let mut board = Board::empty();
        for (sq, piece) in self.pieces() {
            board.set_piece_at(sq, piece);
        }
        Ok(TrainingPosition {
            board,
            turn: self.turn(),
            score: self.score(),
            result: self.result(),
            halfmoves: self.0[28],
            fullmoves: u16::from_le_bytes([self.0[29], self.0[30]]),
        })
    }
}

/// Reads every whole record of a file, validating each; a partial record at
/// the end (a killed writer) is ignored. Returns the records and the number of
/// trailing bytes dropped.
pub fn read_records(path: &Path) -> Result<(Vec<PackedPosition>, usize), DataError> {
    let mut file =
        File::open(path).map_err(|e| DataError(format!("cannot open {}: {e}", path.display())))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| DataError(format!("cannot read {}: {e}", path.display())))?;
    decode_records(&bytes).map_err(|e| DataError(format!("{}: {e}", path.display())))
}

/// Decodes a byte buffer of records; see [`read_records`].
pub fn decode_records(bytes: &[u8]) -> Result<(Vec<PackedPosition>, usize), DataError> {
    let chunks = bytes.chunks_exact(RECORD_SIZE);
    let dropped = chunks.remainder().len();
    let mut records = Vec::with_capacity(bytes.len() / RECORD_SIZE);
    for (i, chunk) in chunks.enumerate() {
        let record = PackedPosition(chunk.try_into().expect("exact chunk"));
        record
            .validate()
            .map_err(|e| DataError(format!("record {i} (byte {}): {e}", i * RECORD_SIZE)))?;
        records.push(record);
    }
    Ok((records, dropped))
}

/// Appends records to a file, creating it if needed.
pub struct RecordWriter {
    out: BufWriter<File>,
    written: u64,
}

impl RecordWriter {
    /// Opens `path` for appending. A partial record left at the end by a
    /// killed run is cut off first so the new records stay aligned.
    pub fn append(path: &Path) -> Result<RecordWriter, DataError> {
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| DataError(format!("cannot open {}: {e}", path.display())))?;
        let len = file.metadata()?.len();
        let whole = len - len % RECORD_SIZE as u64;
        if whole != len {
            file.set_len(whole)?;
        }
        file.seek(SeekFrom::End(0))?;
        Ok(RecordWriter {
            out: BufWriter::new(file),
            written: 0,
        })
    }

    pub fn write(&mut self, record: &PackedPosition) -> Result<(), DataError> {
        self.out.write_all(&record.0)?;
        self.written += 1;
        Ok(())
    }

    /// Pushes everything written so far to the file (datagen calls it after
    /// every game, so a killed run loses at most the game in progress).
    pub fn flush(&mut self) -> Result<(), DataError> {
        self.out.flush()?;
        Ok(())
    }

    /// Records written through this writer.
    pub fn written(&self) -> u64 {
        self.written
    }
}

impl Drop for RecordWriter {
    fn drop(&mut self) {
        let _ = self.out.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position as _};

    fn sample(fen: &str, score: i16, result: GameResult) -> TrainingPosition {
        let fen: Fen = fen.parse().unwrap();
        let chess: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        TrainingPosition {
            board: chess.board().clone(),
            turn: chess.turn(),
            score,
            result,
            halfmoves: chess.halfmoves() as u8,
            fullmoves: u16::try_from(u32::from(chess.fullmoves())).unwrap(),
        }
    }

    fn samples() -> Vec<TrainingPosition> {
        vec![
            sample(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                17,
                GameResult::Draw,
            ),
            sample(
                "r3k2r/p1ppqpb1/bn2pnp1/3P4/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 3 41",
                -321,
                GameResult::Loss,
            ),
            sample("8/8/4k3/8/8/8/3QK3/8 w - - 12 300", 32000, GameResult::Win),
            sample(
                "7k/8/8/8/8/8/8/K7 b - - 99 65535",
                i16::MIN,
                GameResult::Draw,
            ),
        ]
    }

    #[test]
    fn records_round_trip() {
        for pos in samples() {
            let packed = PackedPosition::pack(&pos).unwrap();
            assert_eq!(packed.unpack().unwrap(), pos);
        }
    }

    #[test]
    fn byte_layout_matches_the_documentation() {
        let pos = sample("4k3/8/8/8/8/8/8/4K2R b K - 5 7", -2, GameResult::Win);
        let b = PackedPosition::pack(&pos).unwrap().0;
        // e1, h1, e8 occupied: bits 4, 7, 60.
        assert_eq!(
            u64::from_le_bytes(b[0..8].try_into().unwrap()),
            (1 << 4) | (1 << 7) | (1 << 60)
        );
        // White king (5) then white rook (3) in byte 8, black king (11) in byte 9.
        assert_eq!(b[8], 5 | (3 << 4));
        assert_eq!(b[9], 11);
        assert_eq!(&b[10..24], &[0; 14]);
        assert_eq!(i16::from_le_bytes([b[24], b[25]]), -2);
        assert_eq!(b[26], 2);
        assert_eq!(b[27], 1);
        assert_eq!(b[28], 5);
        assert_eq!(u16::from_le_bytes([b[29], b[30]]), 7);
        assert_eq!(b[31], RECORD_TAG);
    }

    #[test]
    fn appended_file_reads_back_and_truncated_file_stops_at_last_whole_record() {
        let dir = crate::test_scratch::ScratchDir::new("data-truncated");
        let path = dir.join("truncated.bin");
        let all = samples();
        {
            let mut w = RecordWriter::append(&path).unwrap();
            for pos in &all[..2] {
                w.write(&PackedPosition::pack(pos).unwrap()).unwrap();
            }
        }
        {
            let mut w = RecordWriter::append(&path).unwrap();
            for pos in &all[2..] {
                w.write(&PackedPosition::pack(pos).unwrap()).unwrap();
            }
        }
        let (records, dropped) = read_records(&path).unwrap();
        assert_eq!(dropped, 0);
        let unpacked: Vec<_> = records.iter().map(|r| r.unpack().unwrap()).collect();
        assert_eq!(unpacked, all);

        // Cut the file in the middle of the last record.
        let len = std::fs::metadata(&path).unwrap().len();
        let file = OpenOptions::new().write(true).open(&path).unwrap();
        file.set_len(len - 11).unwrap();
        drop(file);
        let (records, dropped) = read_records(&path).unwrap();
        assert_eq!(dropped, RECORD_SIZE - 11);
        assert_eq!(records.len(), all.len() - 1);
        assert_eq!(records[2].unpack().unwrap(), all[2]);

        // Appending after the cut realigns: the partial record is dropped.
        {
            let mut w = RecordWriter::append(&path).unwrap();
            w.write(&PackedPosition::pack(&all[0]).unwrap()).unwrap();
        }
        let (records, dropped) = read_records(&path).unwrap();
        assert_eq!(dropped, 0);
        assert_eq!(records.len(), all.len());
        assert_eq!(records[3].unpack().unwrap(), all[0]);
    }

    #[test]
    fn corrupt_records_are_rejected_with_their_offset() {
        let mut bytes = PackedPosition::pack(&samples()[0]).unwrap().0.to_vec();
        bytes.extend_from_slice(&bytes.clone());
        bytes[RECORD_SIZE + 31] = 0;
        let err = decode_records(&bytes).unwrap_err();
        assert!(err.0.contains("record 1"), "{err}");
        let mut no_king = PackedPosition::pack(&samples()[2]).unwrap();
        // Turn the white queen (code 4) into a second white king (code 5).
        for i in 0..3 {
            if no_king.code(i) == 4 {
                no_king.0[8 + i / 2] += 1 << (4 * (i % 2));
            }
        }
        assert!(no_king.validate().is_err());
        assert!(decode_records(&[0u8; RECORD_SIZE]).is_err());
    }
}
