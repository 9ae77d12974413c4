//! Serves the weather example over stdio until end of input.

fn main() -> std::io::Result<()> {
    weather_example::init_logging();
    let runtime = tokio::runtime::Builder::new_current_thread().build()?;
    runtime.block_on(toolidl_runtime::serve_stdio(weather_example::server()))
}
