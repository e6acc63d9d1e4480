"""Tests of scripts/check-cycles.py on small crate trees written to a temporary directory.

Rules enforced here: each test runs the script as CI does (a subprocess, its exit status and
output), on a tree made for the one rule it tests, so a checker that stops seeing an edge, or
starts seeing one that is not there, fails a test by name.

Run: python3 -m unittest discover -s scripts/tests   (scripts/house-checks.sh runs it first)
"""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "check-cycles.py")


class CheckCycles(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.src = os.path.join(self.tmp.name, "crate", "src")

    def write(self, files, layers=None):
        for path, text in files.items():
            full = os.path.join(self.src, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(textwrap.dedent(text))
        args = [sys.executable, SCRIPT]
        # Always a layers file of the test's own, so the repository's never applies here.
        layers_file = os.path.join(self.tmp.name, "scripts", "layers.toml")
        os.makedirs(os.path.dirname(layers_file), exist_ok=True)
        with open(layers_file, "w", encoding="utf-8") as f:
            if layers is not None:
                f.write('["crate/src"]\nlayers = [\n')
                for level in layers:
                    names = [level] if isinstance(level, str) else level
                    f.write("  [" + ", ".join(f'"{n}"' for n in names) + "],\n")
                f.write("]\n")
        args += ["--layers", layers_file, self.src]
        done = subprocess.run(args, capture_output=True, text=True, check=False)
        self.assertEqual(done.stderr, "")
        return done.returncode, done.stdout

    def assert_passes(self, files, layers=None):
        status, out = self.write(files, layers)
        self.assertEqual(status, 0, out)
        self.assertNotIn("circle", out)
        return out

    def assert_cycle(self, files, members, layers=None):
        status, out = self.write(files, layers)
        self.assertEqual(status, 1, out)
        self.assertIn(f"modules import each other in a circle: {members}\n", out)
        return out

    # --- `super` and `self`, in files and folders ------------------------------------------------

    def test_a_super_cycle_between_two_files_of_a_folder_fails(self):
        self.assert_cycle(
            {
                "lib.rs": "mod a;\n",
                "a/mod.rs": "mod b;\nmod c;\n",
                "a/b.rs": "use super::c::C;\npub(crate) struct B;\n",
                "a/c.rs": "use super::b::B;\npub(crate) struct C;\n",
            },
            "a::b, a::c",
        )

    def test_the_same_two_files_importing_one_way_pass(self):
        out = self.assert_passes(
            {
                "lib.rs": "mod a;\n",
                "a/mod.rs": "mod b;\nmod c;\n",
                "a/b.rs": "use super::c::C;\npub(crate) struct B;\n",
                "a/c.rs": "pub(crate) struct C;\n",
            }
        )
        self.assertIn("4 modules, 1 top-level modules, 0 cycles", out)

    def test_super_of_a_file_module_with_a_folder_is_its_parent(self):
        # `a.rs` with `a/b.rs` and `a/c.rs`: `super` in `a/b.rs` is `a`, not the crate root.
        self.assert_cycle(
            {
                "lib.rs": "mod a;\n",
                "a.rs": "mod b;\nmod c;\n",
                "a/b.rs": "use super::c;\npub(crate) fn b() { c::c() }\n",
                "a/c.rs": "pub(crate) fn c() { super::b::b() }\n",
            },
            "a::b, a::c",
        )

    def test_self_is_the_module_itself(self):
        # `self::inner` in `a/b.rs` is `a::b::inner` (a/b/inner.rs), a child: no cycle with `a::c`.
        self.assert_passes(
            {
                "lib.rs": "mod a;\n",
                "a/mod.rs": "mod b;\nmod c;\n",
                "a/b.rs": "mod inner;\nuse self::inner::I;\npub(crate) struct B(I);\n",
                "a/b/inner.rs": "pub(crate) struct I;\n",
                "a/c.rs": "use super::b::B;\npub(crate) struct C(B);\n",
            }
        )

    def test_super_super_climbs_two_levels(self):
        self.assert_cycle(
            {
                "lib.rs": "mod x;\nmod y;\n",
                "x/mod.rs": "mod deep;\n",
                "x/deep.rs": "pub(crate) fn d() { super::super::y::y() }\n",
                "y.rs": "pub(crate) fn y() { crate::x::deep::d() }\n",
            },
            "x::deep, y",
        )

    # --- groups, globs and re-exports ------------------------------------------------------------

    def test_use_groups_and_re_exports_resolve_to_the_defining_file(self):
        # `super::{B, C}` names items re-exported by `a/mod.rs`: the edges go to `b.rs` and `c.rs`.
        self.assert_cycle(
            {
                "lib.rs": "mod a;\n",
                "a/mod.rs": "mod b;\nmod c;\nmod d;\npub(crate) use b::B;\npub(crate) use c::C;\n",
                "a/b.rs": "pub(crate) struct B;\n",
                "a/c.rs": "use super::{d::D, B};\npub(crate) struct C(B, D);\n",
                "a/d.rs": "use crate::a::{self, C};\npub(crate) struct D(Box<C>, a::B);\n",
            },
            "a::c, a::d",
        )

    def test_a_path_through_a_glob_re_export_reaches_the_defining_file(self):
        # `crate::hub::B` is `b.rs`'s `B`, re-exported by `hub.rs` with a glob.
        self.assert_cycle(
            {
                "lib.rs": "mod a;\nmod b;\nmod hub;\n",
                "hub.rs": "pub(crate) use crate::b::*;\n",
                "a.rs": "use crate::hub::B;\npub(crate) struct A(B);\n",
                "b.rs": "pub(crate) struct B;\npub(crate) fn f() -> crate::a::A { todo!() }\n",
            },
            "a, b",
        )

    def test_a_facade_re_export_is_no_edge_of_its_own(self):
        # The root re-exports both files; the files import through it one way only.
        self.assert_passes(
            {
                "lib.rs": "mod a;\nmod b;\npub use a::A;\npub use b::B;\n",
                "a.rs": "use crate::B;\npub struct A(B);\n",
                "b.rs": "pub struct B;\n",
            }
        )

    def test_a_macro_path_counts_and_an_exported_macro_resolves_to_its_file(self):
        self.assert_cycle(
            {
                "lib.rs": "mod a;\nmod b;\n",
                "a.rs": "#[macro_export]\nmacro_rules! m { () => { $crate::b::B } }\npub struct A;\n",
                "b.rs": "pub struct B;\nfn f() { crate::m!(); let _ = crate::a::A; }\n",
            },
            "a, b",
        )

    # --- what is not an import -------------------------------------------------------------------

    def test_comments_strings_and_visibilities_are_not_imports(self):
        self.assert_passes(
            {
                "lib.rs": "mod a;\n",
                "a/mod.rs": "mod b;\nmod c;\n",
                "a/b.rs": """\
                    use super::c::C;
                    pub(super) struct B(C);
                    """,
                "a/c.rs": """\
                    //! See `super::b::B`, or [`B`](super::b::B).
                    /// Made for `super::b::B`.
                    /* super::b::B, /* nested */ still a comment: super::b::B */
                    pub(in crate::a) struct C(&'static str, char);
                    pub(crate) const C0: C = C("super::b::B", '"');
                    pub(crate) const C1: C = C(r#"super::b::B "quoted""#, '\\'');
                    """,
            }
        )

    def test_only_the_test_item_is_skipped_not_the_rest_of_the_file(self):
        # A `#[cfg(test)]` helper and test module import `b`; the code after them does too, and
        # that one counts.
        self.assert_cycle(
            {
                "lib.rs": "mod a;\nmod b;\n",
                "a.rs": """\
                    pub(crate) struct A;
                    #[cfg(test)]
                    fn helper() -> crate::b::B { crate::b::B }
                    #[cfg(test)]
                    mod tests {
                        use crate::b::B;
                    }
                    pub(crate) fn after() { let _ = crate::b::B; }
                    """,
                "b.rs": "pub(crate) struct B;\nfn f() { let _ = crate::a::A; }\n",
            },
            "a, b",
        )

    def test_test_modules_and_test_only_files_are_not_counted(self):
        self.assert_passes(
            {
                "lib.rs": "mod a;\nmod b;\n#[cfg(test)]\nmod snapshots;\n",
                "a.rs": """\
                    pub(crate) struct A;
                    #[cfg(test)]
                    mod tests {
                        use crate::b::B;
                    }
                    """,
                "b.rs": "pub(crate) struct B;\nfn f() { let _ = crate::a::A; }\n",
                "snapshots.rs": "use crate::a::A;\nuse crate::b::B;\n",
            }
        )

    def test_nested_inline_modules_resolve_super_from_where_they_are(self):
        # `super::super` in `a::inner::deeper` (inline, in a.rs) is the crate root.
        self.assert_cycle(
            {
                "lib.rs": "mod a;\nmod b;\n",
                "a.rs": """\
                    pub(crate) struct A;
                    mod inner {
                        mod deeper {
                            use super::super::super::b::B;
                        }
                    }
                    """,
                "b.rs": "pub(crate) struct B;\nfn f() { let _ = crate::a::A; }\n",
            },
            "a, b",
        )

    def test_a_child_may_use_its_parents_own_items(self):
        self.assert_passes(
            {
                "lib.rs": "mod a;\n",
                "a/mod.rs": "mod b;\npub(crate) struct Shared;\npub(crate) fn run() { b::b() }\n",
                "a/b.rs": "pub(crate) fn b() { let _ = super::Shared; }\n",
            }
        )

    # --- layers ----------------------------------------------------------------------------------

    LAYERED = {
        "lib.rs": "mod top;\nmod middle;\nmod bottom;\npub use top::T;\n",
        "top/mod.rs": "mod t;\npub use t::T;\n",
        "top/t.rs": "use crate::middle::M;\npub struct T(M);\n",
        "middle.rs": "use crate::bottom::B;\npub struct M(B);\n",
        "bottom.rs": "pub struct B;\n",
    }

    def test_imports_down_the_declared_layers_pass(self):
        out = self.assert_passes(self.LAYERED, layers=["top", "middle", "bottom"])
        self.assertIn("0 imports against the layer order", out)

    def test_an_import_up_a_layer_fails_naming_the_file_and_the_path(self):
        # `bottom` names `top`'s item, which imports nothing: an upward import, and no cycle.
        files = dict(self.LAYERED, **{"top/t.rs": "pub struct T;\n"})
        files["bottom.rs"] = "pub struct B;\npub fn up() -> Option<crate::T> { None }\n"
        status, out = self.write(files, layers=["top", "middle", "bottom"])
        self.assertEqual(status, 1, out)
        self.assertIn(
            f"{os.path.join(self.src, 'bottom.rs')}:2: `crate::T` imports from `top` (top::t), "
            "a layer above `bottom`",
            out,
        )
        # No file cycle: the layer order alone catches it.
        self.assertNotIn("modules import each other", out)

    def test_peers_may_not_import_each_other(self):
        status, out = self.write(self.LAYERED, layers=["top", ["middle", "bottom"]])
        self.assertEqual(status, 1, out)
        self.assertIn("`crate::bottom::B` imports from `bottom` (bottom), a peer layer of `middle`", out)

    def test_a_top_level_module_left_out_of_the_layers_fails(self):
        status, out = self.write(self.LAYERED, layers=["top", "middle"])
        self.assertEqual(status, 1, out)
        self.assertIn("top-level module `bottom` is in no layer of the layers file: place it", out)

    def test_a_layer_that_is_no_module_fails(self):
        status, out = self.write(self.LAYERED, layers=["top", "middle", "bottom", "botom"])
        self.assertEqual(status, 1, out)
        self.assertIn("the layers file names `botom`, which is no top-level module", out)

    def test_without_declared_layers_only_cycles_are_checked(self):
        # `bottom` names `top`'s item, which imports nothing: an upward import, and no cycle.
        files = dict(self.LAYERED, **{"top/t.rs": "pub struct T;\n"})
        files["bottom.rs"] = "pub struct B;\npub fn up() -> Option<crate::T> { None }\n"
        out = self.assert_passes(files)
        self.assertNotIn("layer order", out)


if __name__ == "__main__":
    unittest.main()
