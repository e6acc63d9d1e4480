// Typed streams: `JsonLines<T>` and `Sse<T>` document their items with `T`'s schema (probed as a
// `Json<T>` answer's); an untyped `Sse` stays a string of events.

#[get("/parts.jsonl")]
async fn part_lines() -> JsonLines<Part> {
    JsonLines::new(stream::iter(parts()))
}

#[get("/parts/events")]
async fn part_events() -> Result<Sse<Part>, HttpError> {
    Ok(Sse::json(stream::iter(parts())))
}

#[get("/ticks")]
async fn ticks() -> Sse {
    Sse::new(stream::empty::<Result<Event, Infallible>>())
}
