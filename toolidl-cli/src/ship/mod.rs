//! Shipping a built server: `toolidl bundle` (an MCP Bundle), `toolidl registry` (the MCP
//! registry's `server.json`, or a server card) and `toolidl install` (an entry in an MCP
//! client's configuration). docs/shipping.md describes all three.

pub mod bundle;
pub mod install;
pub mod metadata;
pub mod registry;

use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use toolidl_build::compile::compile_file;
use toolidl_codegen::{Listings, SchemaOptions, listings};

/// The listings of the server's `.tool` files, every service of every file; diagnostics are
/// rendered into the error.
pub fn listings_of(files: &[PathBuf]) -> Result<Listings, String> {
    let mut all = Listings {
        services: Vec::new(),
        notes: Vec::new(),
    };
    for file in files {
        let compiled = compile_file(file).map_err(|failed| failed.rendered)?;
        let one = listings(&compiled.model, &SchemaOptions::default())
            .map_err(|e| format!("{}: {e}", file.display()))?;
        all.services.extend(one.services);
    }
    Ok(all)
}

/// The SHA-256 of a file, in lowercase hex.
pub fn sha256_hex(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0; 64 * 1024];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// `{version}` in a URL or image template replaced by the version.
pub fn with_version(template: &str, version: &str) -> String {
    template.replace("{version}", version)
}
