//! Build script: the third-party assets of the documentation pages, taken from registry packages
//! at build time and written to `OUT_DIR`, where `src/docs.rs` includes them in the binary.
//!
//! Rules enforced here:
//! - no third-party file is committed to this repository and nothing is fetched beyond the
//!   registries: Swagger UI comes from `utoipa-swagger-ui-vendored` (the release zip as bytes),
//!   ReDoc's standalone bundle from `aide` (feature `redoc`), both pinned to exact versions;
//! - the pages load nothing from another host: ReDoc's one remote image (its attribution logo)
//!   is replaced by an empty `data:` URL, which ReDoc then leaves out;
//! - only the files the pages load are extracted (the zip also holds Swagger UI's sources), with
//!   a small reader of the zip's central directory and `miniz_oxide` to inflate, each file's size
//!   and CRC-32 checked against the archive;
//! - any surprise (a missing file, a changed layout) fails the build with a message saying what
//!   was expected, never a page that breaks at run time.

use std::env;
use std::fs;
use std::path::Path;

/// The Swagger UI files the `/docs` page loads, by their name under `dist/` in the release zip.
const SWAGGER_FILES: &[&str] = &["swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png"];

/// The only remote URL ReDoc's bundle loads by itself.
const REDOC_LOGO: &str = "https://cdn.redoc.ly/redoc/logo-mini.svg";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let out = env::var_os("OUT_DIR").unwrap_or_else(|| fail("OUT_DIR is not set"));
    let out = Path::new(&out);

    let zip = utoipa_swagger_ui_vendored::SWAGGER_UI_VENDORED;
    let entries = central_directory(zip).unwrap_or_else(|e| fail(&format!("Swagger UI zip: {e}")));
    let mut version = None;
    // The assets' fingerprint for cache-busting URLs, computed here so the service never reads
    // the 2.7 MB of assets at start-up (which would also count them in its resident memory).
    let mut swagger_fnv = Fnv::new();
    for name in SWAGGER_FILES {
        let entry = entries
            .iter()
            .find(|e| e.name.ends_with(&format!("/dist/{name}")))
            .unwrap_or_else(|| fail(&format!("Swagger UI zip has no dist/{name}")));
        version = entry
            .name
            .split('/')
            .next()
            .and_then(|top| top.strip_prefix("swagger-ui-"))
            .map(str::to_owned);
        let bytes = extract(zip, entry).unwrap_or_else(|e| fail(&format!("{}: {e}", entry.name)));
        swagger_fnv.update(&bytes);
        write(&out.join(name), &bytes);
    }
    write(&out.join("swagger-ui.fnv"), swagger_fnv.hex().as_bytes());
    let version = version.unwrap_or_else(|| fail("Swagger UI zip: no `swagger-ui-VERSION/` folder"));
    write(&out.join("swagger-ui.version"), version.as_bytes());

    // aide inlines the bundle into a page; take the script back out of it.
    let page = aide::redoc::Redoc::new("__FERRAPI_SPEC_URL__").html();
    let start = page.find("<script>").map(|i| i + "<script>".len());
    let end = page.rfind("Redoc.init(");
    let bundle = match (start, end) {
        (Some(start), Some(end)) if start < end => page[start..end].trim(),
        _ => fail("aide's ReDoc page no longer has the layout `<script> BUNDLE Redoc.init(`"),
    };
    if !bundle.starts_with("/*!") || bundle.len() < 500_000 || bundle.contains("</script") {
        fail("aide's ReDoc page does not hold the ReDoc standalone bundle as expected");
    }
    // The bundle's one remote resource: the attribution logo, an <img> from ReDoc's CDN. An empty
    // data: URL instead makes the image fail to load, and ReDoc then leaves it out (its onError),
    // so the page asks nothing of another host.
    if bundle.matches(REDOC_LOGO).count() != 1 {
        fail("ReDoc bundle: expected exactly one reference to its CDN logo");
    }
    let bundle = bundle.replace(REDOC_LOGO, "data:,");
    write(&out.join("redoc.standalone.js"), bundle.as_bytes());
    let mut redoc_fnv = Fnv::new();
    redoc_fnv.update(bundle.as_bytes());
    write(&out.join("redoc.fnv"), redoc_fnv.hex().as_bytes());
    let redoc_version = bundle
        .split("ReDoc Version: \",\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| fail("ReDoc bundle: no version string"));
    write(&out.join("redoc.version"), redoc_version.as_bytes());
}

/// FNV-1a (64 bit).
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn update(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

fn fail(message: &str) -> ! {
    eprintln!("ferrapi build script: {message}");
    std::process::exit(1)
}

fn write(path: &Path, bytes: &[u8]) {
    // Rewrite only on change, so dependent crates are not rebuilt for nothing.
    if fs::read(path).ok().as_deref() != Some(bytes) {
        fs::write(path, bytes).unwrap_or_else(|e| fail(&format!("write {}: {e}", path.display())));
    }
}

/// One file of a zip archive, as its central directory describes it.
struct Entry {
    name: String,
    method: u16,
    crc32: u32,
    compressed: usize,
    size: usize,
    local_header: usize,
}

fn u16_at(bytes: &[u8], at: usize) -> Result<u16, String> {
    bytes
        .get(at..at + 2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .ok_or_else(|| format!("truncated at byte {at}"))
}

fn u32_at(bytes: &[u8], at: usize) -> Result<u32, String> {
    bytes
        .get(at..at + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .ok_or_else(|| format!("truncated at byte {at}"))
}

/// The entries of the archive's central directory (no zip64: the archive is a few MB).
fn central_directory(zip: &[u8]) -> Result<Vec<Entry>, String> {
    const END: u32 = 0x0605_4b50;
    const CENTRAL: u32 = 0x0201_4b50;
    let end = (0..zip.len().saturating_sub(21))
        .rev()
        .take(65_536 + 22)
        .find(|&i| u32_at(zip, i) == Ok(END))
        .ok_or("no end-of-central-directory record")?;
    let count = usize::from(u16_at(zip, end + 10)?);
    let mut at = u32_at(zip, end + 16)? as usize;
    let mut entries = Vec::with_capacity(count);
    for _ in 0..count {
        if u32_at(zip, at)? != CENTRAL {
            return Err(format!("no central directory header at byte {at}"));
        }
        let name_len = usize::from(u16_at(zip, at + 28)?);
        let extra_len = usize::from(u16_at(zip, at + 30)?);
        let comment_len = usize::from(u16_at(zip, at + 32)?);
        let name = zip
            .get(at + 46..at + 46 + name_len)
            .ok_or("truncated file name")?;
        entries.push(Entry {
            name: String::from_utf8_lossy(name).into_owned(),
            method: u16_at(zip, at + 10)?,
            crc32: u32_at(zip, at + 16)?,
            compressed: u32_at(zip, at + 20)? as usize,
            size: u32_at(zip, at + 24)? as usize,
            local_header: u32_at(zip, at + 42)? as usize,
        });
        at += 46 + name_len + extra_len + comment_len;
    }
    Ok(entries)
}

/// The bytes of `entry`: stored or deflated, checked against its size and CRC-32.
fn extract(zip: &[u8], entry: &Entry) -> Result<Vec<u8>, String> {
    const LOCAL: u32 = 0x0403_4b50;
    let at = entry.local_header;
    if u32_at(zip, at)? != LOCAL {
        return Err(format!("no local file header at byte {at}"));
    }
    let start = at + 30 + usize::from(u16_at(zip, at + 26)?) + usize::from(u16_at(zip, at + 28)?);
    let data = zip
        .get(start..start + entry.compressed)
        .ok_or("truncated file data")?;
    let bytes = match entry.method {
        0 => data.to_vec(),
        8 => miniz_oxide::inflate::decompress_to_vec(data).map_err(|e| format!("inflate: {e:?}"))?,
        other => return Err(format!("unsupported compression method {other}")),
    };
    if bytes.len() != entry.size {
        return Err(format!("{} bytes, expected {}", bytes.len(), entry.size));
    }
    if crc32(&bytes) != entry.crc32 {
        return Err("CRC-32 mismatch".to_owned());
    }
    Ok(bytes)
}

/// CRC-32 (IEEE 802.3, as zip uses it).
fn crc32(bytes: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (n, slot) in table.iter_mut().enumerate() {
        let mut c = n as u32;
        for _ in 0..8 {
            c = if c & 1 == 1 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *slot = c;
    }
    let mut crc = !0u32;
    for &b in bytes {
        crc = table[((crc ^ u32::from(b)) & 0xFF) as usize] ^ (crc >> 8);
    }
    !crc
}
