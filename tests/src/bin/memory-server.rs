//! A server in a process of its own, for the memory tests (tests/tests/memory/): what it holds is
//! read from its `/proc/PID/status` (`VmHWM`, `VmRSS`) and from its allocator, apart from the
//! clients attacking it.
//!
//! `memory-server serve BUDGET` serves the app below on 127.0.0.1 with a memory budget of
//! `BUDGET` bytes (0: none) and prints `listening on ADDR`; it stops when its standard input
//! closes. `memory-server tree SHAPE` reads one JSON text of that shape (about 1 MiB, see
//! [`shape`]) into a tree with the allocator limited to what `json_tree_peak` says the read can
//! hold: a read that needs more fails to allocate and aborts the process. It prints the bound and
//! the bytes the tree holds.

use std::alloc::System;
use std::io::Read;

use cap::Cap;
use ferrapi::prelude::*;
use ferrapi::App;

#[global_allocator]
static ALLOCATOR: Cap<System> = Cap::new(System, usize::MAX);

/// Echoes any JSON body (its parse and its answer are both charged).
#[post("/echo")]
async fn echo(body: Json<Value>) -> Json<Value> {
    body
}

/// A model with a list: what a typed body holds.
#[derive(Model)]
struct Order {
    name: String,
    lines: Vec<f64>,
}

/// Reads an order; answers its size.
#[post("/order")]
async fn order(order: Order) -> Json<Value> {
    Json(json!({ "name": order.name.len(), "lines": order.lines.len() }))
}

/// An item of a list body.
#[derive(Model)]
struct Line {
    name: String,
    description: Option<String>,
    price: f64,
    tax: Option<f64>,
    tags: Vec<String>,
}

/// A list of items: what a typed list body holds.
#[post("/lines")]
async fn lines(lines: Json<Vec<Line>>) -> Json<Value> {
    let bytes: usize = lines
        .0
        .iter()
        .map(|line| {
            let text = line.name.len() + line.description.as_ref().map_or(0, String::len);
            text + line.tags.iter().map(String::len).sum::<usize>()
        })
        .sum();
    let total: f64 = lines
        .0
        .iter()
        .map(|line| line.price + line.tax.unwrap_or(0.0))
        .sum();
    Json(json!({ "count": lines.0.len(), "text": bytes, "total": total }))
}

/// A body read and thrown away: its parse is charged, its answer is small.
#[post("/count")]
async fn count(body: Json<Value>) -> Json<Value> {
    let count = match &body.0 {
        Value::Array(items) => items.len(),
        Value::Object(map) => map.len(),
        _ => 1,
    };
    Json(json!({ "count": count }))
}

/// An answer of `kib` KiB (at most 4 MiB).
#[get("/big/{kib}")]
async fn big(kib: usize) -> String {
    "x".repeat(kib.min(4096) * 1024)
}

/// A JSON answer of about `kib` KiB (at most 4 MiB), serialized when answered.
#[get("/json/{kib}")]
async fn json_answer(kib: usize) -> Json<Value> {
    Json(json!({ "blob": "x".repeat(kib.min(4096) * 1024) }))
}

/// The allocator's figures: bytes allocated now, and the most ever.
#[get("/heap")]
async fn heap() -> Json<Value> {
    Json(json!({ "allocated": ALLOCATOR.allocated(), "max": ALLOCATOR.max_allocated() }))
}

/// A JSON text of about 1 MiB of the shape `name`.
fn shape(name: &str) -> Option<String> {
    const SIZE: usize = 1 << 20;
    let repeat = |unit: &str, open: &str, close: &str| {
        let count = (SIZE - open.len() - close.len()) / (unit.len() + 1);
        format!("{open}{}{close}", vec![unit; count].join(","))
    };
    let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let nested_objects = |depth: usize| format!("{}0{}", "{\"k\":".repeat(depth), "}".repeat(depth));
    Some(match name {
        "nested-arrays" => repeat(&nested(120), "{\"name\":\"n\",\"d\":[", "]}"),
        "nested-objects" => repeat(&nested_objects(126), "[", "]"),
        "flat-zeros" => repeat("0", "[", "]"),
        "one-element-arrays" => repeat("[0]", "[", "]"),
        "small-objects" => repeat("{\"\":0}", "[", "]"),
        "empty-strings" => repeat("\"\"", "[", "]"),
        "escaped-strings" => repeat(&format!("\"{}\"", "\\n\\u00e9".repeat(40)), "[", "]"),
        "escaped-keys" => repeat("\"\\u0061\\u0062\":true", "{", "}"),
        "items" => repeat(
            r#"{"name":"Hammer","description":"A hammer","price":10.5,"tax":null,"tags":["a","b"]}"#,
            "[",
            "]",
        ),
        "one-long-string" => format!("\"{}\"", "x".repeat(SIZE - 2)),
        "small-nested" => nested(127),
        "small-item" => r#"{"name":"Hammer","price":10.5,"tax":null}"#.to_owned(),
        _ => return None,
    })
}

fn tree(name: &str) -> Result<(), String> {
    let text = shape(name).ok_or_else(|| format!("no shape {name}"))?;
    let bound = ferrapi::__fuzz::json_tree_peak(text.as_bytes());
    let before = ALLOCATOR.allocated();
    ALLOCATOR
        .set_limit(before + bound)
        .map_err(|()| "the limit is below what is allocated".to_owned())?;
    let tree = ferrapi::__fuzz::parse_json_tree(&text).map_err(|e| e.to_string())?;
    let held = ALLOCATOR.allocated() - before;
    ALLOCATOR
        .set_limit(usize::MAX)
        .map_err(|()| "cannot lift the limit".to_owned())?;
    println!("{} {bound} {held}", text.len());
    drop(tree);
    Ok(())
}

async fn serve(budget: usize) -> Result<(), String> {
    let app = App::new()
        .routes(ferrapi::routes![
            echo,
            order,
            lines,
            count,
            big,
            json_answer,
            heap
        ])
        .memory_budget((budget > 0).then_some(budget));
    let server = app.bind("127.0.0.1:0").await.map_err(|e| e.to_string())?;
    println!("listening on {}", server.local_addr());
    server
        .run_until(async {
            // Until the test closes our standard input (or dies).
            let _ = tokio::task::spawn_blocking(|| std::io::stdin().read(&mut [0; 1])).await;
        })
        .await;
    Ok(())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["tree", name] => tree(name),
        ["serve", budget] => {
            let budget = budget
                .parse()
                .map_err(|_| format!("not a number of bytes: {budget}"))?;
            tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .map_err(|e| e.to_string())?
                .block_on(serve(budget))
        }
        _ => Err("usage: memory-server serve BUDGET | memory-server tree SHAPE".to_owned()),
    }
}
