use std::rc::Rc;

use ferrapi::prelude::*;

// A dependency's value lives in the request's future, which runs on any worker thread: a type
// that is not `Send` cannot be one. The error is at the dependency's value type.
#[derive(Clone)]
struct Session(Rc<String>);

#[dependency]
async fn session() -> Session {
    Session(Rc::new("guest".to_owned()))
}

#[get("/me")]
async fn me(session: Session) -> String {
    session.0.to_string()
}

fn main() {}
