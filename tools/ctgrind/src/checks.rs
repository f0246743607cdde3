//! The gated part: every constant-time rung this CPU runs (as valgrind
//! presents it), taken from the table of ladders at run time, with its
//! secrets marked undefined, over every length of [`LENGTHS`]; then the
//! constructions over the rungs (the AEADs' seal and open, the MACs'
//! verification, the KDFs) and the age paths that are ours.
//!
//! The secrets are the keys, the plaintexts, the passwords and the MAC keys.
//! Nonces, IVs and associated data are public — they travel beside the
//! ciphertext, and no rung claims to hide them — so they stay defined: a
//! branch on a nonce (AES-CTR's counter-carry check, MGM's check of the
//! nonce's first bit) is not a finding.
//!
//! Each computation runs first on defined inputs on the primitive's
//! default rung, then on poisoned copies of the secret inputs on the rung
//! under check; the output, declassified, must equal the first. At the end
//! every rung the table marks constant-time and available must have run a
//! primitive, and every primitive of the table that can be built by name
//! (or has a typed path here) must have run.

use simdcrypt::ct;
use simdcrypt::dynamic::{Direction, MacOptions, ModeOptions, Padding, StreamOptions};
use simdcrypt::kit::Rng;
use simdcrypt::ladder::{Construct, Kind, Ladder, Primitive, RungInfo};

use crate::coverage::{Coverage, LENGTHS, SEED, poisoned, public, same};

/// Runs the part: its failures.
pub fn run() -> Vec<String> {
    let mut cov = Coverage::default();
    let mut rng = Rng::new(SEED);
    println!("ladders and rungs (constant-time and available here):");
    for ladder in simdcrypt::ladders() {
        let rungs = ladder.rungs();
        if rungs.is_empty() {
            // A composed ladder: its primitives on the default rungs.
            for primitive in ladder.primitives {
                by_name(&mut cov, &mut rng, ladder, primitive, None);
            }
            continue;
        }
        for rung in rungs.iter().filter(|r| r.available && r.constant_time) {
            for primitive in ladder.primitives {
                by_name(&mut cov, &mut rng, ladder, primitive, Some(rung));
            }
        }
    }
    typed(&mut cov, &mut rng);
    crate::age::run(&mut cov, &mut rng);
    summary(cov)
}

/// Runs the variable-time part, the registry's own positive control:
/// every rung the table marks *not* constant-time that this CPU runs,
/// through the same code as the gated part ([`by_name`]), must be
/// flagged by memcheck. It shows that the secrets the gated part poisons
/// reach the rungs, and that the table's variable-time marks are real.
/// Its failures: a variable-time rung memcheck did not flag, or none run.
pub fn run_variable_time() -> Vec<String> {
    let mut failures = Vec::new();
    let mut rng = Rng::new(SEED);
    let mut flagged = 0;
    for ladder in simdcrypt::ladders() {
        for rung in ladder.rungs() {
            if !rung.available || rung.constant_time {
                continue;
            }
            let mut cov = Coverage {
                quiet: true,
                ..Coverage::default()
            };
            for primitive in ladder.primitives {
                by_name(&mut cov, &mut rng, ladder, primitive, Some(&rung));
            }
            let ran: Vec<_> = cov.primitives.iter().copied().collect();
            let hits = cov.flagged.len();
            println!(
                "  {}/{}: {hits} of {} pieces flagged ({})",
                ladder.name,
                rung.name,
                cov.pieces,
                ran.join(", ")
            );
            failures.extend(cov.failures);
            if hits == 0 {
                failures.push(format!(
                    "{}/{} is marked variable-time and memcheck flagged none of its {} pieces",
                    ladder.name, rung.name, cov.pieces
                ));
            } else {
                flagged += 1;
            }
        }
    }
    if flagged == 0 {
        failures.push("no variable-time rung ran".to_owned());
    }
    if failures.is_empty() {
        println!("{VARIABLE_TIME_DONE} ({flagged} rungs)");
    }
    failures
}

/// The line the variable-time part prints when every variable-time rung
/// was flagged: the driver requires it, since memcheck's exit status (1,
/// errors found) hides the part's own.
pub const VARIABLE_TIME_DONE: &str = "ctgrind: every variable-time rung flagged";

/// The start of the gated part's closing line, which the driver repeats
/// in its summary.
pub const CHECK_SUMMARY: &str = "ctgrind: checked";

/// Runs `primitive` as the table builds it by name, on `rung` (the
/// default when `None`): every kind that can be built so.
fn by_name(
    cov: &mut Coverage,
    rng: &mut Rng,
    ladder: &'static Ladder,
    primitive: &'static Primitive,
    rung: Option<&RungInfo>,
) {
    let name = rung.map(|r| r.name);
    let label = |len: usize| {
        format!(
            "{} on {}/{}, {len} bytes",
            primitive.name,
            ladder.name,
            name.unwrap_or("default")
        )
    };
    let ran = match primitive.construct {
        Construct::Stream(_) => {
            for &len in LENGTHS {
                cov.piece(&label(len), || stream(rng, primitive, name, len));
            }
            true
        }
        Construct::Mode(_) => {
            for &len in LENGTHS {
                cov.piece(&label(len), || mode(rng, primitive, name, len));
            }
            true
        }
        Construct::Mac(_) => {
            for &len in LENGTHS {
                cov.piece(&label(len), || mac(rng, primitive, name, len));
            }
            true
        }
        Construct::Hash(new) => {
            for &len in LENGTHS {
                cov.piece(&label(len), || hash(rng, primitive, new, name, len));
            }
            true
        }
        Construct::Many { new, .. } => {
            cov.piece(&label(0), || many(rng, primitive, new, name));
            true
        }
        // An AEAD has no rung to choose: it runs once, on its default
        // rungs (the typed checks below run AES-GCM's on every pair).
        Construct::Aead {
            new,
            associated_data,
        } if rung.is_none_or(|r| r.chosen) => {
            for &len in LENGTHS {
                cov.piece(&label(len), || {
                    aead(rng, primitive, new, associated_data, len)
                });
            }
            true
        }
        _ => false,
    };
    if ran {
        cov.ran(ladder.name, name.unwrap_or("(composed)"), primitive.name);
    }
}

/// The key lengths to run a primitive on: its first (and, for a MAC over
/// any key, one longer than a hash block).
fn key_lens(primitive: &Primitive) -> Vec<usize> {
    match primitive.key_lens.first() {
        Some(&len) => vec![len],
        None => vec![32, 200],
    }
}

/// Checks that a boxed primitive runs on the rung asked for.
fn on_rung(asked: Option<&str>, got: &str) -> Result<(), String> {
    match asked {
        Some(asked) if asked != got => Err(format!("built on {got}, not {asked}")),
        _ => Ok(()),
    }
}

/// A stream cipher: the keystream XORed into a message, in two calls
/// (a partial block, then the rest).
fn stream(rng: &mut Rng, p: &Primitive, rung: Option<&str>, len: usize) -> Result<(), String> {
    let key = rng.bytes(key_lens(p)[0]);
    let nonce = rng.bytes(p.nonce_len.unwrap_or(0));
    let message = rng.bytes(len);
    let run = |key: &[u8], nonce: &[u8], message: &[u8], rung: Option<&str>| {
        let options = StreamOptions {
            rung,
            ..Default::default()
        };
        let mut cipher = p
            .new_stream(key, nonce, &options)
            .map_err(|e| e.to_string())?;
        on_rung(rung, cipher.rung())?;
        let mut data = message.to_vec();
        let cut = data.len().min(13);
        let (head, tail) = data.split_at_mut(cut);
        cipher.apply_keystream(head).map_err(|e| e.to_string())?;
        cipher.apply_keystream(tail).map_err(|e| e.to_string())?;
        Ok::<_, String>(data)
    };
    let want = run(&key, &nonce, &message, None)?;
    let got = run(&poisoned(&key), &nonce, &poisoned(&message), rung)?;
    same("the ciphertext", &public(&got), &want)
}

/// A block-cipher mode: encrypted, decrypted, and (for a padded mode)
/// decrypted again with its last byte changed, so that the padding check
/// fails; with PKCS#7 padding and, where the mode pads, GOST's procedure 2.
fn mode(rng: &mut Rng, p: &Primitive, rung: Option<&str>, len: usize) -> Result<(), String> {
    let key = rng.bytes(key_lens(p)[0]);
    let iv = rng.bytes(p.nonce_len.unwrap_or(0));
    let message = rng.bytes(len);
    for padding in [Padding::Pkcs7, Padding::GostOneZeros] {
        let run = |key: &[u8], iv: &[u8], input: &[u8], direction, rung: Option<&str>| {
            let options = ModeOptions {
                direction,
                padding,
                rung,
                ..Default::default()
            };
            let mut mode = p.new_mode(key, iv, &options).map_err(|e| e.to_string())?;
            on_rung(rung, mode.rung())?;
            let mut out = vec![0; input.len() + 2 * p.block_len];
            let n = mode.update(input, &mut out);
            // The verdict of a padding check is declassified by the
            // library; the match on it here is on a defined value.
            let n = n.and_then(|n| Ok(n + mode.finalize(&mut out[n..])?));
            Ok::<_, String>(n.map(|n| {
                out.truncate(n);
                out
            }))
        };
        let want = run(&key, &iv, &message, Direction::Encrypt, None)?
            .map_err(|e| format!("encrypting: {e}"))?;
        let key = poisoned(&key);
        let sealed = run(&key, &iv, &poisoned(&message), Direction::Encrypt, rung)?
            .map_err(|e| format!("encrypting: {e}"))?;
        same("the ciphertext", &public(&sealed), &want)?;
        let opened = run(&key, &iv, &sealed, Direction::Decrypt, rung)?
            .map_err(|e| format!("decrypting: {e}"))?;
        same("the decryption", &public(&opened), &message)?;
        let padded = want.len() != message.len();
        if !padded {
            // Not a padded mode: the other padding changes nothing.
            break;
        }
        let mut tampered = sealed.clone();
        if let Some(last) = tampered.last_mut() {
            *last ^= 0x5a;
        }
        // Ok or a padding error, whichever the changed block decrypts to.
        let _ = run(&key, &iv, &tampered, Direction::Decrypt, rung)?;
    }
    Ok(())
}

/// A MAC: the tag of a message absorbed in two calls.
fn mac(rng: &mut Rng, p: &Primitive, rung: Option<&str>, len: usize) -> Result<(), String> {
    for key_len in key_lens(p) {
        let key = rng.bytes(key_len);
        let message = rng.bytes(len);
        let out_len = p.output_len.unwrap_or(16);
        let run = |key: &[u8], message: &[u8], rung: Option<&str>| {
            let options = MacOptions {
                rung,
                ..Default::default()
            };
            let mut mac = p.new_mac(key, &options).map_err(|e| e.to_string())?;
            on_rung(rung, mac.rung())?;
            let (head, tail) = message.split_at(message.len() / 3);
            mac.update(head);
            mac.update(tail);
            let mut tag = vec![0; out_len];
            mac.finalize_into(&mut tag);
            Ok::<_, String>(tag)
        };
        let want = run(&key, &message, None)?;
        let got = run(&poisoned(&key), &poisoned(&message), rung)?;
        same("the tag", &public(&got), &want)?;
    }
    Ok(())
}

/// A hash of a secret message, absorbed in two calls.
fn hash(
    rng: &mut Rng,
    p: &Primitive,
    new: simdcrypt::dynamic::HashConstructor,
    rung: Option<&str>,
    len: usize,
) -> Result<(), String> {
    let message = rng.bytes(len);
    let run = |message: &[u8], rung: Option<&str>| {
        let mut hash = new(rung).map_err(|e| e.to_string())?;
        on_rung(rung, hash.rung())?;
        let (head, tail) = message.split_at(message.len() / 2);
        hash.update(head);
        hash.update(tail);
        let mut digest = vec![0; p.output_len.unwrap_or(32)];
        hash.finalize_into(&mut digest);
        Ok::<_, String>(digest)
    };
    let want = run(&message, None)?;
    let got = run(&poisoned(&message), rung)?;
    same("the digest", &public(&got), &want)
}

/// Many secret messages of several lengths hashed at once.
fn many(
    rng: &mut Rng,
    p: &Primitive,
    new: simdcrypt::dynamic::ManyConstructor,
    rung: Option<&str>,
) -> Result<(), String> {
    let messages: Vec<Vec<u8>> = [
        0, 1, 55, 56, 64, 100, 200, 1000, 3, 17, 2100, 64, 9, 119, 120, 0, 33,
    ]
    .iter()
    .map(|&len| rng.bytes(len))
    .collect();
    let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    let want = new(None, &refs).map_err(|e| e.to_string())?;
    let secret: Vec<Vec<u8>> = messages.iter().map(|m| poisoned(m)).collect();
    let refs: Vec<&[u8]> = secret.iter().map(Vec::as_slice).collect();
    let got = new(rung, &refs).map_err(|e| e.to_string())?;
    if got.len() != want.len() {
        return Err(format!("{} digests, not {}", got.len(), want.len()));
    }
    for (got, want) in got.iter().zip(&want) {
        same(&format!("a digest of {}", p.name), &public(got), want)?;
    }
    Ok(())
}

/// An AEAD: sealed, opened, and opened again with the tag changed (a
/// failed check, which must say so and zero the output).
fn aead(
    rng: &mut Rng,
    p: &Primitive,
    new: simdcrypt::dynamic::AeadConstructor,
    associated_data: bool,
    len: usize,
) -> Result<(), String> {
    let key = rng.bytes(key_lens(p)[0]);
    let mut nonce = rng.bytes(p.nonce_len.unwrap_or(12));
    // MGM's nonce must start with a zero bit (GOST R 34.13-2015 §5.7).
    if let Some(first) = nonce.first_mut() {
        *first &= 0x7f;
    }
    let aad = if associated_data {
        rng.bytes(len % 37)
    } else {
        Vec::new()
    };
    let message = rng.bytes(len);
    let seal = |key: &[u8], nonce: &[u8], message: &[u8]| {
        let aead = new(key).map_err(|e| e.to_string())?;
        let mut data = message.to_vec();
        let mut tag = vec![0; aead.tag_len()];
        aead.encrypt_in_place_detached(nonce, &aad, &mut data, &mut tag)
            .map_err(|e| e.to_string())?;
        Ok::<_, String>((data, tag))
    };
    let (want, want_tag) = seal(&key, &nonce, &message)?;
    let key = poisoned(&key);
    let (sealed, tag) = seal(&key, &nonce, &poisoned(&message))?;
    same("the ciphertext", &public(&sealed), &want)?;
    same("the tag", &public(&tag), &want_tag)?;
    let aead = new(&key).map_err(|e| e.to_string())?;
    let mut data = sealed.clone();
    aead.decrypt_in_place_detached(&nonce, &aad, &mut data, &tag)
        .map_err(|e| format!("opening: {e}"))?;
    same("the opened message", &public(&data), &message)?;
    let mut bad_tag = tag.clone();
    bad_tag[0] ^= 1;
    let mut data = sealed;
    match aead.decrypt_in_place_detached(&nonce, &aad, &mut data, &bad_tag) {
        Err(simdcrypt::Error::AuthenticationFailed) => {}
        other => return Err(format!("a changed tag gave {other:?}")),
    }
    same(
        "the output of a failed open",
        &public(&data),
        &vec![0; data.len()],
    )
}

/// The typed paths the table does not build by name: the MACs'
/// verification, AES-GCM and AES-GCM-SIV on every pair of constant-time
/// rungs, Poly1305's verification on every rung, the KDFs and scrypt's
/// rungs.
fn typed(cov: &mut Coverage, rng: &mut Rng) {
    use simdcrypt::{aes, ghash, poly1305};

    let ct_rungs = |rungs: &'static [aes::Rung]| {
        rungs
            .iter()
            .copied()
            .filter(|r| r.is_available() && r.is_constant_time())
            .collect::<Vec<_>>()
    };
    let aes_rungs = ct_rungs(aes::Rung::ALL);
    let ghash_rungs: Vec<ghash::Rung> = ghash::Rung::ALL
        .iter()
        .copied()
        .filter(|r| r.is_available() && r.is_constant_time())
        .collect();
    for &a in &aes_rungs {
        for &g in &ghash_rungs {
            for &len in &[0, 17, 300, 2100] {
                cov.piece(
                    &format!("aes-128-gcm on aes/{a} and ghash/{g}, {len} bytes"),
                    || gcm(rng, a, g, len),
                );
                cov.piece(
                    &format!("aes-256-gcm-siv on aes/{a} and polyval/{g}, {len} bytes"),
                    || gcm_siv(rng, a, g, len),
                );
            }
        }
    }
    for &r in poly1305::Rung::ALL {
        if r.is_available() && r.is_constant_time() {
            for &len in LENGTHS {
                cov.piece(
                    &format!("poly1305 verify on poly1305/{r}, {len} bytes"),
                    || poly1305_verify(rng, r, len),
                );
            }
        }
    }
    for &len in &[0, 1, 64, 65, 300] {
        cov.piece(
            &format!("hmac-sha256 and hmac-sha512 verify, {len} bytes"),
            || hmac_verify(rng, len),
        );
        cov.piece(
            &format!("aes-cmac, magma-mac and gost-mac verify, {len} bytes"),
            || cmac_verify(rng, len),
        );
    }
    for &len in &[0, 16, 32, 100] {
        cov.piece(
            &format!("hkdf-sha256, hkdf-sha512, pbkdf2-sha256 of a {len}-byte secret"),
            || kdfs(rng, len),
        );
    }
    for p in ["hkdf-sha256", "hkdf-sha512", "pbkdf2-sha256"] {
        cov.ran("kdf", "(composed)", p);
    }
    crate::checks::scrypt(cov, rng);
}

/// An AES-GCM-family AEAD (`$aead`, keys of `$key_len` bytes) on the
/// rungs `a` and `g`, key and message secret: sealed, opened, and opened
/// with byte `$flip` of the sealed message changed (`$what`).
macro_rules! aead_case {
    ($(#[$doc:meta])* $name:ident, $aead:ty, $key_len:literal, $flip:expr, $what:literal) => {
        $(#[$doc])*
        fn $name(
            rng: &mut Rng,
            a: simdcrypt::aes::Rung,
            g: simdcrypt::ghash::Rung,
            len: usize,
        ) -> Result<(), String> {
            let key: [u8; $key_len] = rng.array();
            let nonce: [u8; 12] = rng.array();
            let (aad, message) = (rng.bytes(len % 23), rng.bytes(len));
            let want = <$aead>::new(&key).encrypt(&nonce, &aad, &message);
            let mut key = key;
            ct::poison(&mut key);
            let aead = <$aead>::new(&key)
                .with_rung(a, g)
                .map_err(|e| e.to_string())?;
            let sealed = aead.encrypt(&nonce, &aad, &poisoned(&message));
            same("the sealed message", &public(&sealed), &want)?;
            let opened = aead
                .decrypt(&nonce, &aad, &sealed)
                .map_err(|e| e.to_string())?;
            same("the opened message", &public(&opened), &message)?;
            let mut bad = sealed;
            let at: fn(usize) -> usize = $flip;
            let i = at(bad.len());
            bad[i] ^= 1;
            match aead.decrypt(&nonce, &aad, &bad) {
                Err(simdcrypt::Error::AuthenticationFailed) => Ok(()),
                other => Err(format!(concat!("a changed ", $what, " gave {:?}"), other.map(|m| m.len()))),
            }
        }
    };
}

aead_case!(
    /// AES-128-GCM, its tag's last byte changed.
    gcm,
    simdcrypt::aead::Aes128Gcm,
    16,
    |len| len - 1,
    "tag"
);
aead_case!(
    /// AES-256-GCM-SIV, its first byte changed.
    gcm_siv,
    simdcrypt::aead::Aes256GcmSiv,
    32,
    |_| 0,
    "ciphertext"
);

/// Poly1305 on rung `r`: the right tag verifies, a changed one does not.
fn poly1305_verify(rng: &mut Rng, r: simdcrypt::poly1305::Rung, len: usize) -> Result<(), String> {
    use simdcrypt::poly1305::Poly1305;
    let key: [u8; 32] = rng.array();
    let message = rng.bytes(len);
    let mut mac = Poly1305::new(&key);
    mac.update(&message);
    let tag = mac.finalize();
    let mut secret_key = key;
    ct::poison(&mut secret_key);
    let secret_message = poisoned(&message);
    let check = |tag: &[u8; 16]| {
        let mut mac = Poly1305::new(&secret_key)
            .with_rung(r)
            .map_err(|e| e.to_string())?;
        mac.update(&secret_message);
        Ok::<_, String>(mac.verify(tag).is_ok())
    };
    let mut bad = tag;
    bad[15] ^= 0x80;
    match (check(&tag)?, check(&bad)?) {
        (true, false) => Ok(()),
        verdicts => Err(format!("verdicts {verdicts:?} (right tag, changed tag)")),
    }
}

/// HMAC-SHA-256 and HMAC-SHA-512 under secret keys (short and longer
/// than a block): whole and truncated tags verify, changed ones do not.
fn hmac_verify(rng: &mut Rng, len: usize) -> Result<(), String> {
    use simdcrypt::hash::{Sha256, Sha512};
    use simdcrypt::hmac::Hmac;
    for key_len in [32, 200] {
        let key = rng.bytes(key_len);
        let message = rng.bytes(len);
        let (secret_key, secret_message) = (poisoned(&key), poisoned(&message));
        let mut mac = Hmac::<Sha256>::new(&key);
        mac.update(&message);
        let tag = mac.finalize();
        let keyed = || {
            let mut mac = Hmac::<Sha256>::new(&secret_key);
            mac.update(&secret_message);
            mac
        };
        let mut bad = tag;
        bad[31] ^= 1;
        let verdicts = (
            keyed().verify(&tag).is_ok(),
            keyed().verify(&bad).is_ok(),
            keyed().verify_truncated(&tag[..16]).is_ok(),
            keyed().verify_truncated(&bad[..31]).is_ok(),
        );
        if verdicts != (true, false, true, true) {
            return Err(format!("HMAC-SHA-256 verdicts {verdicts:?}"));
        }
        let mut mac = Hmac::<Sha512>::new(&key);
        mac.update(&message);
        let tag = mac.finalize();
        let mut bad = tag;
        bad[0] ^= 1;
        let keyed = || {
            let mut mac = Hmac::<Sha512>::new(&secret_key);
            mac.update(&secret_message);
            mac
        };
        if (keyed().verify(&tag).is_ok(), keyed().verify(&bad).is_ok()) != (true, false) {
            return Err("HMAC-SHA-512 verdicts".to_owned());
        }
    }
    Ok(())
}

/// CMAC over AES-128 and Magma, and GOST 28147-89's MAC, under secret
/// keys: the right tag verifies, a changed one does not.
fn cmac_verify(rng: &mut Rng, len: usize) -> Result<(), String> {
    use simdcrypt::aes::Aes128Cmac;
    use simdcrypt::gost28147::Gost28147Mac;
    use simdcrypt::magma::MagmaMac;
    let message = rng.bytes(len);
    let secret_message = poisoned(&message);
    macro_rules! check {
        ($mac:ty, $key_len:literal, $what:literal) => {{
            let key: [u8; $key_len] = rng.array();
            let mut mac = <$mac>::new(&key);
            mac.update(&message);
            let tag = mac.finalize();
            let mut secret_key = key;
            ct::poison(&mut secret_key);
            let keyed = || {
                let mut mac = <$mac>::new(&secret_key);
                mac.update(&secret_message);
                mac
            };
            let mut bad = tag;
            bad[0] ^= 1;
            if (keyed().verify(&tag).is_ok(), keyed().verify(&bad).is_ok()) != (true, false) {
                return Err(format!("{} verdicts", $what));
            }
        }};
    }
    check!(Aes128Cmac, 16, "AES-CMAC");
    check!(MagmaMac, 32, "Magma's CMAC");
    check!(Gost28147Mac, 32, "GOST 28147-89's MAC");
    Ok(())
}

/// HKDF-SHA-256 and -SHA-512 of a secret input key, PBKDF2-HMAC-SHA-256
/// of a secret password.
fn kdfs(rng: &mut Rng, len: usize) -> Result<(), String> {
    use simdcrypt::hash::Sha512;
    use simdcrypt::kdf::{Hkdf, hkdf_sha256, pbkdf2_hmac_sha256};
    let ikm = rng.bytes(len);
    let salt = rng.bytes(16);
    let secret_ikm = poisoned(&ikm);
    let (mut want, mut got) = ([0u8; 80], [0u8; 80]);
    let e = |e: simdcrypt::Error| e.to_string();
    hkdf_sha256(&salt, &ikm, b"info", &mut want).map_err(e)?;
    hkdf_sha256(&salt, &secret_ikm, b"info", &mut got).map_err(e)?;
    same("HKDF-SHA-256", &public(&got), &want)?;
    Hkdf::<Sha512>::new(&salt, &ikm)
        .expand(b"info", &mut want)
        .map_err(e)?;
    Hkdf::<Sha512>::new(&salt, &secret_ikm)
        .expand(b"info", &mut got)
        .map_err(e)?;
    same("HKDF-SHA-512", &public(&got), &want)?;
    pbkdf2_hmac_sha256(&ikm, &salt, 3, &mut want).map_err(e)?;
    pbkdf2_hmac_sha256(&secret_ikm, &salt, 3, &mut got).map_err(e)?;
    same("PBKDF2-HMAC-SHA-256", &public(&got), &want)
}

/// scrypt on each of its constant-time rungs this CPU runs, of a secret
/// password, with parallelism 1 and 5 (a full set of lanes and one more).
/// Its reads of V at an index computed from the secret state are
/// inherent to scrypt (RFC 7914 §5, step 3 of ROMix: memory-hardness is
/// those reads): the library declassifies that index, and only that.
pub fn scrypt(cov: &mut Coverage, rng: &mut Rng) {
    use simdcrypt::kdf::Scrypt;
    use simdcrypt::kdf::scrypt::Rung;
    for &rung in Rung::ALL {
        if !(rung.is_available() && rung.is_constant_time()) {
            continue;
        }
        for (log_n, r, p) in [(4, 1, 1), (5, 2, 5)] {
            cov.piece(
                &format!("scrypt on scrypt/{rung}, N = 2^{log_n}, r = {r}, p = {p}"),
                || {
                    let password = rng.bytes(13);
                    let salt = rng.bytes(16);
                    let (mut want, mut got) = ([0u8; 40], [0u8; 40]);
                    let e = |e: simdcrypt::Error| e.to_string();
                    Scrypt::new(log_n, r, p)
                        .map_err(e)?
                        .derive(&password, &salt, &mut want)
                        .map_err(e)?;
                    let mut scrypt = Scrypt::new(log_n, r, p)
                        .map_err(e)?
                        .with_rung(rung)
                        .map_err(e)?;
                    scrypt
                        .derive(&poisoned(&password), &salt, &mut got)
                        .map_err(e)?;
                    same("scrypt's key", &public(&got), &want)
                },
            );
        }
        cov.ran("scrypt", rung.name(), "scrypt");
    }
}

/// The rungs and primitives that went unchecked, the rungs valgrind cannot
/// run, and the verdict: the part's failures.
fn summary(cov: Coverage) -> Vec<String> {
    let mut failures = cov.failures;
    println!();
    println!("checked under memcheck ({} pieces):", cov.pieces);
    for ((ladder, rung), primitives) in &cov.rungs {
        let names: Vec<_> = primitives.iter().copied().collect();
        println!("  {ladder}/{rung}: {}", names.join(", "));
    }
    let mut unrunnable = Vec::new();
    for ladder in simdcrypt::ladders() {
        for rung in ladder.rungs() {
            if !rung.constant_time {
                continue;
            }
            if !rung.available {
                unrunnable.push(format!(
                    "{}/{} (needs {})",
                    ladder.name, rung.name, rung.needs
                ));
            } else if !cov.rungs.contains_key(&(ladder.name, rung.name)) {
                failures.push(format!(
                    "{}/{} is constant-time and available here, and went unchecked",
                    ladder.name, rung.name
                ));
            }
        }
        for primitive in ladder.primitives {
            // A block cipher runs through its modes, HSalsa20 and
            // HChaCha20 through the extended-nonce ciphers.
            let reached = matches!(primitive.kind, Kind::BlockCipher | Kind::Core);
            if !reached && !cov.primitives.contains(primitive.name) {
                failures.push(format!(
                    "{} (ladder {}) went unchecked",
                    primitive.name, ladder.name
                ));
            }
        }
    }
    println!();
    if simdcrypt::ct::running_on_valgrind() {
        println!("constant-time rungs this CPU (as valgrind presents it) does not run:");
    } else {
        println!("constant-time rungs this CPU does not run:");
    }
    for rung in &unrunnable {
        println!("  {rung}");
    }
    let gcm = simdcrypt::aead::Aes128Gcm::new(&[0; 16]).rung();
    println!(
        "AES-GCM's default path here: aes/{} with ghash/{}{}",
        gcm.0,
        gcm.1,
        if gcm.2 {
            ", through the stitched VAES kernel"
        } else {
            " (not the stitched VAES kernel)"
        }
    );
    if !cov.flagged.is_empty() {
        failures.push(format!("memcheck flagged {} piece(s)", cov.flagged.len()));
    }
    let own_rungs = cov
        .rungs
        .keys()
        .filter(|(_, rung)| !rung.starts_with('('))
        .count();
    println!(
        "{CHECK_SUMMARY} {own_rungs} constant-time rungs and {} composed ladders, {} pieces, \
         {} error(s); {} constant-time rungs valgrind does not run",
        cov.rungs.len() - own_rungs,
        cov.pieces,
        cov.flagged.iter().map(|(_, n)| n).sum::<usize>(),
        unrunnable.len(),
    );
    failures
}
