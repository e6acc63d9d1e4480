// Generic models: the parts as an associated constant, each impl bound by `FromJson`, the schema
// named per parametrisation; a field with `#[examples(..)]`.

/// A page of any model.
#[derive(Model)]
struct Page<T> {
    items: Vec<T>,
    total: u64,
}

#[derive(Model)]
struct Pair<A, B: Clone>
where
    A: Clone,
{
    #[examples(1, 2)]
    first: A,
    second: Option<B>,
}
