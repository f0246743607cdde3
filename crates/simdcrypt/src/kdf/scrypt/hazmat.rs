//! scrypt's inner functions by themselves, for the tests of RFC 7914 §9
//! (scryptBlockMix) and §10 (scryptROMix): behind the `hazmat` feature.

use super::*;

/// The lane length check of the test entry points: `len` must be
/// `lanes` lanes of 128·`r` bytes.
fn check_lanes(len: usize, r: u32, lanes: Option<usize>) -> Result<(), Error> {
    let lane = 128 * r as usize;
    let ok = match lanes {
        Some(lanes) => len == lanes * lane,
        None => len > 0 && len.is_multiple_of(lane),
    };
    if ok {
        Ok(())
    } else {
        Err(Error::KdfParameter {
            kdf: "scrypt",
            parameter: "B length",
            value: len as u64,
            expected: format!(
                "{} lanes of 128·r = {lane} bytes",
                lanes.map_or("whole".to_owned(), |l| l.to_string())
            ),
        })
    }
}

/// scryptBlockMix (RFC 7914 §4) on the rung `imp`, for the tests of
/// RFC 7914 §9: `input` and `output` hold `lanes` lanes (one of
/// [`Rung::lane_widths`]) of 128·`r` bytes each, mixed at once.
///
/// # Errors
///
/// [`Error::RungUnavailable`] when the CPU lacks the rung,
/// [`Error::KdfParameter`] for other lengths or lane counts.
#[cfg_attr(docsrs, doc(cfg(feature = "hazmat")))]
pub fn block_mix(
    imp: Rung,
    r: u32,
    lanes: usize,
    input: &[u8],
    output: &mut [u8],
) -> Result<(), Error> {
    let imp = imp.require()?;
    if !imp.lane_widths().contains(&lanes) {
        return Err(Error::KdfParameter {
            kdf: "scrypt",
            parameter: "lanes",
            value: lanes as u64,
            expected: format!("one of {:?} for {imp}", imp.lane_widths()),
        });
    }
    check_lanes(input.len(), r, Some(lanes))?;
    check_lanes(output.len(), r, Some(lanes))?;
    let layout = imp.group(lanes).0;
    let (subs, _) = input.as_chunks::<64>();
    let input: Vec<Block> = subs.iter().map(|s| layout.load(s)).collect();
    let mut mixed = vec![Block([0; 16]); input.len()];
    match (imp, lanes) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of the x86-64 baseline.
        (Rung::Sse2, _) => unsafe { sse2::block_mix_lanes(&input, &mut mixed) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: this rung passed `require()`, so the CPU has AVX2.
        (Rung::Avx2, 4) => unsafe { avx2::four::block_mix_lanes(&input, &mut mixed) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: this rung passed `require()`, so the CPU has AVX2.
        (Rung::Avx2, _) => unsafe { avx2::two::block_mix_lanes(&input, &mut mixed) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: this rung passed `require()`, so the CPU has AVX-512F and VL.
        (Rung::Avx512, 4) => unsafe { avx512::four::block_mix_lanes(&input, &mut mixed) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        (Rung::Avx512, 2) => unsafe { avx512::two::block_mix_lanes(&input, &mut mixed) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        (Rung::Avx512, _) => unsafe { avx512::one::block_mix_lanes(&input, &mut mixed) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: this rung passed `require()`, so the CPU has NEON.
        (Rung::Neon, _) => unsafe { neon::block_mix_lanes(&input, &mut mixed) },
        (Rung::ScalarFused, _) => scalar_fused::block_mix_lanes(&input, &mut mixed),
        _ => scalar::block_mix(&input, &mut mixed),
    }
    let (subs, _) = output.as_chunks_mut::<64>();
    for (sub, block) in subs.iter_mut().zip(&mixed) {
        layout.store(block, sub);
    }
    Ok(())
}

/// scryptROMix (RFC 7914 §5) with `N = 2^log_n` of every lane of `b`
/// (lanes of 128·`r` bytes) in place, on the rung `imp` and its dispatch
/// of lanes, as [`scrypt`] runs it: for the tests of RFC 7914 §10.
///
/// # Errors
///
/// As [`scrypt`]; [`Error::KdfParameter`] when `b` is not whole lanes.
#[cfg_attr(docsrs, doc(cfg(feature = "hazmat")))]
pub fn ro_mix_lanes(imp: Rung, r: u32, log_n: u8, b: &mut [u8]) -> Result<(), Error> {
    let imp = imp.require()?;
    check_lanes(b.len(), r, None)?;
    let p = u32::try_from(b.len() / (128 * r as usize)).unwrap_or(u32::MAX);
    let n = check(log_n, r, p, 0)?;
    ro_mix(imp, 2 * r as usize, n, b, &mut RoMixMemory::default())
}
