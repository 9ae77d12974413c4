//! `manual-example`: the hand-written service, served over stdio.

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    manual_example::init_logging();
    toolidl_runtime::serve_stdio(manual_example::server()).await
}
