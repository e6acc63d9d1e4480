use ferrapi::prelude::*;

#[derive(Model, serde::Serialize)]
pub struct Older {
    pub name: String,
}

#[derive(Model)]
#[model(changed("2026-03-01", was = Older, forward = to_missing))]
pub struct MissingBackward {
    pub first: String,
}

fn to_missing(old: Older) -> Result<MissingBackward, String> {
    Ok(MissingBackward { first: old.name })
}

#[derive(Model)]
#[model(changed("2026-03-01", was = Older, forward = to_too_old, backward = from_too_old))]
#[model(removed("2026-01-15", code: String, backward = code_of))]
pub struct TooOld {
    #[since("2026-01-15", renamed_from = "given")]
    pub first: String,
    #[since("2026-03-01", default = String::new())]
    pub last: String,
    #[since("2026-06-01", default = 0)]
    pub age: u8,
}

fn to_too_old(old: Older) -> Result<TooOld, String> {
    Ok(TooOld { first: old.name, last: String::new(), age: 0 })
}

fn from_too_old(new: &TooOld) -> Older {
    Older { name: new.first.clone() }
}

fn code_of(new: &TooOld) -> String {
    new.first.clone()
}

#[derive(Model)]
#[model(changed("2026-03-01", was = Older, forward = to_twice, backward = from_twice))]
#[model(changed("2026-06-01", was = Older, forward = to_twice, backward = from_twice))]
pub struct Twice {
    pub first: String,
}

fn to_twice(old: Older) -> Result<Twice, String> {
    Ok(Twice { first: old.name })
}

fn from_twice(new: &Twice) -> Older {
    Older { name: new.first.clone() }
}

#[derive(Model)]
#[model(changed("2026-3-01", was = Older, forward = to_twice, backward = from_twice))]
pub struct BadDate {
    pub first: String,
}

#[derive(Model)]
#[model(changed("2026-03-01", was = Older, forward = to_twice, backward = from_twice, sideways = from_twice))]
pub struct UnknownOption {
    pub first: String,
}

fn main() {}
