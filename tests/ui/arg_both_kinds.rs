// A type is an extractor or a dependency, not both: one that implements both traits is one error
// at the argument, naming the two implementations the route could take it by.
use ferrapi::arg::{Deps, Extract, Param, RequestCx, Resolve};
use ferrapi::prelude::*;
use ferrapi::validation::ValidationErrors;
use ferrapi::Dependency;

#[derive(Clone)]
struct Token(String);

impl Extract for Token {
    fn extract(_cx: &RequestCx<'_>, _param: Param<Self>, _errors: &mut ValidationErrors) -> Option<Self> {
        Some(Token(String::new()))
    }
}

impl Dependency for Token {
    fn extract(_cx: &RequestCx<'_>, _errors: &mut ValidationErrors) -> Option<impl Resolve<Self> + use<>> {
        Some(Read)
    }
}

struct Read;

impl Resolve<Token> for Read {
    async fn resolve(self, _deps: &mut Deps) -> Result<Token, Response> {
        Ok(Token(String::new()))
    }
}

#[get("/me")]
async fn me(token: Token) -> Json<Value> {
    Json(json!({ "token": token.0 }))
}

fn main() {}
