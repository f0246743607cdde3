//! PBKDF2 (RFC 8018 §5.2) with HMAC as its pseudorandom function.

use zeroize::Zeroize;

use crate::Error;
use crate::hash::Hash;
use crate::hmac::Hmac;

/// PBKDF2 with HMAC over `H` (RFC 8018 §5.2): fills `out` (`DK`) with
/// `T_1 ‖ T_2 ‖ …`, where `T_i = U_1 ⊕ … ⊕ U_c`, `U_1 = PRF(P, S ‖ INT(i))`
/// and `U_j = PRF(P, U_{j−1})`. The password is hashed into the HMAC's keyed
/// states once, not once per iteration.
///
/// # Errors
///
/// [`Error::KdfParameter`] when `rounds` (the iteration count `c`) is 0;
/// [`Error::KdfOutputTooLong`] when `out` is longer than
/// (2^32 − 1) · hLen bytes (step 1). Nothing is written then.
///
/// ```
/// use simdcrypt::hash::Sha1;
/// use simdcrypt::kdf::pbkdf2_hmac;
///
/// // RFC 6070, the second vector: PBKDF2-HMAC-SHA-1, 2 iterations.
/// let mut key = [0u8; 20];
/// pbkdf2_hmac::<Sha1>(b"password", b"salt", 2, &mut key)?;
/// let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
/// assert_eq!(hex, "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957");
/// # Ok::<(), simdcrypt::Error>(())
/// ```
pub fn pbkdf2_hmac<H: Hash>(
    password: &[u8],
    salt: &[u8],
    rounds: u32,
    out: &mut [u8],
) -> Result<(), Error> {
    if rounds == 0 {
        return Err(Error::KdfParameter {
            kdf: "PBKDF2",
            parameter: "iteration count c",
            value: 0,
            expected: "a positive integer".to_owned(),
        });
    }
    let max = u64::from(u32::MAX) * H::OUTPUT_LEN as u64;
    if out.len() as u64 > max {
        return Err(Error::KdfOutputTooLong {
            kdf: "PBKDF2",
            len: out.len() as u64,
            max,
        });
    }
    let prf = Hmac::<H>::new(password);
    for (t, i) in out.chunks_mut(H::OUTPUT_LEN).zip(1..=u32::MAX) {
        let mut mac = prf.clone();
        mac.update(salt);
        mac.update(&i.to_be_bytes());
        let mut u = mac.finalize_reset();
        let mut block = u;
        for _ in 1..rounds {
            mac.update(u.as_ref());
            u = mac.finalize_reset();
            block
                .as_mut()
                .iter_mut()
                .zip(u.as_ref())
                .for_each(|(b, u)| *b ^= u);
        }
        t.copy_from_slice(&block.as_ref()[..t.len()]);
        u.as_mut().zeroize();
        block.as_mut().zeroize();
    }
    Ok(())
}
