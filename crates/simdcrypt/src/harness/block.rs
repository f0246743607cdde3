//! The shared checks of a cipher with 16-byte blocks and its modes (ECB,
//! CBC, CFB, OFB, CTR, CMAC), naming no cipher: a mode run through the
//! library's mode layer on one rung ([`run_on`]) in pieces, from an input
//! into an output or in place at any address between guard bytes; the
//! same modes written out from SP 800-38A and SP 800-38B over a
//! family's reference block function ([`oracle`]), which never touches
//! the mode layer, so a fault there shows on every rung, the reference's
//! included; and the random cases, cross-checks, round trips between
//! rungs and the fuzz case built from them. A family implements
//! [`BlockAlgo`] and calls these from its `checks.rs`.

use super::{BLOCK_EDGES, Outcome, Rng, Tally, others};
use crate::block::{BlockCipher, Cbc, Cfb, Cmac, Ctr, Ecb, Ofb};
use crate::{Error, RungSet};

/// Random cases per rung and check.
const CASES: u64 = 160;
/// The longest random message, in bytes: past several widest batches.
const MAX_LEN: u64 = 4200;
/// The guard bytes around an in-place buffer.
const GUARD: u8 = 0x3c;

/// The modes, one row each per rung.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Ecb,
    Cbc,
    Cfb,
    Ofb,
    Ctr,
    Cmac,
}

impl Mode {
    /// Every mode, in the rows' order.
    pub(crate) const ALL: [Mode; 6] = [
        Mode::Ecb,
        Mode::Cbc,
        Mode::Cfb,
        Mode::Ofb,
        Mode::Ctr,
        Mode::Cmac,
    ];

    /// Whether its messages are whole blocks.
    fn whole_blocks(self) -> bool {
        matches!(self, Mode::Ecb | Mode::Cbc)
    }

    /// The directions it runs in: CMAC only computes.
    fn directions(self) -> &'static [bool] {
        if self == Mode::Cmac {
            &[false]
        } else {
            &[false, true]
        }
    }
}

/// What one run of a mode computes: `data` encrypted (or decrypted, or
/// for CMAC its tag), fed in `pieces` (lengths summing to the message's;
/// whole blocks for ECB and CBC), from an input into an output, or with
/// `shift` in place in a buffer `shift` bytes into its allocation between
/// guard bytes that must stay as they are; CTR from byte `seek` of the
/// keystream (`data` then the message from there on).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Run<'a> {
    pub(crate) mode: Mode,
    pub(crate) iv: [u8; 16],
    pub(crate) data: &'a [u8],
    pub(crate) pieces: &'a [usize],
    pub(crate) decrypt: bool,
    pub(crate) shift: Option<usize>,
    pub(crate) seek: u128,
}

/// A block cipher family with 16-byte blocks, as its checks see it.
pub(crate) trait BlockAlgo {
    /// Its rungs.
    type Rung: RungSet;
    /// The key lengths it takes.
    const KEY_LENS: &'static [usize];
    /// `run` through the mode layer on the cipher under `key` (its length
    /// one of [`Self::KEY_LENS`]) on `rung`: [`run_on`] for the key's size.
    fn run(key: &[u8], rung: Self::Rung, run: &Run<'_>) -> Result<Vec<u8>, String>;
    /// The reference cipher under `key` (its schedule computed once): a
    /// block encrypted, or with `true` decrypted.
    fn reference(key: &[u8]) -> impl Fn(&[u8; 16], bool) -> [u8; 16];
}

/// One call of a mode on a piece: from an input into the output, or (no
/// input) in place on the output.
type PieceFn<'a> = dyn FnMut(Option<&[u8]>, &mut [u8]) -> Result<(), Error> + 'a;

/// `run` through the mode layer on `cipher`.
pub(crate) fn run_on<C: BlockCipher<Block = [u8; 16]>>(
    cipher: C,
    run: &Run<'_>,
) -> Result<Vec<u8>, String> {
    let Run {
        mode,
        iv,
        data,
        pieces,
        decrypt,
        shift,
        seek,
    } = *run;
    let start = shift.unwrap_or(0);
    let mut buf = vec![GUARD; start + data.len() + 16];
    if shift.is_some() {
        buf[start..start + data.len()].copy_from_slice(data);
    }
    let e = |e: Error| e.to_string();
    let mut at = 0;
    let mut each = |f: &mut PieceFn<'_>| {
        for &len in pieces {
            let out = &mut buf[start + at..start + at + len];
            let input = shift.is_none().then(|| &data[at..at + len]);
            f(input, out).map_err(e)?;
            at += len;
        }
        Ok::<(), String>(())
    };
    match mode {
        Mode::Ecb => {
            let ecb = Ecb::from_cipher(cipher);
            each(&mut |i, o| match (i, decrypt) {
                (Some(i), true) => ecb.decrypt_into(i, o),
                (Some(i), false) => ecb.encrypt_into(i, o),
                (None, true) => ecb.decrypt(o),
                (None, false) => ecb.encrypt(o),
            })?;
        }
        Mode::Cbc => {
            let mut cbc = Cbc::from_cipher(cipher, &iv);
            each(&mut |i, o| match (i, decrypt) {
                (Some(i), true) => cbc.decrypt_into(i, o),
                (Some(i), false) => cbc.encrypt_into(i, o),
                (None, true) => cbc.decrypt(o),
                (None, false) => cbc.encrypt(o),
            })?;
        }
        Mode::Cfb => {
            let mut cfb = Cfb::from_cipher(cipher, &iv);
            each(&mut |i, o| match (i, decrypt) {
                (Some(i), true) => cfb.decrypt_into(i, o),
                (Some(i), false) => cfb.encrypt_into(i, o),
                (None, true) => {
                    cfb.decrypt(o);
                    Ok(())
                }
                (None, false) => {
                    cfb.encrypt(o);
                    Ok(())
                }
            })?;
        }
        Mode::Ofb => {
            let mut ofb = Ofb::from_cipher(cipher, &iv);
            each(&mut |i, o| match i {
                Some(i) => ofb.xor_into(i, o),
                None => {
                    ofb.apply_keystream(o);
                    Ok(())
                }
            })?;
        }
        Mode::Ctr => {
            let mut ctr = Ctr::from_cipher(cipher, &iv);
            ctr.seek(seek).map_err(e)?;
            each(&mut |i, o| match i {
                Some(i) => ctr.xor_into(i, o),
                None => ctr.apply_keystream(o),
            })?;
        }
        Mode::Cmac => {
            let mut cmac = Cmac::from_cipher(cipher);
            for &len in pieces {
                cmac.update(&data[at..at + len]);
                at += len;
            }
            return Ok(cmac.finalize().to_vec());
        }
    }
    let end = start + data.len();
    if buf[..start].iter().chain(&buf[end..]).any(|&b| b != GUARD) {
        return Err("wrote outside its buffer".to_owned());
    }
    Ok(buf[start..end].to_vec())
}

/// The modes written out from the standards over a reference block
/// function `c(block, decrypt)`.
pub(crate) mod oracle {
    use super::Mode;

    fn xor(a: &[u8; 16], b: &[u8]) -> [u8; 16] {
        std::array::from_fn(|i| a[i] ^ b.get(i).copied().unwrap_or(0))
    }

    /// `data` encrypted (or decrypted) in `mode`, or its CMAC tag; CTR's
    /// keystream from byte `seek` on.
    pub(crate) fn run(
        c: &dyn Fn(&[u8; 16], bool) -> [u8; 16],
        mode: Mode,
        iv: &[u8; 16],
        data: &[u8],
        decrypt: bool,
        seek: u128,
    ) -> Vec<u8> {
        let e = |b: &[u8; 16]| c(b, false);
        let mut out = Vec::with_capacity(data.len());
        let mut register = *iv;
        match mode {
            // SP 800-38A §6.1.
            Mode::Ecb => {
                for block in data.chunks(16) {
                    out.extend(c(&xor(&[0; 16], block), decrypt));
                }
            }
            // §6.2: C_j = CIPH(P_j ⊕ C_{j−1}); P_j = CIPH⁻¹(C_j) ⊕ C_{j−1}.
            Mode::Cbc => {
                for block in data.chunks(16) {
                    let b = xor(&[0; 16], block);
                    if decrypt {
                        out.extend(xor(&c(&b, true), &register));
                        register = b;
                    } else {
                        register = e(&xor(&register, block));
                        out.extend(register);
                    }
                }
            }
            // §6.3 with s = 128: C_j = P_j ⊕ CIPH(C_{j−1}), the last block
            // cut to its length.
            Mode::Cfb => {
                for block in data.chunks(16) {
                    let o = xor(&e(&register), block);
                    out.extend(&o[..block.len()]);
                    register = xor(&[0; 16], if decrypt { block } else { &o[..] });
                }
            }
            // §6.4: O_j = CIPH(O_{j−1}).
            Mode::Ofb => {
                for block in data.chunks(16) {
                    register = e(&register);
                    out.extend(&xor(&register, block)[..block.len()]);
                }
            }
            // §6.5, the counter block the whole 128-bit big-endian
            // integer; the keystream from byte `seek`.
            Mode::Ctr => {
                let t0 = u128::from_be_bytes(*iv);
                let (first, skip) = (seek / 16, (seek % 16) as usize);
                let blocks = (skip + data.len()).div_ceil(16) as u128;
                let keystream: Vec<u8> = (0..blocks)
                    .flat_map(|j| e(&t0.wrapping_add(first + j).to_be_bytes()))
                    .collect();
                out.extend(data.iter().zip(&keystream[skip..]).map(|(d, k)| d ^ k));
            }
            // SP 800-38B §6.1–6.2.
            Mode::Cmac => {
                let dbl = |x: u128| (x << 1) ^ if x >> 127 == 1 { 0x87 } else { 0 };
                let l = u128::from_be_bytes(e(&[0; 16]));
                let (k1, k2) = (dbl(l), dbl(dbl(l)));
                let n = data.len().div_ceil(16).max(1);
                let mut chain = [0u8; 16];
                for block in data.chunks(16).take(n - 1) {
                    chain = e(&xor(&chain, block));
                }
                let last = &data[(n - 1) * 16..];
                let m_n = if last.len() == 16 {
                    u128::from_be_bytes(xor(&[0; 16], last)) ^ k1
                } else {
                    let mut padded = [0u8; 16];
                    padded[..last.len()].copy_from_slice(last);
                    padded[last.len()] = 0x80;
                    u128::from_be_bytes(padded) ^ k2
                };
                out.extend(e(&xor(&chain, &m_n.to_be_bytes())));
            }
        }
        out
    }
}

/// A known answer: under `key` and `iv`, `pt` to `ct` (for CMAC, `ct`
/// the tag of `pt`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Known<'a> {
    pub(crate) name: &'a str,
    pub(crate) key: &'a [u8],
    pub(crate) iv: [u8; 16],
    pub(crate) pt: &'a [u8],
    pub(crate) ct: &'a [u8],
}

/// A known answer on `rung` in `mode`, both ways, in one call and in two
/// pieces split at every block boundary, in place at an odd address.
pub(crate) fn known<A: BlockAlgo>(t: &mut Tally, rung: A::Rung, mode: Mode, v: &Known<'_>) {
    let Known {
        name,
        key,
        iv,
        pt,
        ct,
    } = *v;
    for &decrypt in mode.directions() {
        let (input, want) = if decrypt { (ct, pt) } else { (pt, ct) };
        let run = |pieces: &[usize], shift| {
            let run = Run {
                mode,
                iv,
                data: input,
                pieces,
                decrypt,
                shift,
                seek: 0,
            };
            A::run(key, rung, &run)
        };
        let whole = run(&[input.len()], None);
        t.check(whole.as_deref() == Ok(want), || {
            format!("{name}: decrypt {decrypt}: {whole:02x?}")
        });
        let split = (16..input.len())
            .step_by(16)
            .all(|cut| run(&[cut, input.len() - cut], Some(cut % 16 + 1)).as_deref() == Ok(want));
        t.check(split, || {
            format!("{name}: decrypt {decrypt}, split at a block")
        });
    }
}

/// A random case: key (every size), IV (a quarter of them just below a
/// carry of the low 32 or 64 bits or the 2^128 wrap), message, and
/// pieces (whole blocks for ECB and CBC).
fn case<A: BlockAlgo>(
    mode: Mode,
    rng: &mut Rng,
    max_len: u64,
) -> (Vec<u8>, [u8; 16], Vec<u8>, Vec<usize>) {
    let key_len = A::KEY_LENS[rng.index(A::KEY_LENS.len())];
    let key = rng.bytes(key_len);
    let mut iv: [u8; 16] = rng.array();
    let below = 1 + rng.below(40) as u128;
    match rng.below(8) {
        0 => iv[12..].copy_from_slice(&(u32::MAX - below as u32).to_be_bytes()),
        1 => iv[8..].copy_from_slice(&(u64::MAX - below as u64).to_be_bytes()),
        2 => iv = (u128::MAX - below).to_be_bytes(),
        _ => {}
    }
    let mut len = rng.length(&BLOCK_EDGES, max_len);
    if mode.whole_blocks() {
        len -= len % 16;
    }
    let msg = rng.bytes(len);
    let mut pieces: Vec<usize> = rng.pieces(&msg, 700).iter().map(|p| p.len()).collect();
    if mode.whole_blocks() {
        // Whole blocks only: fold each piece's odd bytes into the next.
        let mut carry = 0;
        for p in &mut pieces {
            let all = *p + carry;
            *p = all - all % 16;
            carry = all % 16;
        }
    }
    (key, iv, msg, pieces)
}

/// One random case drawn from `rng` on `rung` against the oracle, both
/// directions, half of them in place at any address; CTR also from a
/// random byte offset reached by `seek`.
fn check_case<A: BlockAlgo>(
    mode: Mode,
    rung: A::Rung,
    rng: &mut Rng,
    max_len: u64,
    wants: &mut Wants,
    t: &mut Tally,
) {
    let (key, iv, msg, pieces) = case::<A>(mode, rng, max_len);
    let mut want = |decrypt, seek: usize| {
        wants
            .get((decrypt, seek), || {
                oracle::run(
                    &A::reference(&key),
                    mode,
                    &iv,
                    &msg[seek..],
                    decrypt,
                    seek as u128,
                )
            })
            .to_vec()
    };
    for &decrypt in mode.directions() {
        let shift = (rng.below(2) == 0).then(|| rng.index(16));
        let run = Run {
            mode,
            iv,
            data: &msg,
            pieces: &pieces,
            decrypt,
            shift,
            seek: 0,
        };
        let got = A::run(&key, rung, &run);
        t.check(got.as_deref() == Ok(&want(decrypt, 0)[..]), || {
            format!(
                "{mode:?} on {rung}: {}-byte key, iv {:032x}, {} bytes in {} pieces, decrypt {decrypt}, in place at {shift:?}",
                key.len(),
                u128::from_be_bytes(iv),
                msg.len(),
                pieces.len()
            )
        });
    }
    if mode == Mode::Ctr {
        let seek = rng.index(msg.len() + 1);
        let rest = &msg[seek..];
        let run = Run {
            mode,
            iv,
            data: rest,
            pieces: &[rest.len()],
            decrypt: false,
            shift: None,
            seek: seek as u128,
        };
        let got = A::run(&key, rung, &run);
        t.check(got.as_deref() == Ok(&want(false, seek)[..]), || {
            format!("CTR on {rung}: seek to {seek} of {} bytes", msg.len())
        });
    }
}

/// The oracle's outputs for one case, by direction and CTR's seek,
/// computed when first asked for: the fuzz case runs the same case on
/// every rung, and the reference is the slowest of them.
#[derive(Default)]
struct Wants(Vec<((bool, usize), Vec<u8>)>);

impl Wants {
    /// The output for `key`, from `oracle` the first time.
    fn get(&mut self, key: (bool, usize), oracle: impl FnOnce() -> Vec<u8>) -> &[u8] {
        let i = match self.0.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                self.0.push((key, oracle()));
                self.0.len() - 1
            }
        };
        &self.0[i].1
    }
}

/// Random cases on `rung` against the oracle over the reference.
pub(crate) fn cross_check<A: BlockAlgo>(mode: Mode, rung: A::Rung, rng: &mut Rng) -> Tally {
    let mut t = Tally::default();
    for _ in 0..CASES {
        check_case::<A>(mode, rung, rng, MAX_LEN, &mut Wants::default(), &mut t);
    }
    t
}

/// The fuzz case: one mode (picked by the first byte) on a case the
/// fuzzer's bytes steer (up to 1,100 bytes), on every rung, against the
/// oracle (asked once: every rung's case is the same, its generator
/// started afresh from the same bytes).
pub(crate) fn fuzz<A: BlockAlgo>(input: &[u8]) -> Tally {
    let mut wants = Wants::default();
    super::fuzz_rungs(input, &Mode::ALL, |mode, rung: A::Rung, rng, t| {
        check_case::<A>(mode, rung, rng, 1100, &mut wants, t);
    })
}

/// Messages processed on `rung` and undone on every other rung, and the
/// other way round; CMAC tags compared across rungs.
pub(crate) fn round_trips<A: BlockAlgo>(mode: Mode, rung: A::Rung, rng: &mut Rng) -> Outcome {
    let others = others(rung);
    if others.is_empty() {
        return Outcome::Skipped("no other rung available".to_owned());
    }
    let mut t = Tally::default();
    for other in others {
        for (a, b) in [(rung, other), (other, rung)] {
            for i in 0..8 {
                let (key, iv, msg, pieces) = case::<A>(mode, rng, MAX_LEN);
                let run = |data: &[u8], pieces: &[usize], decrypt, shift, on| {
                    let run = Run {
                        mode,
                        iv,
                        data,
                        pieces,
                        decrypt,
                        shift,
                        seek: 0,
                    };
                    A::run(&key, on, &run)
                };
                let sealed = run(&msg, &pieces, false, None, a);
                let ok = match (mode, &sealed) {
                    (Mode::Cmac, Ok(tag)) => {
                        run(&msg, &[msg.len()], false, None, b).as_ref() == Ok(tag)
                    }
                    (_, Ok(sealed)) => {
                        run(sealed, &[sealed.len()], true, Some(1), b).as_deref() == Ok(&msg[..])
                    }
                    (_, Err(_)) => false,
                };
                t.check(ok, || {
                    format!("case {i}: {} bytes on {a}, undone on {b}", msg.len())
                });
            }
        }
    }
    Outcome::Ran(t)
}

/// The end of CTR's keystream on `rung`: the last bytes below 2^128 − 1
/// can be reached and used; one more is refused, not wrapped.
pub(crate) fn keystream_end<C: BlockCipher<Block = [u8; 16]>>(
    cipher: C,
    reference: &dyn Fn(&[u8; 16], bool) -> [u8; 16],
    t: &mut Tally,
) {
    let iv = [0x5a; 16];
    let end = u128::MAX;
    let mut ctr = Ctr::from_cipher(cipher, &iv);
    let seek_ok = ctr.seek(end - 20).is_ok();
    let mut tail = [0u8; 20];
    let last_ok = ctr.apply_keystream(&mut tail).is_ok();
    let mut one = [0u8; 1];
    let refused = ctr.apply_keystream(&mut one).is_err();
    // The keystream itself: the oracle's over the reference, from the same
    // byte.
    let want = oracle::run(reference, Mode::Ctr, &iv, &[0; 20], false, end - 20);
    t.check(
        seek_ok && last_ok && refused && tail[..] == want[..],
        || "the last 20 bytes of the keystream, then a refusal".to_owned(),
    );
}
