//! `toolidl lsp`'s frame reader on any bytes: every frame is read or answered, each takes at
//! least one byte of the input (so the reader always ends), and every answer is written.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolidl_cli::lsp::framing::{Frame, FrameReader, write_answer};

fuzz_target!(|data: &[u8]| {
    let mut reader = FrameReader::new(data);
    let mut frames = 0;
    while let Ok(Some(frame)) = reader.read() {
        frames += 1;
        assert!(
            frames <= data.len(),
            "{frames} frames from {} bytes",
            data.len()
        );
        if let Frame::Refused {
            answer: Some(answer),
            ..
        } = frame
        {
            let mut out = Vec::new();
            let _ = write_answer(&mut out, &answer);
        }
    }
});
