//! The server the `connection` and `http` targets drive: examples/weather's interface
//! (weather.tool, its import common.tool, and manual.tool), generated as a user's build.rs
//! would.
fn main() {
    let roots = [
        "../examples/weather/tools/weather.tool",
        "../examples/weather/tools/manual.tool",
    ];
    if let Err(e) = toolidl_build::compile(&roots) {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
