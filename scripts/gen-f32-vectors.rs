// Generates spec-tests/fixtures/f32-scores.txt: "term_matches total_words expected" lines,
// where expected is how the reference (Rust serde_json -> ryu) prints the f32 score.
// Digits come from Rust's own shortest round-trip formatting ({:e}); the layout below is
// ryu's format32 rule. Run: rustc -O scripts/gen-f32-vectors.rs -o /tmp/g && /tmp/g > ...
fn ryu_layout(v: f32) -> String {
    if v == 0.0 { return "0.0".to_string(); }
    let e = format!("{:e}", v); // e.g. "3.3333334e-1"
    let (mant, exp) = e.split_once('e').unwrap();
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let exp: i32 = exp.parse().unwrap();
    let length = digits.len() as i32;
    let k = exp - (length - 1);
    let kk = length + k;
    if k >= 0 && kk <= 13 {
        format!("{}{}.0", digits, "0".repeat(k as usize))
    } else if kk > 0 && kk <= 13 {
        format!("{}.{}", &digits[..kk as usize], &digits[kk as usize..])
    } else if kk > -6 && kk <= 0 {
        format!("0.{}{}", "0".repeat((-kk) as usize), digits)
    } else if length == 1 {
        format!("{}e{}", digits, kk - 1)
    } else {
        format!("{}.{}e{}", &digits[..1], &digits[1..], kk - 1)
    }
}
fn main() {
    let mut pairs: Vec<(u64, u64)> = Vec::new();
    for w in 1..=64u64 { for m in 0..=(w * 2) { pairs.push((m, w)); } }
    let extra: &[(u64, u64)] = &[(1,100000000),(1,10000000),(1,1000000),(1,100000),(1,10000),(7,10000000),
        (3,7),(123456,1234567),(1,16777217),(16777217,1),(99999999,100000000),(10,1),(100,1),
        (12345678,1),(123456789,1),(1,123456789),(3,16777216),(5,33554432),(1,1048576),(1,8388608),
        (7,9999991),(4999,9999991),(1,99999989),(1,3),(2,3),(1,4294967295),(4294967295,1),
        (10000000000000,1),(1,33554432),(1,2),(1,1024),(3,1024)];
    pairs.extend_from_slice(extra);
    let mut s: u64 = 12345;
    let mut next = || { s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); s >> 33 };
    for _ in 0..6000 { let w = next() % 50000000 + 1; let m = next() % (w * 2 + 1); pairs.push((m, w)); }
    for _ in 0..2000 { let w = next() % 1000000000 + 1; let m = next() % 20 ; pairs.push((m, w)); }
    for (m, w) in pairs { let v = m as f32 / w as f32; println!("{} {} {}", m, w, ryu_layout(v)); }
}
