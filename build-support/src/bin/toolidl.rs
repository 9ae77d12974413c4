fn main() {
    eprintln!("toolidl: not built yet");
    std::process::exit(2);
}
