//! Command-line and environment configuration (flags first, environment as fallback).
//!
//! Rules enforced here: every setting has a sensible default so `resource-api` alone serves on
//! 127.0.0.1:8000; a bad value stops the program with one clear line.

use clap::{Parser, ValueEnum};

/// Which route groups the binary serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Group {
    /// Group A only (typed routes, OpenAPI, docs).
    A,
    /// Group B only (JSON, text, HTML routes and birds).
    B,
    /// Group A declared first, then group B, on one listener.
    All,
}

/// The Resource API service.
#[derive(Debug, Clone, Parser)]
#[command(name = "resource-api", version, about)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "HOST", default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on (0 picks a free port; the log says which).
    #[arg(long, env = "PORT", default_value_t = 8000)]
    pub port: u16,
    /// Route groups to serve.
    #[arg(long, env = "GROUP", value_enum, default_value_t = Group::All)]
    pub group: Group,
}
