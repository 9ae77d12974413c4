use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// toolidl: check `.tool` files and print what MCP clients will see.
#[derive(Parser)]
#[command(name = "toolidl", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and resolve files; print diagnostics. Exit 1 when any file has an error.
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print the tools/resources/prompts listings of a file as one JSON object.
    Schema { file: PathBuf },
}

fn main() {
    let cli = Cli::parse();
    let code = match &cli.command {
        Command::Check { files } => toolidl_build::cli::check::run(files),
        Command::Schema { file } => toolidl_build::cli::schema::run(file),
    };
    std::process::exit(code);
}
