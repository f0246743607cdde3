//! GOST 28147-89's entry in the table of ladders: the block cipher, the
//! modes under the names, defaults and padding of OpenSSL's GOST engine
//! (`gost89` CFB, `gost89-cnt`, `gost89-cnt-12`, `gost89-cbc`; ECB as
//! `gost89-ecb`, ours only), and the MACs `gost-mac`, `gost-mac-12`.
//!
//! With `CRYPT_PARAMS` unset the engine takes the S-box set param-Z for
//! `gost89` and `gost89-cbc` (gost-engine's `get_encryption_params`), fixes
//! CryptoPro-A for `gost89-cnt` and `gost-mac` and param-Z for the `-12`
//! names, and meshes the key every KiB in CFB, the counter mode and the
//! MAC, never in CBC (its `gost_cipher_do_cbc` does not).

use super::{BLOCK_LEN, Gost28147, Gost28147Cfb, Gost28147Cnt, Gost28147Mac, Rung, KEY_LEN, SBox};
use crate::Error;
use crate::block::dynamic::{KeyStreamMode, ModeKind, construct_with};
use crate::dynamic::{Direction, DynDigest, DynMode, MacOptions, ModeOptions, Params};
use crate::table::{Construct, Kind, Ladder, Param, ParamKind, Primitive, Rungs, rung_infos};

/// The parameter `sbox` with its default.
const fn sbox(default: &'static str) -> Param {
    Param {
        name: SBOX,
        kind: ParamKind::Value {
            value_name: "NAME",
            check: |name| SBox::from_name(name).map(drop),
        },
        default,
        doc: "the S-box set (--sbox): a short name, an OID or 128 hex digits",
        help: "GOST 28147-89's S-box set: cryptopro-a, cryptopro-b, cryptopro-c, \
               cryptopro-d, test, test-3411, param-z, an OID or its name, or 128 hex digits \
               (K1's 16 outputs first). Default: the cipher's, as OpenSSL's GOST engine has it",
    }
}

/// The name of the parameter `sbox`.
const SBOX: &str = "sbox";
/// The name of the parameter `key-meshing`.
const MESHING: &str = "key-meshing";

/// The parameter `key-meshing`, on by default.
const KEY_MESHING: Param = Param {
    name: MESHING,
    kind: ParamKind::Switch,
    default: "on",
    doc: "CryptoPro key meshing every 1 KiB (RFC 4357 §2.3); --no-key-meshing",
    help: "Turn CryptoPro key meshing (RFC 4357 §2.3) off where the cipher uses it by default",
};

/// A primitive of the GOST 28147-89 ladder.
const fn entry(
    name: &'static str,
    kind: Kind,
    summary: &'static str,
    nonce_len: Option<usize>,
    output_len: Option<usize>,
    params: &'static [Param],
    construct: Construct,
) -> Primitive {
    Primitive {
        nonce_len,
        output_len,
        params,
        ..Primitive::block(name, kind, summary, &[KEY_LEN], BLOCK_LEN, construct)
    }
}

/// GOST 28147-89 (RFC 5830) on every rung.
pub(crate) const LADDER: Ladder = Ladder {
    name: Rung::PRIMITIVE,
    primitives: &[
        entry(
            "gost28147",
            Kind::BlockCipher,
            "GOST 28147-89 (RFC 5830), 64-bit blocks, any S-box set",
            None,
            None,
            &[sbox("cryptopro-a")],
            Construct::TypeOnly,
        ),
        entry(
            "gost89",
            Kind::Mode,
            "GOST 28147-89 gamma with feedback (CFB, RFC 5830 §7) as gost-engine's gost89",
            Some(BLOCK_LEN),
            None,
            &[sbox("param-z"), KEY_MESHING],
            Construct::mode(cfb),
        ),
        entry(
            "gost89-cnt",
            Kind::Mode,
            "GOST 28147-89 counter mode (gamma, RFC 5830 §6) as gost-engine's gost89-cnt",
            Some(BLOCK_LEN),
            None,
            &[sbox("cryptopro-a"), KEY_MESHING],
            Construct::mode(cnt),
        ),
        entry(
            "gost89-cnt-12",
            Kind::Mode,
            "GOST 28147-89 counter mode with param-Z, as gost-engine's gost89-cnt-12",
            Some(BLOCK_LEN),
            None,
            &[sbox("param-z"), KEY_MESHING],
            Construct::mode(cnt),
        ),
        entry(
            "gost89-cbc",
            Kind::Mode,
            "GOST 28147-89 in CBC mode, PKCS#7 padding, as gost-engine's gost89-cbc",
            Some(BLOCK_LEN),
            None,
            &[sbox("param-z")],
            Construct::mode(|k, iv, o| block_mode(ModeKind::Cbc, k, iv, o)),
        ),
        entry(
            "gost89-ecb",
            Kind::Mode,
            "GOST 28147-89 simple replacement (ECB, RFC 5830 §5), PKCS#7 padding",
            None,
            None,
            &[sbox("param-z")],
            Construct::mode(|k, iv, o| block_mode(ModeKind::Ecb, k, iv, o)),
        ),
        entry(
            "gost-mac",
            Kind::Mac,
            "GOST 28147-89 MAC (imitovstavka, RFC 5830 §8), 32 bits, as gost-engine's gost-mac",
            None,
            Some(super::MAC_LEN),
            &[sbox("cryptopro-a"), KEY_MESHING],
            Construct::mac(mac),
        ),
        entry(
            "gost-mac-12",
            Kind::Mac,
            "GOST 28147-89 MAC with param-Z, as gost-engine's gost-mac-12",
            None,
            Some(super::MAC_LEN),
            &[sbox("param-z"), KEY_MESHING],
            Construct::mac(mac),
        ),
    ],
    rungs: Rungs::Own(|| rung_infos(Rung::best(), Rung::par_blocks)),
    #[cfg(feature = "kit")]
    checks: super::checks::run,
    #[cfg(feature = "kit")]
    fuzz: super::checks::fuzz,
};

/// The cipher under `key` with the S-box set `params` name, on the rung
/// `imp` names.
fn keyed(key: &[u8], params: &Params<'_>, imp: Option<&str>) -> Result<Gost28147, Error> {
    let key: &[u8; KEY_LEN] = crate::dynamic::exact("gost28147", "key", key)?;
    let cipher = Gost28147::with_sbox(key, SBox::from_name(params.value(SBOX)?)?);
    match imp {
        Some(name) => cipher.with_rung(name.parse()?),
        None => Ok(cipher),
    }
}

/// ECB and CBC as the block layer has them, with an S-box set and no key
/// meshing (which gost-engine's CBC does not do either).
fn block_mode(
    kind: ModeKind,
    key: &[u8],
    iv: &[u8],
    options: &ModeOptions<'_>,
) -> Result<Box<dyn DynMode>, Error> {
    let cipher = keyed(key, &options.params, None)?;
    construct_with(kind, cipher, iv, options)
}

/// The counter mode, seekable, so cut across threads.
fn cnt(key: &[u8], iv: &[u8], options: &ModeOptions<'_>) -> Result<Box<dyn DynMode>, Error> {
    let cipher = keyed(key, &options.params, options.rung)?;
    let iv = crate::dynamic::exact("gost89-cnt", "IV", iv)?;
    let cnt = Gost28147Cnt::from_cipher(cipher, iv)
        .with_key_meshing(options.params.switch(MESHING)?);
    let imp = cnt.rung().name();
    Ok(Box::new(KeyStreamMode::new(cnt, imp)))
}

/// Gamma with feedback, in the direction `options` give.
fn cfb(key: &[u8], iv: &[u8], options: &ModeOptions<'_>) -> Result<Box<dyn DynMode>, Error> {
    let cipher = keyed(key, &options.params, options.rung)?;
    let iv = crate::dynamic::exact("gost89", "IV", iv)?;
    let cfb = Gost28147Cfb::from_cipher(cipher, iv)
        .with_key_meshing(options.params.switch(MESHING)?);
    Ok(Box::new(CfbMode {
        cfb,
        decrypt: options.direction == Direction::Decrypt,
    }))
}

/// [`Gost28147Cfb`] with its direction, as a [`DynMode`]: a chain, not cut
/// across threads.
struct CfbMode {
    cfb: Gost28147Cfb,
    decrypt: bool,
}

impl DynMode for CfbMode {
    fn update_len(&self, input_len: usize) -> usize {
        input_len
    }

    fn update(&mut self, input: &[u8], output: &mut [u8]) -> Result<usize, Error> {
        let output = crate::dynamic::output_for(input, output)?;
        if self.decrypt {
            self.cfb.decrypt_into(input, output)?;
        } else {
            self.cfb.encrypt_into(input, output)?;
        }
        Ok(input.len())
    }

    fn finalize(self: Box<Self>, _output: &mut [u8]) -> Result<usize, Error> {
        Ok(0)
    }

    fn rung(&self) -> &'static str {
        self.cfb.rung().name()
    }

    fn fork(&self, _skip: &[u8]) -> Option<Box<dyn DynMode>> {
        None
    }

    fn advance(&mut self, _skip: &[u8]) -> bool {
        false
    }
}

/// The MAC under `key`, with the parameters `options` give.
fn mac(key: &[u8], options: &MacOptions<'_>) -> Result<Box<dyn DynDigest>, Error> {
    let cipher = keyed(key, &options.params, options.rung)?;
    let mac = Gost28147Mac::from_cipher(cipher).with_key_meshing(options.params.switch(MESHING)?);
    Ok(Box::new(mac))
}

impl DynDigest for Gost28147Mac {
    fn update(&mut self, data: &[u8]) {
        Gost28147Mac::update(self, data);
    }

    fn finalize_into(self: Box<Self>, out: &mut [u8]) {
        out.copy_from_slice(&Gost28147Mac::finalize(*self));
    }

    fn rung(&self) -> &'static str {
        Gost28147Mac::rung(self).name()
    }
}
