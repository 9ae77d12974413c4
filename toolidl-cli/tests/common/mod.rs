//! What the subprocess tests of `fmt` and `diff` share.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// Runs `toolidl <args>` in `dir`.
pub fn toolidl(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolidl"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}
