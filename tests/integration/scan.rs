//! `tarpon scan`: boards rendered by `tarpon scan render` (fixtures under
//! `tests/data/scan/`, see `tests/data/SOURCES.md`) read back to their FEN,
//! and every kind of bad input refused with a clear message and a non-zero
//! exit, never a panic.

use std::path::PathBuf;
use std::process::Output;

use crate::common::{stderr, stdout, tarpon, temp_dir};

fn fixture(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "data", "scan", name]
        .iter()
        .collect();
    path.to_str().expect("a UTF-8 path").to_string()
}

/// What `cburnett-white-bottom.png` shows (`tests/data/SOURCES.md`).
const CBURNETT_FEN: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 1";

fn first_line(o: &Output) -> String {
    stdout(o).lines().next().unwrap_or("").to_string()
}

/// `tarpon scan --format json PICTURE`: the process and its parsed report.
fn json_report(picture: &str) -> (Output, serde_json::Value) {
    let o = tarpon(&["scan", "--format", "json", picture]);
    let report = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    (o, report)
}

/// A refusal: exit status 1, the reader's own message, no panic.
fn assert_refused(o: &Output, message: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(1), "stderr: {err}");
    assert!(
        err.contains("tarpon scan:") && err.contains(message),
        "stderr: {err}"
    );
    assert!(!err.contains("panicked"), "stderr: {err}");
}

/// A book diagram: dark squares hatched on white, no darker than the light
/// squares; small squares (23.86 px) in a frame (`tests/data/SOURCES.md`).
#[test]
fn a_hatched_diagram_is_found_to_a_fraction_of_a_square_and_read_surely() {
    // The grid before texture placed the lines was 2.6 px off.
    assert_reads_within_3_percent(
        "cburnett-hatched.png",
        "rn3r2/8/5p1k/P3p3/2P5/8/4PK2/R7 w - - 0 1",
        (33.6, 25.6, 23.86),
    );
}

/// A diagram whose dark squares are hatched a little darker than the light
/// ones, blurred, in a thick black frame (`tests/data/SOURCES.md`): the
/// hatching drowns the raw tone edges and texture peaks before each line.
#[test]
fn a_blurred_darkly_hatched_diagram_in_a_thick_frame_is_found_to_a_fraction_of_a_square() {
    // Before smoothed tone placed the lines, 2.7 px (4 %) up and left.
    assert_reads_within_3_percent(
        "cburnett-hatched-blurred-frame.png",
        "8/8/2p1k3/5p2/8/N1PR2P1/4KR2/6N1 w - - 0 1",
        (35.0, 36.0, 68.0),
    );
}

/// A board of 103-px squares filling the picture, its dark squares hatched
/// (`tests/data/SOURCES.md`): the hatching in one square alternates as a
/// tiny board would, and outscored the board itself.
#[test]
fn a_hatched_board_filling_the_page_is_not_mistaken_for_the_hatching_in_one_square() {
    assert_reads_within_3_percent(
        "hatched-board-filling-a-page.png",
        "4k1r1/n2ppn2/6p1/5p1p/1P1P3P/4N1P1/8/5K1R w - - 0 1",
        (65.8, 8.8, 103.13),
    );
}

/// A low-contrast grey board of a held-out style, its coordinates printed
/// large inside the corner squares (`tests/data/SOURCES.md`): the digits
/// filled the corner patches that say which squares alternate, so a grid
/// 5 px off (8 %) alternated on more squares than the true one. Only the
/// grid is asserted: the held-out `firi` pawns are still misread.
#[test]
fn a_low_contrast_board_with_large_coordinates_is_found_to_a_fraction_of_a_square() {
    let (o, report) = json_report(&fixture("firi-low-contrast-coordinates.png"));
    assert!(report["grid"].is_object(), "stderr: {}", stderr(&o));
    assert_grid_within_3_percent(&report["grid"], (45.0, 42.0, 62.0));
}

/// A board lit unevenly, its left side lighter, with page text right beside
/// it (`tests/data/SOURCES.md`): by one threshold over the board the grid a
/// column to the right, the text standing in for file a, alternated on more
/// squares (62) than the true grid (60), on which all 64 squares stand out
/// from their neighbours. Only the grid is asserted: the held-out `kaneo`
/// pieces are not all read right.
#[test]
fn an_unevenly_lit_board_beside_page_text_is_not_found_a_column_off() {
    let (o, report) = json_report(&fixture("kaneo-unevenly-lit-text-beside.png"));
    assert!(report["grid"].is_object(), "stderr: {}", stderr(&o));
    assert_grid_within_3_percent(&report["grid"], (46.0, 31.0, 54.0));
}

/// A fixture read without doubt to `fen`, its grid within 3 % of `truth`.
fn assert_reads_within_3_percent(name: &str, fen: &str, truth: (f64, f64, f64)) {
    let (o, report) = json_report(&fixture(name));
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    assert_eq!(report["fen"].as_str(), Some(fen));
    assert_grid_within_3_percent(&report["grid"], truth);
}

/// Each edge of the reported board within 3 % of a square of where the
/// renderer drew it.
fn assert_grid_within_3_percent(grid: &serde_json::Value, (left, top, square): (f64, f64, f64)) {
    let get = |k: &str| grid[k].as_f64().expect("a number");
    let error = [
        get("left") - left,
        get("top") - top,
        get("left") + 8.0 * get("square") - left - 8.0 * square,
        get("top") + 8.0 * get("square") - top - 8.0 * square,
    ]
    .into_iter()
    .fold(0.0f64, |m, e| m.max(e.abs()));
    assert!(error <= 0.03 * square, "grid {grid}");
}

#[test]
fn a_rendered_board_round_trips_to_its_fen() {
    let o = tarpon(&["scan", &fixture("cburnett-white-bottom.png")]);
    assert_eq!(first_line(&o), CBURNETT_FEN, "stderr: {}", stderr(&o));
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    // The doubt path: the least sure square (from the JSON report) is in
    // doubt, and named, when a little more confidence than it has is asked
    // for (exit 2), and not when a little less is.
    let (_, report) = json_report(&fixture("cburnett-white-bottom.png"));
    let (square, confidence) = report["squares"]
        .as_array()
        .expect("squares")
        .iter()
        .map(|s| {
            (
                s["square"].as_str().expect("a name"),
                s["confidence"].as_f64().expect("a number"),
            )
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .expect("64 squares");
    assert!(confidence < 0.9999, "{square} {confidence}");
    let asking = |min: f64| {
        tarpon(&[
            "scan",
            "--min-confidence",
            &format!("{min:.6}"),
            &fixture("cburnett-white-bottom.png"),
        ])
    };
    let o = asking(confidence + 0.00005);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("squares in doubt:") && stderr(&o).contains(&format!("{square} (")),
        "{}",
        stderr(&o)
    );
    let o = asking(confidence - 0.00005);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn a_board_drawn_with_black_at_the_bottom_is_read_the_right_way_up() {
    let o = tarpon(&["scan", &fixture("merida-black-bottom.png")]);
    assert_eq!(
        first_line(&o),
        "2r3k1/pp3ppp/4p3/3n4/3P4/5N2/PP3PPP/2R3K1 w - - 0 1",
        "stderr: {}",
        stderr(&o)
    );
    // Told the wrong way round, it reads the mirror image.
    let o = tarpon(&[
        "scan",
        "--bottom",
        "white",
        &fixture("merida-black-bottom.png"),
    ]);
    assert!(
        first_line(&o).starts_with("1K3R2/PPP3PP/2N5/4P3/4n3/3p4/ppp3pp/1k3r2"),
        "{}",
        first_line(&o)
    );
}

#[test]
fn json_output_parses_and_carries_every_square() {
    let (_, value) = json_report(&fixture("cburnett-white-bottom.png"));
    assert_eq!(value["fen"], CBURNETT_FEN);
    assert_eq!(value["bottom"], "white");
    // The fixture prints its coordinates inside the squares.
    assert_eq!(value["oriented_by"], "coordinates");
    let squares = value["squares"].as_array().expect("squares");
    assert_eq!(squares.len(), 64);
    for square in squares {
        let probabilities = square["probabilities"].as_object().expect("probabilities");
        assert_eq!(probabilities.len(), 13);
        let sum: f64 = probabilities
            .values()
            .map(|p| p.as_f64().expect("a number"))
            .sum();
        assert!((sum - 1.0).abs() < 1e-3, "{square}");
    }
}

/// `--all` on a page of two diagrams side by side: a JSON array of both,
/// left first; one board alone is an array of one; `--all` with
/// `--corners` is refused.
#[test]
fn all_boards_of_a_page_come_as_a_json_array_in_reading_order() {
    let board = image::open(fixture("cburnett-white-bottom.png"))
        .expect("the fixture decodes")
        .to_rgb8();
    let (w, h) = board.dimensions();
    // Mostly paper, as a page is.
    let (margin_x, margin_y) = (w / 2, h / 2);
    let mut page =
        image::RgbImage::from_pixel(2 * w + 3 * margin_x, h + 2 * margin_y, image::Rgb([255; 3]));
    image::imageops::replace(&mut page, &board, margin_x.into(), margin_y.into());
    image::imageops::replace(
        &mut page,
        &board,
        (w + 2 * margin_x).into(),
        margin_y.into(),
    );
    let dir = temp_dir("scan-all");
    let path = dir.join("two.png");
    page.save(&path).expect("write the page");
    let o = tarpon(&["scan", path.to_str().unwrap(), "--all", "--format", "json"]);
    let boards: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    let boards = boards.as_array().expect("an array");
    assert_eq!(boards.len(), 2, "{}", stderr(&o));
    assert_eq!(boards[0]["fen"], CBURNETT_FEN);
    assert_eq!(boards[1]["fen"], CBURNETT_FEN);
    let left = |b: &serde_json::Value| b["grid"]["left"].as_f64().expect("left");
    assert!(left(&boards[0]) + f64::from(w) / 2.0 < left(&boards[1]));
    let o = tarpon(&[
        "scan",
        &fixture("cburnett-white-bottom.png"),
        "--all",
        "--format",
        "json",
    ]);
    let one: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(one.as_array().map(Vec::len), Some(1));
    let o = tarpon(&[
        "scan",
        path.to_str().unwrap(),
        "--all",
        "--corners",
        "0,0 9,0 9,9 0,9",
    ]);
    assert_ne!(o.status.code(), Some(0));
}

#[test]
fn analyse_searches_the_position_read() {
    let o = tarpon(&[
        "scan",
        "--min-confidence",
        "0.5",
        &fixture("cburnett-white-bottom.png"),
        "--analyse",
        "--depth",
        "5",
    ]);
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    let out = stdout(&o);
    assert!(out.lines().any(|l| l.starts_with("info depth 5")), "{out}");
    assert!(
        out.lines()
            .last()
            .is_some_and(|l| l.starts_with("bestmove ")),
        "{out}"
    );
}

#[test]
fn bad_pictures_are_refused_clearly() {
    let dir = temp_dir("scan-bad");
    let path = |name: &str| dir.join(name).to_str().expect("UTF-8").to_string();

    std::fs::write(path("empty.png"), b"").unwrap();
    assert_refused(&tarpon(&["scan", &path("empty.png")]), "the file is empty");

    std::fs::write(path("notes.txt"), "not a picture at all\n".repeat(20)).unwrap();
    assert_refused(&tarpon(&["scan", &path("notes.txt")]), "not a PNG or JPEG");

    let mut corrupt = std::fs::read(fixture("cburnett-white-bottom.png")).unwrap();
    corrupt.truncate(corrupt.len() / 3);
    corrupt.extend_from_slice(&[0x55; 200]);
    std::fs::write(path("corrupt.png"), &corrupt).unwrap();
    assert_refused(
        &tarpon(&["scan", &path("corrupt.png")]),
        "not a PNG or JPEG",
    );

    std::fs::write(path("huge.png"), png_header(100_000, 100_000)).unwrap();
    assert_refused(
        &tarpon(&["scan", &path("huge.png")]),
        "crop it around the board",
    );

    // A smooth gradient with a few blobs: edges, but no 8x8 grid.
    let picture = image::RgbImage::from_fn(400, 300, |x, y| {
        let blob = ((x as i32 - 200).pow(2) + (y as i32 - 150).pow(2)) < 60 * 60;
        let v = if blob { 30 } else { (x / 2 + y / 3) as u8 };
        image::Rgb([v, v / 2, 255 - v])
    });
    picture.save(path("no-board.png")).unwrap();
    assert_refused(
        &tarpon(&["scan", &path("no-board.png")]),
        "no chess board found",
    );

    assert_refused(
        &tarpon(&["scan", &path("missing.png")]),
        "cannot read the file",
    );
}

#[test]
fn a_malformed_weight_file_is_refused() {
    let dir = temp_dir("scan-net");
    let net = dir.join("bad.bin");
    std::fs::write(&net, b"TSCANNET but nothing after it").unwrap();
    let o = tarpon(&[
        "scan",
        "--net",
        net.to_str().unwrap(),
        &fixture("cburnett-white-bottom.png"),
    ]);
    assert_refused(&o, "scan net");
}

/// The shipped file holds several nets back to back; cut short, or with
/// more nets than a reading may use, it is refused with a message.
#[test]
fn a_broken_file_of_several_nets_is_refused() {
    let shipped = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/scan.tscan")).unwrap();
    let dir = temp_dir("scan-nets");
    let short = dir.join("short.tscan");
    std::fs::write(&short, &shipped[..shipped.len() - 4]).unwrap();
    let too_many = dir.join("too-many.tscan");
    std::fs::write(&too_many, [shipped.as_slice(), shipped.as_slice()].concat()).unwrap();
    for (file, why) in [(&short, "scan net file is"), (&too_many, "holds more than")] {
        let o = tarpon(&[
            "scan",
            "--net",
            file.to_str().unwrap(),
            &fixture("cburnett-white-bottom.png"),
        ]);
        assert_refused(&o, why);
    }
}

/// A PNG whose header claims `width`×`height` pixels, with an empty data
/// chunk: enough for a reader to see the size, nothing to decode.
fn png_header(width: u32, height: u32) -> Vec<u8> {
    let mut header = width.to_be_bytes().to_vec();
    header.extend_from_slice(&height.to_be_bytes());
    header.extend_from_slice(&[8, 2, 0, 0, 0]); // 8-bit RGB
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    for (kind, data) in [
        (b"IHDR", header),
        (b"IDAT", Vec::new()),
        (b"IEND", Vec::new()),
    ] {
        let mut chunk = kind.to_vec();
        chunk.extend_from_slice(&data);
        bytes.extend_from_slice(&(data.len() as u32).to_be_bytes());
        bytes.extend_from_slice(&chunk);
        bytes.extend_from_slice(&crc32(&chunk).to_be_bytes());
    }
    bytes
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= byte as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn the_uci_loop_sets_the_position_read_from_a_picture_and_keeps_serving() {
    use crate::common::uci_engine::Engine;
    let mut e = Engine::start();
    e.send(&format!("scan {}", fixture("merida-black-bottom.png")));
    let lines = e.ready();
    assert!(
        lines.iter().any(|l| l
            == "info string scan: position set: 2r3k1/pp3ppp/4p3/3n4/3P4/5N2/PP3PPP/2R3K1 w - - 0 1"),
        "{lines:?}"
    );
    let board = e.display();
    assert!(
        board
            .iter()
            .any(|l| l == "Fen: 2r3k1/pp3ppp/4p3/3n4/3P4/5N2/PP3PPP/2R3K1 w - - 0 1"),
        "{board:?}"
    );
    // Black to move, and the orientation forced the wrong way: the mirror
    // image has White's pawns on Black's side, still a legal position.
    e.send(&format!(
        "scan tomove b bottom white {}",
        fixture("merida-black-bottom.png")
    ));
    let lines = e.ready();
    assert!(
        lines.iter().any(|l| l.starts_with(
            "info string scan: position set: 1K3R2/PPP3PP/2N5/4P3/4n3/3p4/ppp3pp/1k3r2 b"
        )),
        "{lines:?}"
    );
    // Bad requests: a clear message, the position unchanged, still serving.
    let dir = temp_dir("uci-scan");
    let not_a_picture = dir.join("notes.txt");
    std::fs::write(&not_a_picture, "not a picture").expect("write");
    for (request, message) in [
        ("scan", "expected 'scan"),
        ("scan bottom sideways x.png", "bottom 'sideways'"),
        ("scan /no/such/picture.png", "position unchanged"),
        (
            &format!("scan {}", not_a_picture.display()),
            "not a PNG or JPEG",
        ),
    ] {
        e.send(request);
        let lines = e.ready();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: scan") && l.contains(message)),
            "{request}: {lines:?}"
        );
    }
    let board = e.display();
    assert!(
        board
            .iter()
            .any(|l| l.starts_with("Fen: 1K3R2/PPP3PP/2N5/4P3/4n3/3p4/ppp3pp/1k3r2 b")),
        "{board:?}"
    );
    e.finish();
}

/// A screenshot of a real GUI's board: xboard under Xvfb, with its own wood
/// textures, frame, coordinates and window around the board, read the right
/// way up and flipped. Needs `Xvfb`, `xboard` and `xwd` (Debian: `apt-get
/// install xvfb xboard x11-apps`), so it is ignored by default:
/// `cargo test --release --test integration -- --ignored scan::a_screenshot_of_xboard`.
#[test]
#[ignore = "needs Xvfb, xboard and xwd"]
fn a_screenshot_of_xboard_is_read_both_ways_up() {
    let placement = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R";
    let dir = temp_dir("scan-xboard");
    let fen_file = dir.join("position.fen");
    std::fs::write(&fen_file, format!("{placement} w KQkq - 4 4\n")).unwrap();
    let mut xvfb = KillOnDrop(
        std::process::Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1024x768x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("Xvfb (apt-get install xvfb)"),
    );
    let mut number = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(xvfb.0.stdout.take().expect("stdout")),
        &mut number,
    )
    .expect("the display number");
    let display = format!(":{}", number.trim());
    for (flip, bottom) in [("false", "white"), ("true", "black")] {
        // Debian installs it under /usr/games, often not on the PATH.
        let program = ["/usr/games/xboard", "xboard"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())
            .unwrap_or("xboard");
        let xboard = KillOnDrop(
            std::process::Command::new(program)
                .env("DISPLAY", &display)
                .env("HOME", dir.as_os_str())
                .args([
                    "-ncp",
                    "-size",
                    "49",
                    "-coords",
                    "-saveSettingsOnExit",
                    "false",
                ])
                .args(["-flipView", flip, "-lpf"])
                .arg(&fen_file)
                .args([
                    "-messageSuppress",
                    "Right-clicking menu item or dialog text pops up help on it",
                ])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("xboard (apt-get install xboard)"),
        );
        // Wait (bounded) until xboard has drawn: two dumps in a row alike.
        let shot = dir.join(format!("xboard-{bottom}.png"));
        let mut previous = Vec::new();
        for _ in 0..40 {
            std::thread::sleep(std::time::Duration::from_millis(500));
            let xwd = std::process::Command::new("xwd")
                .args(["-root", "-silent", "-display", &display])
                .output()
                .expect("xwd (apt-get install x11-apps)");
            if xwd.stdout == previous && xwd_to_rgb(&xwd.stdout).pixels().any(|p| p.0 != [0; 3]) {
                break;
            }
            previous = xwd.stdout;
        }
        xwd_to_rgb(&previous)
            .save(&shot)
            .expect("save the screenshot");
        drop(xboard);
        assert_reads(&shot, placement, bottom, "xboard");
    }
    drop(xvfb);
}

#[test]
#[ignore = "needs pdflatex with the chessboard package (texlive-games, texlive-latex-extra) and pdftoppm"]
fn a_book_diagram_typeset_by_latex_is_read_both_ways_up_cut_and_on_its_page() {
    let placement = "r1bqkb1r/pppp1ppp/2n2n2/4p1N1/2B1P3/8/PPPP1PPP/RNBQK2R";
    let dir = temp_dir("scan-latex");
    for (option, bottom) in [("", "white"), (", inverse", "black")] {
        // A page as a book prints it: a caption, the diagram with hatched
        // dark squares and coordinates beside it, a question below.
        let tex = format!(
            "\\documentclass{{article}}\\usepackage{{chessboard}}\\pagestyle{{empty}}\\begin{{document}}\n\\noindent Diagram 12. After 4.Ng5, the Fried Liver is near.\\par\\medskip\n\\chessboard[setfen={placement} b KQkq - 5 4, showmover=false{option}]\n\\par\\medskip\\noindent Black to play. Which move keeps the balance?\n\\end{{document}}\n"
        );
        std::fs::write(dir.join("diagram.tex"), tex).unwrap();
        let latex = std::process::Command::new("pdflatex")
            .args(["-interaction=nonstopmode", "diagram.tex"])
            .current_dir(&dir)
            .output()
            .expect(
                "pdflatex (apt-get install texlive-latex-base texlive-latex-extra texlive-games)",
            );
        assert!(
            latex.status.success(),
            "{}",
            String::from_utf8_lossy(&latex.stdout)
        );
        let raster = std::process::Command::new("pdftoppm")
            .args(["-r", "200", "-png", "-singlefile", "diagram.pdf", "page"])
            .current_dir(&dir)
            .status()
            .expect("pdftoppm (apt-get install poppler-utils)");
        assert!(raster.success());
        // The printed part of the page, with a margin of paper around it.
        let page = image::open(dir.join("page.png")).unwrap().to_rgb8();
        let inked: Vec<(u32, u32)> = page
            .enumerate_pixels()
            .filter(|(_, _, p)| p.0.iter().any(|&c| c < 200))
            .map(|(x, y, _)| (x, y))
            .collect();
        let (x0, y0) = inked
            .iter()
            .fold((u32::MAX, u32::MAX), |a, p| (a.0.min(p.0), a.1.min(p.1)));
        let (x1, y1) = inked
            .iter()
            .fold((0, 0), |a, p| (a.0.max(p.0), a.1.max(p.1)));
        let (left, top) = (x0.saturating_sub(30), y0.saturating_sub(30));
        let cut =
            image::imageops::crop_imm(&page, left, top, x1 + 30 - left, y1 + 30 - top).to_image();
        let shot = dir.join(format!("diagram-{bottom}.png"));
        cut.save(&shot).unwrap();
        let json = assert_reads(&shot, placement, bottom, "the diagram");
        assert_eq!(json["oriented_by"], "coordinates", "{json}");
        // And the whole page, uncut: mostly blank paper.
        let json = assert_reads(&dir.join("page.png"), placement, bottom, "the page");
        assert_eq!(json["oriented_by"], "coordinates", "{json}");
    }
}

/// Scans `shot` and requires `placement` with `bottom` ("white" or
/// "black") at the bottom; the JSON reading for further checks.
fn assert_reads(
    shot: &std::path::Path,
    placement: &str,
    bottom: &str,
    what: &str,
) -> serde_json::Value {
    let o = tarpon(&["scan", shot.to_str().unwrap(), "--format", "json"]);
    let (read, why) = (stdout(&o), stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&read).unwrap_or_default();
    assert_eq!(
        json["fen"].as_str().and_then(|f| f.split(' ').next()),
        Some(placement),
        "{what} with {bottom} at the bottom: {read} {why}"
    );
    assert_eq!(json["bottom"], bottom, "{read}");
    json
}

/// A child process ended when it goes out of scope, so a failed assertion
/// leaves no X server or xboard behind.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The pixels of an `xwd` dump of a 24-bit TrueColor screen (32 bits a
/// pixel, either byte order).
fn xwd_to_rgb(dump: &[u8]) -> image::RgbImage {
    let word = |i: usize| u32::from_be_bytes(dump[4 * i..4 * i + 4].try_into().unwrap()) as usize;
    assert!(dump.len() >= 100, "an xwd dump");
    let (header, width, height) = (word(0), word(4), word(5));
    let (lsb_first, bits, line, colours) = (word(7) == 0, word(11), word(12), word(19));
    assert_eq!(bits, 32, "a 32-bit screen");
    let start = header + 12 * colours;
    image::RgbImage::from_fn(width as u32, height as u32, |x, y| {
        let at = start + y as usize * line + 4 * x as usize;
        let p = &dump[at..at + 4];
        let (r, g, b) = if lsb_first {
            (p[2], p[1], p[0])
        } else {
            (p[1], p[2], p[3])
        };
        image::Rgb([r, g, b])
    })
}

/// The cburnett fixture seen at an angle: its board (and half a square
/// around it) drawn into the quadrilateral `corners` of a bigger picture.
fn seen_at_an_angle(corners: &str) -> image::RgbImage {
    use tarpon::scan::perspective::{Homography, Quad};
    let source = image::open(fixture("cburnett-white-bottom.png"))
        .expect("the fixture")
        .to_rgb8();
    let (_, report) = json_report(&fixture("cburnett-white-bottom.png"));
    let grid = |key: &str| report["grid"][key].as_f64().expect("a grid");
    let (left, top, square) = (grid("left"), grid("top"), grid("square"));
    let to_board = Homography::from_quad(&Quad::parse(corners).expect("corners"))
        .and_then(|h| h.inverse())
        .expect("a perspective");
    image::RgbImage::from_fn(900, 700, |x, y| {
        let (u, v) = to_board.apply(x as f64 + 0.5, y as f64 + 0.5);
        let (sx, sy) = (left + u * square, top + v * square);
        let inside = (-0.5..8.5).contains(&u) && (-0.5..8.5).contains(&v);
        if inside && sx >= 0.0 && sy >= 0.0 {
            let (sx, sy) = (sx as u32, sy as u32);
            if sx < source.width() && sy < source.height() {
                return *source.get_pixel(sx, sy);
            }
        }
        image::Rgb([70, 90, 80])
    })
}

#[test]
fn a_board_seen_at_an_angle_is_read_from_its_corners() {
    let dir = temp_dir("scan-corners");
    let path = dir.join("angle.png");
    let corners = "160,70 780,130 840,660 40,600";
    seen_at_an_angle(corners).save(&path).expect("write");
    let picture = path.to_str().expect("UTF-8");
    // Any order of the four points will do.
    let o = tarpon(&[
        "scan",
        picture,
        "--corners",
        "840,660 160,70 40,600 780,130",
    ]);
    assert_eq!(first_line(&o), CBURNETT_FEN, "stderr: {}", stderr(&o));
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    // Corners that are not a board are refused, not guessed around.
    for bad in [
        "160,70 780,130 840,660",
        "0,0 10,0 10,10 0,10",
        "1,1 2,2 3,3 4,4",
        "a,b c,d e,f g,h",
    ] {
        assert_refused(&tarpon(&["scan", picture, "--corners", bad]), "--corners");
    }
}

/// The ray-traced photos (`arena/scan/photo_scene.py`, steep camera, seeds 4
/// and 5; `tests/data/SOURCES.md`): the corners the scene script printed.
const PHOTO_CORNERS: &str = "192.0,80.3 631.6,95.1 677.4,539.5 103.7,514.2";

/// `tarpon scan photo` on the middlegame fixture with `start` as the start
/// photo, and `extra` arguments.
fn read_photo(start: &str, extra: &[&str]) -> Output {
    let photo = fixture("photo-middlegame.jpg");
    let mut args = vec![
        "scan",
        "photo",
        &photo,
        "--corners",
        PHOTO_CORNERS,
        "--start",
        start,
    ];
    args.extend_from_slice(extra);
    tarpon(&args)
}

#[test]
fn a_photo_of_a_physical_board_is_read_square_by_square_after_a_start_photo() {
    let dir = temp_dir("scan-photo");
    let debug = dir.join("debug");
    let start = fixture("photo-start.jpg");
    let debug_dir = debug.to_str().expect("UTF-8");
    let o = read_photo(&start, &["--format", "json", "--debug-dir", debug_dir]);
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    // The cburnett fixture's position, pieces only by colour.
    assert_eq!(
        report["occupancy"],
        "B1BB1BB1/BB2BBBB/2B1BB2/3B4/2WW4/2W2W2/WW2WWWW/W2WWW1W"
    );
    assert_eq!(report["bottom"], "white");
    assert_eq!(report["squares"].as_array().map(Vec::len), Some(64));
    assert!(debug.join("photo.png").exists() && debug.join("start.png").exists());
    // Told the board is the other way round, it reads the photo rotated.
    let o = read_photo(&start, &["--bottom", "black", "--format", "fen"]);
    assert!(
        first_line(&o).starts_with("B1BBB2B/BBBB2BB"),
        "{}",
        first_line(&o)
    );
    // A start photo that is not the starting position is refused.
    let o = read_photo(&fixture("cburnett-white-bottom.png"), &[]);
    assert_refused(&o, "start");
}

/// Without `--corners` each photo's playing area is found where its squares
/// meet: the corners reported lie within a tenth of a square of the scene's,
/// and the photo reads as with the corners given. A picture with no board
/// is refused with the advice to give them.
#[test]
fn a_photo_s_corners_are_found_when_not_given() {
    let photo = fixture("photo-middlegame.jpg");
    let start = fixture("photo-start.jpg");
    let o = tarpon(&[
        "scan", "photo", &photo, "--start", &start, "--format", "fen",
    ]);
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    assert_eq!(
        first_line(&o),
        "B1BB1BB1/BB2BBBB/2B1BB2/3B4/2WW4/2W2W2/WW2WWWW/W2WWW1W"
    );
    let truth = parse_points(PHOTO_CORNERS);
    let square = (truth[1].0 - truth[0].0).hypot(truth[1].1 - truth[0].1) / 8.0;
    let err = stderr(&o);
    let found: Vec<&str> = err
        .lines()
        .filter_map(|line| line.split("corners found at ").nth(1))
        .collect();
    assert_eq!(found.len(), 2, "both photos' corners reported: {err}");
    for corners in found {
        for (point, truth) in parse_points(corners).iter().zip(&truth) {
            let off = (point.0 - truth.0).hypot(point.1 - truth.1);
            assert!(off < 0.1 * square, "{point:?} against {truth:?}: {err}");
        }
    }
    // Stripes and a gradient: edges everywhere, nowhere four squares.
    let stripes = image::RgbImage::from_fn(640, 480, |x, y| {
        let v = if (x / 40) % 2 == 0 { 200 } else { 60 };
        image::Rgb([v, (y / 2) as u8, v])
    });
    let dir = temp_dir("scan-photo-none");
    let path = dir.join("stripes.png");
    stripes.save(&path).expect("write");
    let path = path.to_str().expect("UTF-8");
    let o = tarpon(&["scan", "photo", path, "--start", path]);
    assert_refused(&o, "give --corners");
}

/// `x,y x,y …` as points.
fn parse_points(text: &str) -> Vec<(f64, f64)> {
    text.split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').expect("x,y");
            (x.parse().expect("x"), y.parse().expect("y"))
        })
        .collect()
}

#[test]
fn a_crooked_board_in_a_shadow_is_read() {
    use tarpon::scan::picture::sample_rgb;
    let source = image::open(fixture("cburnett-white-bottom.png"))
        .expect("the fixture")
        .to_rgb8();
    let dir = temp_dir("scan-crooked");
    let (w, h) = (source.width(), source.height());
    let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
    for degrees in [-2.5f32, 1.5] {
        let (sin, cos) = degrees.to_radians().sin_cos();
        // Turned clockwise by `degrees`, and a soft shadow over its right side.
        let picture = image::RgbImage::from_fn(w, h, |x, y| {
            let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
            let (sx, sy) = (cx + cos * dx + sin * dy, cy - sin * dx + cos * dy);
            let image::Rgb(p) =
                sample_rgb(&source, sx - 0.5, sy - 0.5).unwrap_or(image::Rgb([250, 250, 250]));
            let shade = 0.35 * ((x as f32 - 0.55 * w as f32) / 80.0).clamp(0.0, 1.0);
            image::Rgb(p.map(|c| (c as f32 * (1.0 - shade)) as u8))
        });
        let path = dir.join(format!("crooked{degrees}.png"));
        picture.save(&path).expect("write");
        let (o, report) = json_report(path.to_str().expect("UTF-8"));
        assert_eq!(
            report["fen"],
            CBURNETT_FEN,
            "turned {degrees}°: {}",
            stderr(&o)
        );
        let skew = report["grid"]["skew_degrees"].as_f64().expect("a skew");
        assert!(
            (skew - degrees as f64).abs() < 0.2,
            "turned {degrees}°, measured {skew}°"
        );
    }
}

/// Squares of two colours equally light (lilac and brown) leave the grey
/// plane without a checkerboard; one colour channel still shows it.
#[test]
fn a_board_whose_square_colours_are_equally_light_is_found_by_colour() {
    use std::collections::HashMap;
    use tarpon::scan::{finder, picture::Plane};
    let source = image::open(fixture("cburnett-white-bottom.png"))
        .expect("the fixture")
        .to_rgb8();
    // The two commonest colours are the two square colours.
    let mut counts: HashMap<[u8; 3], usize> = HashMap::new();
    for p in source.pixels() {
        *counts.entry(p.0).or_default() += 1;
    }
    let mut by_count: Vec<_> = counts.into_iter().collect();
    by_count.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    let (first, second) = (by_count[0].0, by_count[1].0);
    // Grey 132 and 131 (0.299 R + 0.587 G + 0.114 B).
    let (lilac, brown) = ([150, 110, 200], [188, 118, 80]);
    let near = |a: [u8; 3], b: [u8; 3]| a.iter().zip(b).all(|(&x, y)| x.abs_diff(y) <= 24);
    let picture = image::RgbImage::from_fn(source.width(), source.height(), |x, y| {
        let p = source.get_pixel(x, y).0;
        image::Rgb(if near(p, first) {
            lilac
        } else if near(p, second) {
            brown
        } else {
            p
        })
    });
    assert!(
        finder::find(&Plane::from_rgb(&picture)).is_err(),
        "the grey plane alone should show no board here, or this test shows nothing"
    );
    let dir = temp_dir("scan-equally-light");
    let path = dir.join("lilac-brown.png");
    picture.save(&path).expect("write");
    let o = tarpon(&["scan", path.to_str().expect("UTF-8")]);
    assert_eq!(first_line(&o), CBURNETT_FEN, "stderr: {}", stderr(&o));
}
