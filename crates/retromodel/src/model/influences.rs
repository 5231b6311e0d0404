//! Joint influences of a vertex, by one rule for every consumer: the glTF exporter writes
//! them and the renderer draws them, so that a model looks the same in retromodel's viewers
//! and in any viewer of the exported file.

/// A vertex's influences as glTF wants them (and the renderer draws them): weights on the same joint merged, weights that
/// are not positive finite numbers left out, sorted by decreasing weight (ties: lower joint
/// first), cut to the `max` heaviest and scaled to sum to 1 (the heaviest takes the rounding
/// remainder, so the `f32` sum is 1 to the last bit or so). Returns the list, whether some
/// were cut, and whether nothing usable was left (the vertex then follows joint 0).
pub fn influences(list: &[(u32, f32)], max: usize) -> (Vec<(u32, f32)>, bool, bool) {
    let mut merged: Vec<(u32, f64)> = Vec::with_capacity(list.len());
    for &(j, w) in list {
        if !(w.is_finite() && w > 0.0) {
            continue;
        }
        match merged.iter_mut().find(|(k, _)| *k == j) {
            Some(e) => e.1 += f64::from(w),
            None => merged.push((j, f64::from(w))),
        }
    }
    if merged.is_empty() {
        return (vec![(0, 1.0)], false, true);
    }
    merged.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let cut = merged.len() > max;
    merged.truncate(max.max(1));
    let sum: f64 = merged.iter().map(|e| e.1).sum();
    let mut out: Vec<(u32, f32)> = merged.iter().map(|&(j, w)| (j, (w / sum) as f32)).collect();
    let rest: f64 = out[1..].iter().map(|e| f64::from(e.1)).sum();
    out[0].1 = (1.0 - rest) as f32;
    (out, cut, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn influences_merge_cut_and_sum_to_one() {
        let (inf, cut, empty) = influences(&[(2, 0.25), (1, 0.5), (2, 0.25)], 4);
        assert_eq!(inf, vec![(1, 0.5), (2, 0.5)]);
        assert!(!cut && !empty);
        let list = [(0, 0.1), (1, 0.2), (2, 0.3), (3, 0.15), (4, 0.25)];
        let (inf, cut, _) = influences(&list, 4);
        assert!(cut);
        assert_eq!(
            inf.iter().map(|e| e.0).collect::<Vec<_>>(),
            vec![2, 4, 1, 3]
        );
        let sum: f32 = inf.iter().map(|e| e.1).sum();
        assert!((sum - 1.0).abs() < 1e-6);
        let (inf, _, empty) = influences(&[(3, 0.0), (1, f32::NAN)], 4);
        assert!(empty);
        assert_eq!(inf, vec![(0, 1.0)]);
    }
}
