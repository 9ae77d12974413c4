//! Serves the memory tools over stdio until end of input, the graph kept in the JSONL file
//! `MEMORY_FILE_PATH` names (see `memory_example::memory_file_path`).

fn main() -> std::io::Result<()> {
    memory_example::init_logging();
    let file = memory_example::memory_file_path()?;
    let runtime = tokio::runtime::Builder::new_current_thread().build()?;
    runtime.block_on(toolidl_runtime::serve_stdio(memory_example::server(file)))?;
    Ok(())
}
