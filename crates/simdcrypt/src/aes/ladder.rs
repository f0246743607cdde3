//! AES's entry in the table of ladders: the block cipher at each key size,
//! its modes, and CMAC, all on AES's rungs.

use super::{Aes, BLOCK_LEN, Bits128, Bits192, Bits256, Rung, KeySize};
use crate::Error;
use crate::block::Cmac;
use crate::block::dynamic::{ModeKind, construct};
use crate::dynamic::{DynDigest, MacOptions};
use crate::table::{Construct, Kind, Ladder, Primitive, Rungs, rung_infos};

/// A primitive of the AES ladder.
const fn entry(
    name: &'static str,
    kind: Kind,
    summary: &'static str,
    key_lens: &'static [usize],
    nonce_len: Option<usize>,
    output_len: Option<usize>,
    construct: Construct,
) -> Primitive {
    Primitive {
        name,
        display: name,
        kind,
        summary,
        key_lens,
        nonce_len,
        iv_register: false,
        block_len: BLOCK_LEN,
        output_len,
        params: &[],
        construct,
    }
}

/// The block cipher and its modes at one key size.
macro_rules! sized {
    ($bits:literal, $len:literal, $K:ty) => {
        [
            entry(
                concat!("aes-", $bits),
                Kind::BlockCipher,
                concat!("AES-", $bits, " (FIPS 197)"),
                &[$len],
                None,
                None,
                Construct::TypeOnly,
            ),
            entry(
                concat!("aes-", $bits, "-ecb"),
                Kind::Mode,
                concat!(
                    "AES-",
                    $bits,
                    " in ECB mode (SP 800-38A §6.1), PKCS#7 padding"
                ),
                &[$len],
                None,
                None,
                Construct::mode(|k, iv, o| construct::<Aes<$K>>(ModeKind::Ecb, k, iv, o)),
            ),
            entry(
                concat!("aes-", $bits, "-cbc"),
                Kind::Mode,
                concat!(
                    "AES-",
                    $bits,
                    " in CBC mode (SP 800-38A §6.2), PKCS#7 padding"
                ),
                &[$len],
                Some(BLOCK_LEN),
                None,
                Construct::mode(|k, iv, o| construct::<Aes<$K>>(ModeKind::Cbc, k, iv, o)),
            ),
            entry(
                concat!("aes-", $bits, "-cfb"),
                Kind::Mode,
                concat!("AES-", $bits, " in full-block CFB mode (SP 800-38A §6.3)"),
                &[$len],
                Some(BLOCK_LEN),
                None,
                Construct::mode(|k, iv, o| construct::<Aes<$K>>(ModeKind::Cfb, k, iv, o)),
            ),
            entry(
                concat!("aes-", $bits, "-ofb"),
                Kind::Mode,
                concat!("AES-", $bits, " in OFB mode (SP 800-38A §6.4)"),
                &[$len],
                Some(BLOCK_LEN),
                None,
                Construct::mode(|k, iv, o| construct::<Aes<$K>>(ModeKind::Ofb, k, iv, o)),
            ),
            entry(
                concat!("aes-", $bits, "-ctr"),
                Kind::Mode,
                concat!(
                    "AES-",
                    $bits,
                    " in CTR mode (SP 800-38A §6.5): a 128-bit big-endian counter block"
                ),
                &[$len],
                Some(BLOCK_LEN),
                None,
                Construct::mode(|k, iv, o| construct::<Aes<$K>>(ModeKind::Ctr, k, iv, o)),
            ),
        ]
    };
}

const AES_128: [Primitive; 6] = sized!("128", 16, Bits128);
const AES_192: [Primitive; 6] = sized!("192", 24, Bits192);
const AES_256: [Primitive; 6] = sized!("256", 32, Bits256);

/// Every primitive, in the table's order.
const PRIMITIVES: [Primitive; 19] = {
    let mut all = [AES_128[0]; 19];
    let mut i = 0;
    while i < 6 {
        all[i] = AES_128[i];
        all[6 + i] = AES_192[i];
        all[12 + i] = AES_256[i];
        i += 1;
    }
    all[18] = entry(
        "aes-cmac",
        Kind::Mac,
        "AES-CMAC (SP 800-38B, RFC 4493), any AES key size",
        &[16, 24, 32],
        None,
        Some(BLOCK_LEN),
        Construct::mac(cmac),
    );
    all
};

/// AES: FIPS 197 on every rung.
pub(crate) const LADDER: Ladder = Ladder {
    name: Rung::PRIMITIVE,
    primitives: &PRIMITIVES,
    rungs: Rungs::Own(|| rung_infos(Rung::best(), Rung::par_blocks)),
    #[cfg(feature = "kit")]
    checks: super::checks::run,
    #[cfg(feature = "kit")]
    fuzz: super::checks::fuzz,
};

impl<K: KeySize> DynDigest for Cmac<Aes<K>> {
    fn update(&mut self, data: &[u8]) {
        Cmac::update(self, data);
    }

    fn finalize_into(self: Box<Self>, out: &mut [u8]) {
        out.copy_from_slice(&Cmac::finalize(*self));
    }

    fn rung(&self) -> &'static str {
        self.cipher().rung().name()
    }
}

/// AES-CMAC under a key of any AES size.
fn cmac(key: &[u8], options: &MacOptions<'_>) -> Result<Box<dyn DynDigest>, Error> {
    let imp = options.rung;
    fn sized<K: KeySize>(key: &[u8], imp: Option<&str>) -> Result<Box<dyn DynDigest>, Error> {
        let mut aes = Aes::<K>::from_slice(key)?;
        if let Some(name) = imp {
            aes = aes.with_rung(name.parse()?)?;
        }
        Ok(Box::new(Cmac::from_cipher(aes)))
    }
    match key.len() {
        16 => sized::<Bits128>(key, imp),
        24 => sized::<Bits192>(key, imp),
        32 => sized::<Bits256>(key, imp),
        len => Err(Error::BadLength {
            primitive: "aes-cmac",
            what: "key",
            len,
            expected: "16, 24 or 32".into(),
        }),
    }
}
