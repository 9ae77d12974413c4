//! Each API's `.tool` file and forward binding were written by `toolidl import --openapi`
//! (scripts/openapi.sh imports them again and fails when they drift from the documents).
fn main() {
    let built = toolidl_build::configure()
        .client(true)
        .forward("tools/petstore.forward.json")
        .forward("tools/train_travel.forward.json")
        .compile(&["tools/petstore.tool", "tools/train_travel.tool"]);
    if let Err(e) = built {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
