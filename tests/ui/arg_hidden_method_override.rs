// `Arg`'s hidden methods are sealed: an impl that tries to override one cannot write its
// signature (the seal's type cannot be named outside ferrapi).
use ferrapi::arg::{Deps, Param, RequestCx, Source};
use ferrapi::validation::ValidationErrors;
use ferrapi::{Arg, Response};

#[derive(Clone)]
struct Token(String);

impl Arg for Token {
    const SOURCE: Source = Source::Dependency;
    type Input = String;

    fn extract(_cx: &RequestCx<'_>, _param: Param<Self>, _errors: &mut ValidationErrors) -> Option<String> {
        Some(String::new())
    }

    async fn resolve(input: String, _deps: &mut Deps) -> Result<Self, Response> {
        Ok(Token(input))
    }

    async fn __resolve(input: String, _deps: &mut Deps) -> Result<Self, Response> {
        Ok(Token(input))
    }
}

fn main() {}
