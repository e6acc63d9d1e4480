use ferrapi::prelude::*;

fn short(name: &String) -> Result<(), String> {
    if name.len() > 3 { Err("too long".into()) } else { Ok(()) }
}

#[derive(Model)]
struct User {
    #[validate("short")]
    name: String,
}

#[derive(Model)]
struct Person {
    #[validate(short)]
    age: i64,
}

fn main() {}
