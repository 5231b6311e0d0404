//! Fuzzes Half-Life QC text: `Qc::parse`, then `Qc::write`, whose text must parse again and
//! write back to itself; a parse error must name `qc` and a line and column.
#![no_main]
use retromodel::formats::goldsrc::qc::Qc;
use retromodel::Limits;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let limits = Limits::default();
    match Qc::parse(data, &limits) {
        Ok(q) => {
            let text = q.write();
            let back = Qc::parse(&text, &limits).unwrap_or_else(|e| {
                panic!("written QC does not parse: {e}\n{}", String::from_utf8_lossy(&text))
            });
            assert!(back.write() == text, "written QC writes back differently");
        }
        Err(e) => {
            let s = e.to_string();
            assert!(s.starts_with("qc: ") && s.contains(" at line "), "{s}");
        }
    }
});
