fn main() {
    // The weather example's own files: the clients call servers that publish that listing.
    let result = toolidl_build::configure().client(true).compile(&[
        "../../examples/weather/tools/weather.tool",
        "../../examples/weather/tools/manual.tool",
    ]);
    if let Err(e) = result {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
