//! `include/tress.h` is what cbindgen makes of the crate now: regenerated
//! in memory and compared byte for byte. `TRESS_BLESS=1` rewrites it.

use std::path::Path;

#[test]
fn committed_header_is_fresh() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_crate(dir)
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header");
    let mut fresh = Vec::new();
    bindings.write(&mut fresh);
    let path = dir.join("include/tress.h");
    if std::env::var_os("TRESS_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &fresh).expect("write include/tress.h");
        return;
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    if committed != fresh {
        let old = String::from_utf8_lossy(&committed);
        let new = String::from_utf8_lossy(&fresh);
        let line = old
            .lines()
            .zip(new.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| old.lines().count().min(new.lines().count()));
        panic!(
            "include/tress.h is stale (first difference at line {}); \
             regenerate with TRESS_BLESS=1 cargo test -p tress-ffi --test header",
            line + 1
        );
    }
}
