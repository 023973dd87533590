//! The one writer every UCI line goes through. The engine loop and the
//! search thread both print; each line is written and flushed under one lock,
//! so lines never interleave and a GUI sees each as soon as it is complete.

use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<dyn Write + Send>>,
}

impl Output {
    pub fn stdout() -> Output {
        Output::to(std::io::stdout())
    }

    /// Output into any writer (tests capture lines in memory).
    pub fn to(writer: impl Write + Send + 'static) -> Output {
        Output {
            sink: Arc::new(Mutex::new(writer)),
        }
    }

    pub fn line(&self, text: &str) {
        // A panic elsewhere while holding the lock leaves the writer usable.
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        // A closed stdout means the GUI is gone; the reader sees EOF and quits.
        let _ = writeln!(sink, "{text}").and_then(|_| sink.flush());
    }

    /// An `info string`, the UCI way to tell the user something.
    pub fn info(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }
}

/// An in-memory sink for tests: clones share one buffer.
#[derive(Clone, Default)]
pub struct Captured(Arc<Mutex<Vec<u8>>>);

impl Captured {
    pub fn lines(&self) -> Vec<String> {
        let bytes = self.0.lock().unwrap_or_else(|e| e.into_inner());
        String::from_utf8_lossy(&bytes)
            .lines()
            .map(str::to_string)
            .collect()
    }
}

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
