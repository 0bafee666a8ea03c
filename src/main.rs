//! The `gulbara` binary: see [`gulbara::cli`].

fn main() -> std::process::ExitCode {
    gulbara::cli::main()
}
