//! Magma's entry in the table of ladders: the block cipher, the modes of
//! GOST R 34.13-2015 under the names of OpenSSL's GOST engine (`magma-cbc`,
//! `magma-ctr`) and ours where it has none (`magma-ecb`, `magma-ofb` and
//! `magma-cfb` with the standard's two-block IV of A.2; CBC, OFB and CFB
//! take an IV register of any whole number of blocks), CTR-ACPKM
//! (`magma-ctr-acpkm`, RFC 8645, the engine's 1 KiB sections), the MAC
//! (`magma-mac`, OMAC as §5.6, the engine's 64 bits) and MGM (RFC 9058).

use super::{
    BLOCK_LEN, CTR_ACPKM_SECTION_LEN, Rung, KEY_LEN, Magma, MagmaCtrAcpkm, MagmaMac, MagmaMgm,
};
use crate::Error;
use crate::block::dynamic::{KeyStreamMode, ModeKind, construct};
use crate::dynamic::{DynAead, DynDigest, DynMode, MacOptions, ModeOptions, exact};
use crate::table::{Construct, Kind, Ladder, Primitive, Rungs, rung_infos};
use crate::xor::InOut;

/// A primitive of the Magma ladder.
const fn entry(
    name: &'static str,
    kind: Kind,
    summary: &'static str,
    nonce_len: Option<usize>,
    output_len: Option<usize>,
    construct: Construct,
) -> Primitive {
    Primitive {
        nonce_len,
        output_len,
        ..Primitive::block(name, kind, summary, &[KEY_LEN], BLOCK_LEN, construct)
    }
}

/// Magma (GOST R 34.12-2015) on every rung of GOST 28147-89.
pub(crate) const LADDER: Ladder = Ladder {
    name: "magma",
    primitives: &[
        entry(
            "magma",
            Kind::BlockCipher,
            "Magma (GOST R 34.12-2015, RFC 8891), 64-bit blocks",
            None,
            None,
            Construct::TypeOnly,
        ),
        entry(
            "magma-ecb",
            Kind::Mode,
            "Magma in ECB mode (GOST R 34.13-2015 §5.1), PKCS#7 padding",
            None,
            None,
            Construct::mode(|k, iv, o| construct::<Magma>(ModeKind::Ecb, k, iv, o)),
        ),
        entry(
            "magma-cbc",
            Kind::Mode,
            "Magma in CBC mode (GOST R 34.13-2015 §5.4, m = n), PKCS#7 padding, as gost-engine's",
            Some(BLOCK_LEN),
            None,
            Construct::mode(|k, iv, o| construct::<Magma>(ModeKind::Cbc, k, iv, o)),
        )
        .iv_register(),
        entry(
            "magma-ctr",
            Kind::Mode,
            "Magma in CTR mode (GOST R 34.13-2015 §5.2): a 32-bit IV, 2^32 blocks at most",
            Some(BLOCK_LEN / 2),
            None,
            Construct::mode(|k, iv, o| construct::<Magma>(ModeKind::CtrHalf, k, iv, o)),
        ),
        entry(
            "magma-ctr-acpkm",
            Kind::Mode,
            "Magma in CTR-ACPKM (RFC 8645 §6.2.2): CTR re-keyed every 1 KiB section, as gost-engine's",
            Some(BLOCK_LEN / 2),
            None,
            Construct::mode(ctr_acpkm),
        ),
        entry(
            "magma-ofb",
            Kind::Mode,
            "Magma in OFB mode (GOST R 34.13-2015 §5.3, m = 2n, s = n)",
            Some(2 * BLOCK_LEN),
            None,
            Construct::mode(|k, iv, o| construct::<Magma>(ModeKind::Ofb, k, iv, o)),
        )
        .iv_register(),
        entry(
            "magma-cfb",
            Kind::Mode,
            "Magma in CFB mode (GOST R 34.13-2015 §5.5, m = 2n, s = n)",
            Some(2 * BLOCK_LEN),
            None,
            Construct::mode(|k, iv, o| construct::<Magma>(ModeKind::Cfb, k, iv, o)),
        )
        .iv_register(),
        entry(
            "magma-mac",
            Kind::Mac,
            "Magma MAC (GOST R 34.13-2015 §5.6, OMAC), 64 bits as gost-engine's magma-mac",
            None,
            Some(BLOCK_LEN),
            Construct::mac(mac),
        ),
        Primitive::aead(
            "magma-mgm",
            "Magma in MGM (RFC 9058): a 64-bit nonce (first bit 0), ciphertext ‖ 64-bit tag",
            super::MGM_NONCE_LEN,
            true,
            mgm,
        )
        .tag_len(super::MGM_TAG_LEN),
    ],
    rungs: Rungs::Own(|| rung_infos(Rung::best(), Rung::par_blocks)),
    #[cfg(feature = "kit")]
    checks: super::checks::run,
    #[cfg(feature = "kit")]
    fuzz: super::checks::fuzz,
};

/// CTR-ACPKM with gost-engine's section of 1 KiB, seekable, so cut
/// across threads.
fn ctr_acpkm(key: &[u8], iv: &[u8], options: &ModeOptions<'_>) -> Result<Box<dyn DynMode>, Error> {
    let mut magma = Magma::new(exact("magma-ctr-acpkm", "key", key)?);
    if let Some(name) = options.rung {
        magma = magma.with_rung(name.parse()?)?;
    }
    let iv = exact("magma-ctr-acpkm", "IV", iv)?;
    let ctr = MagmaCtrAcpkm::from_cipher(magma, iv, CTR_ACPKM_SECTION_LEN)?;
    let imp = ctr.rung().name();
    Ok(Box::new(KeyStreamMode::new(ctr, imp)))
}

/// The MAC under `key`, on the rung `options` names.
fn mac(key: &[u8], options: &MacOptions<'_>) -> Result<Box<dyn DynDigest>, Error> {
    let mut magma = Magma::new(exact("magma-mac", "key", key)?);
    if let Some(name) = options.rung {
        magma = magma.with_rung(name.parse()?)?;
    }
    Ok(Box::new(MagmaMac::from_cipher(magma)))
}

/// MGM under `key`.
fn mgm(key: &[u8]) -> Result<Box<dyn DynAead>, Error> {
    Ok(Box::new(MagmaMgm::new(exact("magma-mgm", "key", key)?)))
}

impl DynAead for MagmaMgm {
    fn tag_len(&self) -> usize {
        super::MGM_TAG_LEN
    }

    fn encrypt_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        data: &mut [u8],
        tag: &mut [u8],
    ) -> Result<(), Error> {
        let nonce = exact("magma-mgm", "nonce", nonce)?;
        let tag: &mut [u8; super::MGM_TAG_LEN] =
            crate::dynamic::exact_mut("magma-mgm", "tag", tag)?;
        *tag = self.seal_inout(nonce, aad, InOut::in_place(data))?;
        Ok(())
    }

    fn decrypt_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        data: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        let nonce = exact("magma-mgm", "nonce", nonce)?;
        let tag = exact("magma-mgm", "tag", tag)?;
        self.open_inout(nonce, aad, InOut::in_place(data), tag)
    }

    fn decrypt_detached_into(
        &self,
        nonce: &[u8],
        aad: &[u8],
        input: &[u8],
        output: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        let nonce = exact("magma-mgm", "nonce", nonce)?;
        let tag = exact("magma-mgm", "tag", tag)?;
        self.open_inout(nonce, aad, InOut::apart(input, output)?, tag)
    }
}
