//! Clients generated (by build.rs, with `ferrapi_client_gen::generate`) from the documents this
//! crate's tests call: FastAPI's reference apps (`tests/fastapi/`) and ferrapi's types example.
//!
//! Rules enforced here: nothing but the generated modules; what the generated code needs allowed
//! is allowed on each module (a file pulled in with `include!` carries no inner attributes).

/// Generates `pub mod $name` from `$OUT_DIR/$name.rs`.
macro_rules! generated {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {
        $(
            $(#[$doc])*
            #[allow(
                clippy::large_enum_variant,
                clippy::enum_variant_names,
                clippy::too_many_arguments,
                clippy::upper_case_acronyms,
                clippy::doc_lazy_continuation
            )]
            pub mod $name {
                include!(concat!(env!("OUT_DIR"), "/", stringify!($name), ".rs"));
            }
        )*
    };
}

generated![
    /// `tests/fastapi/client_app.py`: every type, unions, generics, uploads, forms, streams.
    fastapi_client,
    /// `tests/fastapi/reference_app.py`: the reference app of the error bodies.
    fastapi_reference,
    /// `tests/fastapi/group_a_app.py`: the spec's group A, as FastAPI.
    fastapi_group_a,
    /// `tests/fastapi/forms_app.py`: form fields, OAuth2's password form, security schemes.
    fastapi_forms,
    /// `tests/fastapi/uploads_app.py`: files as arguments.
    fastapi_uploads,
    /// `tests/fastapi/generics_probe.py`: generic models as pydantic names them.
    fastapi_generics,
    /// `tests/fastapi/unions_probe.py`: discriminated unions.
    fastapi_unions,
    /// `tests/fastapi/unions_untagged_probe.py`: unions without a discriminator.
    fastapi_unions_untagged,
    /// `tests/fastapi/split_probe.py`: models split into `Name-Input` / `Name-Output`.
    fastapi_split,
    /// `tests/fastapi/split_probe.py` with `separate_input_output_schemas=False`.
    fastapi_not_split,
    /// `tests/fastapi/examples_probe.py`: examples on fields and parameters.
    fastapi_examples,
    /// tests/versions.rs: version 2026-01-15 of an app with two released versions.
    versions_2026_01_15,
    /// `examples/types.rs`: ferrapi's value types example.
    types_example,
    /// The framework tests' example app: every parameter kind, forms, uploads, security.
    example_app,
    /// `examples/groups.rs`: route groups.
    groups_example,
];
