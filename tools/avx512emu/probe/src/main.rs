use std::arch::asm;
fn main() {
    println!(
        "avx512f={} bw={} vl={} vbmi={} ifma={} dq={} cd={} vbmi2={} vpopcntdq={}",
        is_x86_feature_detected!("avx512f"),
        is_x86_feature_detected!("avx512bw"),
        is_x86_feature_detected!("avx512vl"),
        is_x86_feature_detected!("avx512vbmi"),
        is_x86_feature_detected!("avx512ifma"),
        is_x86_feature_detected!("avx512dq"),
        is_x86_feature_detected!("avx512cd"),
        is_x86_feature_detected!("avx512vbmi2"),
        is_x86_feature_detected!("avx512vpopcntdq")
    );
    println!(
        "vaes={} vpclmulqdq={} gfni={} sha={} bmi2={} avx512vnni={} avx512bitalg={}",
        is_x86_feature_detected!("vaes"),
        is_x86_feature_detected!("vpclmulqdq"),
        is_x86_feature_detected!("gfni"),
        is_x86_feature_detected!("sha"),
        is_x86_feature_detected!("bmi2"),
        is_x86_feature_detected!("avx512vnni"),
        is_x86_feature_detected!("avx512bitalg")
    );
    let a = [1u32; 16];
    let b = [0x8000_0001u32; 16];
    let mut out = [0u32; 16];
    unsafe {
        asm!("vmovdqu32 zmm0, [{a}]", "vmovdqu32 zmm1, [{b}]",
             "vpaddd zmm2, zmm0, zmm1", "vprold zmm2, zmm2, 7",
             "vmovdqu32 [{o}], zmm2", "vzeroupper",
             a = in(reg) a.as_ptr(), b = in(reg) b.as_ptr(), o = in(reg) out.as_mut_ptr(),
             out("zmm0") _, out("zmm1") _, out("zmm2") _);
    }
    // 1 + 0x8000_0001 = 0x8000_0002, then rotated left by 7.
    let exp = 0x8000_0002u32.rotate_left(7);
    println!(
        "zmm result lane0={:#x} expected={:#x} {}",
        out[0],
        exp,
        if out == [exp; 16] { "OK" } else { "MISMATCH" }
    );
}
