//! Every surface takes its list of formats from the registry (issue 39): `retromodel formats`
//! lists every codec's formats, `--help` names every extension read and `convert --help`
//! every format written, so a new codec appears with no other edit.

mod common;

use common::{run_ok, text};

#[test]
fn formats_and_help_list_every_registered_format() {
    let out = run_ok(&["formats", "--json"]);
    let listed: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for codec in retromodel::registry::codecs() {
        for f in codec.formats() {
            assert!(
                listed.iter().any(|v| v["name"] == f.name()),
                "{} missing from `retromodel formats`",
                f.name()
            );
        }
    }
    // Help is wrapped to the terminal: compared with its words joined by single spaces.
    let words = |b: &[u8]| text(b).split_whitespace().collect::<Vec<_>>().join(" ");
    let help = words(&run_ok(&["--help"]).stdout);
    for e in retromodel::registry::extensions() {
        assert!(help.contains(&format!(".{e}")), ".{e} missing from --help");
    }
    let convert = words(&run_ok(&["convert", "--help"]).stdout);
    for w in retromodel::registry::writers() {
        assert!(
            convert.contains(w.format.description()),
            "{} missing from convert --help",
            w.format.description()
        );
        let v = listed
            .iter()
            .find(|v| v["name"] == w.format.name())
            .unwrap();
        assert_eq!(v["write"], true, "{}", w.format.name());
        if !w.variant.is_empty() {
            assert!(
                v["variants"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|x| x == w.variant),
                "{} {}",
                w.format.name(),
                w.variant
            );
        }
    }
}
