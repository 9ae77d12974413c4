//! `include_tools!` includes the files `toolidl-build` writes into `OUT_DIR`.
//!
//! This crate has no build script, so no `OUT_DIR`: the macro's `env!` is resolved where the
//! macro is used, and a local `env!` points `OUT_DIR` at `tests/fixtures/include`.

macro_rules! env {
    ("OUT_DIR") => {
        concat!(
            ::core::env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/include"
        )
    };
}

toolidl_runtime::include_tools!();

mod weather {
    toolidl_runtime::include_tools!("acme.weather");
}

#[test]
fn includes_every_package_nested_or_one_package_body() {
    assert_eq!(acme::weather::PACKAGE, "acme.weather");
    assert_eq!(weather::PACKAGE, "acme.weather");
    assert_eq!(weather::both(), (1, 2));
}
