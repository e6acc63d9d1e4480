// `Option` fields: not required, absent is `None`.

#[derive(Model, Debug)]
pub struct Filter {
    name: Option<String>,
    limit: Option<u32>,
    tags: Option<Vec<String>>,
}
