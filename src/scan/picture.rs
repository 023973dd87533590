//! Pictures in: PNG or JPEG bytes to a grey plane, with limits so that no file
//! can make the reader panic or exhaust memory, and the sampling that cuts a
//! square out of the plane at the net's input size.

use std::fmt;
use std::path::Path;

/// Pictures above this many pixels are refused (a 8000×8000 screenshot is
/// already far more than a board needs).
pub const MAX_PIXELS: u64 = 64_000_000;
/// Below this no board of 8×8 squares of at least a few pixels fits.
pub const MIN_SIDE: u32 = 64;

#[derive(Debug)]
pub enum PictureError {
    Unreadable(String),
    Empty,
    NotAnImage(String),
    TooLarge { width: u32, height: u32 },
    TooSmall { width: u32, height: u32 },
}

impl fmt::Display for PictureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PictureError::Unreadable(why) => write!(f, "cannot read the file: {why}"),
            PictureError::Empty => write!(f, "the file is empty"),
            PictureError::NotAnImage(why) => {
                write!(
                    f,
                    "not a PNG or JPEG picture this reader can decode ({why})"
                )
            }
            PictureError::TooLarge { width, height } => write!(
                f,
                "the picture is {width}x{height}: more than {MAX_PIXELS} pixels; crop it around the board"
            ),
            PictureError::TooSmall { width, height } => write!(
                f,
                "the picture is {width}x{height}: too small to hold a readable board (at least {MIN_SIDE}x{MIN_SIDE})"
            ),
        }
    }
}

impl std::error::Error for PictureError {}

/// A grey picture, values in 0..=1, row-major.
#[derive(Clone, Debug)]
pub struct Plane {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<f32>,
}

/// Which grey a net reads its squares from; the net's file says which (the
/// board is always found on luma).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Shade {
    /// 0.299 red + 0.587 green + 0.114 blue.
    Luma,
    /// Half luma, half the least of the three channels: a saturated colour
    /// reads darker than a grey of the same lightness, so gold pieces
    /// (luma 0.71, here 0.43) no longer look like silver ones (0.79 both
    /// ways). Greys are unchanged.
    Pigment,
}

const LUMA: [f32; 3] = [0.299, 0.587, 0.114];

impl Plane {
    pub fn from_rgb(image: &image::RgbImage) -> Plane {
        Plane::weighted(image, LUMA)
    }

    /// The plane a net reading `shade` sees.
    pub fn shaded(image: &image::RgbImage, shade: Shade) -> Plane {
        match shade {
            Shade::Luma => Plane::from_rgb(image),
            Shade::Pigment => Plane::mapped(image, |p| {
                let luma: f32 = LUMA.iter().zip(p).map(|(w, c)| w * c as f32).sum();
                let least = p.into_iter().min().unwrap_or(0) as f32;
                0.5 * (luma + least) / 255.0
            }),
        }
    }

    /// One colour channel (0 red, 1 green, 2 blue) as a grey picture: where
    /// a board's two square colours are equally light, one channel still
    /// tells them apart.
    pub fn from_channel(image: &image::RgbImage, channel: usize) -> Plane {
        debug_assert!(channel < 3);
        let mut weights = [0.0; 3];
        weights[channel] = 1.0;
        Plane::weighted(image, weights)
    }

    /// The picture's channels weighed and summed, in 0..=1.
    fn weighted(image: &image::RgbImage, [r, g, b]: [f32; 3]) -> Plane {
        Plane::mapped(image, |[red, green, blue]| {
            (r * red as f32 + g * green as f32 + b * blue as f32) / 255.0
        })
    }

    /// Each pixel's tone from its red, green and blue.
    fn mapped(image: &image::RgbImage, tone: impl Fn([u8; 3]) -> f32) -> Plane {
        Plane {
            width: image.width() as usize,
            height: image.height() as usize,
            pixels: image.pixels().map(|p| tone(p.0)).collect(),
        }
    }

    #[inline]
    pub fn at(&self, x: usize, y: usize) -> f32 {
        debug_assert!(x < self.width && y < self.height);
        self.pixels[y * self.width + x]
    }

    /// Bilinear sample at a real position, clamped to the picture.
    fn bilinear(&self, x: f32, y: f32) -> f32 {
        let (x0, x1, fx) = neighbours(x, self.width);
        let (y0, y1, fy) = neighbours(y, self.height);
        let top = self.at(x0, y0) * (1.0 - fx) + self.at(x1, y0) * fx;
        let bottom = self.at(x0, y1) * (1.0 - fx) + self.at(x1, y1) * fx;
        top * (1.0 - fy) + bottom * fy
    }

    /// The picture turned by `degrees` about its centre (positive turns the
    /// content clockwise as seen), the same size; the corners it uncovers
    /// take the picture's mean tone.
    pub fn rotated(&self, degrees: f32) -> Plane {
        let (sin, cos) = degrees.to_radians().sin_cos();
        let (cx, cy) = (self.width as f32 / 2.0, self.height as f32 / 2.0);
        let mean = self.pixels.iter().sum::<f32>() / self.pixels.len().max(1) as f32;
        let (w, h) = (self.width as f32, self.height as f32);
        let mut pixels = Vec::with_capacity(self.pixels.len());
        for y in 0..self.height {
            for x in 0..self.width {
                // Where this output pixel's centre comes from: turned back.
                let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
                let (sx, sy) = (cx + cos * dx + sin * dy, cy - sin * dx + cos * dy);
                pixels.push(if sx < 0.0 || sy < 0.0 || sx > w || sy > h {
                    mean
                } else {
                    self.bilinear(sx - 0.5, sy - 0.5)
                });
            }
        }
        Plane {
            width: self.width,
            height: self.height,
            pixels,
        }
    }

    /// The picture turned back by a board's skew, or itself when it has none.
    pub fn upright(&self, skew: f32) -> std::borrow::Cow<'_, Plane> {
        if skew == 0.0 {
            std::borrow::Cow::Borrowed(self)
        } else {
            std::borrow::Cow::Owned(self.rotated(-skew))
        }
    }

    /// The square with top-left corner (`left`, `top`) and side `side` pixels,
    /// resampled to `N`×`N` by averaging enough bilinear taps per output
    /// pixel that shrinking does not alias, then standardised (mean 0,
    /// spread 1, with a floor so a plain square stays flat) so that board
    /// colours and contrast matter less than shapes.
    pub fn square_input<const N: usize>(&self, left: f32, top: f32, side: f32) -> Vec<f32> {
        let mut out = self.square_tones::<N>(left, top, side);
        let mean = out.iter().sum::<f32>() / out.len() as f32;
        let var = out.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / out.len() as f32;
        let scale = 1.0 / var.sqrt().max(0.08);
        for v in &mut out {
            *v = (*v - mean) * scale;
        }
        out
    }

    /// The square resampled to `N`×`N` as in [`Plane::square_input`], with
    /// its tones left as the picture has them (0 black, 1 white).
    ///
    /// Each output pixel is the mean of `taps`×`taps` bilinear samples. A
    /// bilinear sample weighs columns and rows separately, so the square is
    /// resampled along its rows first, then down its columns: about a tenth
    /// of the work of sampling every tap (a 120-pixel square needs 16
    /// taps a pixel).
    pub fn square_tones<const N: usize>(&self, left: f32, top: f32, side: f32) -> Vec<f32> {
        let cell = side / N as f32;
        let taps = (cell.ceil() as usize).clamp(1, 6);
        let columns = axis_weights(left, cell, taps, N, self.width);
        let rows = axis_weights(top, cell, taps, N, self.height);
        let per = 2 * taps;
        let first = rows.iter().map(|&(y, _)| y).min().unwrap_or(0);
        let last = rows.iter().map(|&(y, _)| y).max().unwrap_or(0);
        // Every source row the square touches, resampled to N columns.
        let mut across = vec![0.0f32; (last - first + 1) * N];
        for (y, resampled) in (first..=last).zip(across.chunks_exact_mut(N)) {
            let source = &self.pixels[y * self.width..][..self.width];
            for (value, weights) in resampled.iter_mut().zip(columns.chunks_exact(per)) {
                *value = weights.iter().map(|&(x, w)| w * source[x]).sum();
            }
        }
        let mut out = vec![0.0f32; N * N];
        for (row, weights) in out.chunks_exact_mut(N).zip(rows.chunks_exact(per)) {
            for &(y, w) in weights {
                for (value, v) in row.iter_mut().zip(&across[(y - first) * N..][..N]) {
                    *value += w * v;
                }
            }
        }
        out
    }
}

/// One axis of [`Plane::square_tones`]: for each of `n` output pixels
/// from `start`, `2 * taps` (source pixel, weight) pairs, the two neighbours
/// of each of its `taps` samples weighed bilinearly (clamped to the
/// picture's `len` pixels) and divided by `taps`.
fn axis_weights(start: f32, cell: f32, taps: usize, n: usize, len: usize) -> Vec<(usize, f32)> {
    let mut weights = Vec::with_capacity(n * 2 * taps);
    for i in 0..n {
        for t in 0..taps {
            let at = start + (i as f32 + (t as f32 + 0.5) / taps as f32) * cell - 0.5;
            let (low, high, fraction) = neighbours(at, len);
            weights.push((low, (1.0 - fraction) / taps as f32));
            weights.push((high, fraction / taps as f32));
        }
    }
    weights
}

/// The two pixels either side of position `at` along an axis of `len`
/// pixels, and how far `at` lies from the first towards the second, with
/// `at` clamped to the axis: one axis of a bilinear sample.
fn neighbours(at: f32, len: usize) -> (usize, usize, f32) {
    let at = at.clamp(0.0, (len - 1) as f32);
    let low = at.floor() as usize;
    (low, (low + 1).min(len - 1), at - low as f32)
}

/// A colour picture sampled bilinearly at a real position (pixel `x` spans
/// `x..x+1`, so its centre is `x + 0.5`; pass centre coordinates minus
/// 0.5); `None` beyond the picture's edge pixels.
pub fn sample_rgb(image: &image::RgbImage, x: f32, y: f32) -> Option<image::Rgb<u8>> {
    let (w, h) = (image.width(), image.height());
    if w == 0 || h == 0 || !(x > -1.0 && y > -1.0 && x < w as f32 && y < h as f32) {
        return None;
    }
    let (x, y) = (x.clamp(0.0, (w - 1) as f32), y.clamp(0.0, (h - 1) as f32));
    let (x0, y0) = (x as u32, y as u32);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let [a, b, c, d] = [
        image.get_pixel(x0, y0),
        image.get_pixel(x1, y0),
        image.get_pixel(x0, y1),
        image.get_pixel(x1, y1),
    ];
    Some(image::Rgb(std::array::from_fn(|k| {
        let top = a[k] as f32 * (1.0 - fx) + b[k] as f32 * fx;
        let bottom = c[k] as f32 * (1.0 - fx) + d[k] as f32 * fx;
        (top * (1.0 - fy) + bottom * fy).round() as u8
    })))
}

/// The smallest box holding every point, as (left, top, right, bottom),
/// inclusive; `None` without points.
pub fn bounding_box(points: impl IntoIterator<Item = (usize, usize)>) -> Option<[usize; 4]> {
    points.into_iter().fold(None, |b, (x, y)| {
        Some(match b {
            None => [x, y, x, y],
            Some([x0, y0, x1, y1]) => [x0.min(x), y0.min(y), x1.max(x), y1.max(y)],
        })
    })
}

/// Decodes a picture held in memory (PNG or JPEG), checking its size from the
/// header before decoding a single pixel.
pub fn decode(bytes: &[u8]) -> Result<image::RgbImage, PictureError> {
    if bytes.is_empty() {
        return Err(PictureError::Empty);
    }
    let reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| PictureError::NotAnImage(e.to_string()))?;
    if reader.format().is_none() {
        return Err(PictureError::NotAnImage("unknown format".into()));
    }
    let (width, height) = reader
        .into_dimensions()
        .map_err(|e| PictureError::NotAnImage(e.to_string()))?;
    if width as u64 * height as u64 > MAX_PIXELS {
        return Err(PictureError::TooLarge { width, height });
    }
    if width < MIN_SIDE || height < MIN_SIDE {
        return Err(PictureError::TooSmall { width, height });
    }
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| PictureError::NotAnImage(e.to_string()))?;
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(MAX_PIXELS * 8);
    reader.limits(limits);
    let decoded = reader
        .decode()
        .map_err(|e| PictureError::NotAnImage(e.to_string()))?;
    Ok(decoded.to_rgb8())
}

pub fn load(path: &Path) -> Result<image::RgbImage, PictureError> {
    let bytes = std::fs::read(path).map_err(|e| PictureError::Unreadable(e.to_string()))?;
    decode(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every output pixel the mean of its taps, each tap sampled on its own.
    fn tap_by_tap<const N: usize>(plane: &Plane, left: f32, top: f32, side: f32) -> Vec<f32> {
        let cell = side / N as f32;
        let taps = (cell.ceil() as usize).clamp(1, 6);
        (0..N * N)
            .map(|i| {
                let (row, col) = (i / N, i % N);
                let mut sum = 0.0;
                for ty in 0..taps {
                    for tx in 0..taps {
                        let x = left + (col as f32 + (tx as f32 + 0.5) / taps as f32) * cell;
                        let y = top + (row as f32 + (ty as f32 + 0.5) / taps as f32) * cell;
                        sum += plane.bilinear(x - 0.5, y - 0.5);
                    }
                }
                sum / (taps * taps) as f32
            })
            .collect()
    }

    #[test]
    fn pigment_darkens_gold_but_leaves_greys_alone() {
        let image = image::RgbImage::from_fn(3, 1, |x, _| match x {
            0 => image::Rgb([200, 200, 200]),
            1 => image::Rgb([230, 180, 60]),
            _ => image::Rgb([20, 20, 20]),
        });
        let (luma, pigment) = (
            Plane::shaded(&image, Shade::Luma),
            Plane::shaded(&image, Shade::Pigment),
        );
        for x in [0, 2] {
            assert!(
                (luma.at(x, 0) - pigment.at(x, 0)).abs() < 1e-5,
                "grey at {x}"
            );
        }
        // Gold is nearly as light as the light grey in luma, far darker here.
        assert!(luma.at(1, 0) > 0.7 && luma.at(0, 0) - luma.at(1, 0) < 0.1);
        assert!(pigment.at(1, 0) < 0.5);
    }

    #[test]
    fn resampling_rows_then_columns_equals_sampling_every_tap() {
        let mut rng = crate::rng::SplitMix64::new(5);
        let (width, height) = (300, 200);
        let plane = Plane {
            width,
            height,
            pixels: (0..width * height)
                .map(|_| 0.5 + rng.symmetric_f32(0.5))
                .collect(),
        };
        // Large and small squares, between pixels, and over the edges.
        for (left, top, side) in [
            (10.0, 20.0, 120.0),
            (33.3, 7.7, 61.5),
            (100.25, 50.5, 19.0),
            (-5.0, -3.5, 40.0),
            (260.0, 170.0, 55.0),
        ] {
            let fast = plane.square_tones::<32>(left, top, side);
            let reference = tap_by_tap::<32>(&plane, left, top, side);
            for (i, (a, b)) in fast.iter().zip(&reference).enumerate() {
                assert!(
                    (a - b).abs() < 1e-4,
                    "square ({left}, {top}, {side}) pixel {i}: {a} against {b}"
                );
            }
        }
    }
}
