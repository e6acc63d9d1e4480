#!/usr/bin/env bash
# The house rules that no compiler checks (DESIGN.md, issue 11), run by CI after fmt and clippy:
#   1. no import cycle among the modules of the framework crates, nor between their top-level
#      folders, nor in the service, and runtime/src's layers import only the layers below them
#      (scripts/check-cycles.py, the order in scripts/layers.toml); the checker's own tests
#      (scripts/tests/) run first, so a checker that went blind fails before it can pass the tree;
#      ARCHITECTURE.md's layer table, modules and paths match the code (scripts/check-architecture.py);
#   2. the documentation builds without a warning (broken intra-doc links, bare URLs, missing
#      docs): `cargo doc --workspace --no-deps` with RUSTDOCFLAGS="-D warnings"; the doctests run
#      with the tests (`cargo test --workspace` includes them);
#   3. the publishable crates package and their packages build on their own
#      (`cargo package` of ferrapi-wire, ferrapi-template, ferrapi-macros and ferrapi, verified against a local
#      registry of the four, and of the client runtime and generator, ferrapi-client and
#      ferrapi-client-gen; needs the crates.io index, which this machine reaches).
# Usage: scripts/house-checks.sh [cycles|doc|package]...   (default: all three)
set -euo pipefail
cd "$(dirname "$0")/.."

steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(cycles doc package)

for step in "${steps[@]}"; do
  case "$step" in
    cycles)
      echo "== the checkers' tests (scripts/tests/)"
      python3 -B -m unittest discover --quiet -s scripts/tests
      echo "== module cycles and layers (scripts/check-cycles.py, scripts/layers.toml)"
      python3 scripts/check-cycles.py runtime/src runtime/template/src macros/src service/src \
        client/runtime/src client/gen/src wire/src
      echo "== ARCHITECTURE.md against the code (scripts/check-architecture.py)"
      python3 scripts/check-architecture.py
      ;;
    doc)
      echo "== cargo doc --workspace --no-deps (RUSTDOCFLAGS=-D warnings)"
      RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
      ;;
    package)
      echo "== cargo package -p ferrapi-wire -p ferrapi-template -p ferrapi-macros -p ferrapi -p ferrapi-client -p ferrapi-client-gen"
      # To verify `ferrapi` against the packaged `ferrapi-macros`, cargo puts the packages in a
      # temporary registry, unpacks them under $CARGO_HOME/registry/src/-<hash>/ and builds them
      # like any registry crate — and reuses an unpacked or built registry crate of the same name
      # and version, so a crate changed since the last run would be verified against its old
      # self (seen: `ferrapi` checked against an older `ferrapi-macros`). So packaging builds in
      # a target directory of its own (its dependencies stay built between runs), and every run
      # first removes our crates' unpacked copies and builds there.
      target_dir="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
      verify_dir="$target_dir/package-verify"
      rm -rf "$verify_dir/package" "$verify_dir"/debug/.fingerprint/ferrapi* "$verify_dir"/debug/deps/*ferrapi* \
        "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/ferrapi-*
      # --allow-dirty: the check is that the crates package and build, not that the tree is clean.
      CARGO_TARGET_DIR="$verify_dir" cargo package --quiet --allow-dirty -p ferrapi-wire -p ferrapi-template -p ferrapi-macros -p ferrapi \
        -p ferrapi-client -p ferrapi-client-gen
      ;;
    *)
      echo "scripts/house-checks.sh: unknown step: $step (cycles, doc, package)" >&2
      exit 2
      ;;
  esac
done
