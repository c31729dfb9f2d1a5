// Benchmark peer: renders/s of the real Tera engine, for bench/template_filters_bench.ts.
// Reads one case per line on stdin: {"name": "...", "template": "...", "context": {...},
// "iterations": N}. For each case the template is parsed once, the context converted once,
// then rendered N/10 times to warm up and N times measured. Writes one line per case:
// {"name": "...", "renders_per_s": R, "output_len": L} or {"name": "...", "error": "..."}.
use std::io::{BufRead, Write};
use std::time::Instant;

fn run(v: &serde_json::Value) -> Result<(f64, usize), String> {
    let tpl = v["template"].as_str().unwrap_or("");
    let iterations = v["iterations"].as_u64().unwrap_or(1000).max(1);
    let ctx = tera::Context::from_value(v["context"].clone()).map_err(|e| e.to_string())?;
    let mut tera = tera::Tera::default();
    tera.add_raw_template("case", tpl).map_err(|e| format!("{:?}", e))?;
    let mut len = 0;
    for _ in 0..(iterations / 10).max(1) {
        len = tera.render("case", &ctx).map_err(|e| format!("{:?}", e))?.len();
    }
    let start = Instant::now();
    for _ in 0..iterations {
        let out = tera.render("case", &ctx).map_err(|e| format!("{:?}", e))?;
        len = std::hint::black_box(out).len();
    }
    let secs = start.elapsed().as_secs_f64();
    Ok((iterations as f64 / secs, len))
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let line = line.expect("read");
        if line.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<serde_json::Value>(&line) {
            Ok(v) => {
                let name = v["name"].clone();
                match run(&v) {
                    Ok((rps, len)) => {
                        serde_json::json!({ "name": name, "renders_per_s": rps, "output_len": len })
                    }
                    Err(e) => serde_json::json!({ "name": name, "error": e }),
                }
            }
            Err(e) => serde_json::json!({ "error": format!("bad input line: {}", e) }),
        };
        writeln!(out, "{}", reply).unwrap();
        out.flush().unwrap();
    }
}
