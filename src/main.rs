fn main() {
    println!("gulbara");
}
