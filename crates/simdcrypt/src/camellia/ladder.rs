//! Camellia's entry in the table of ladders: the block cipher at each key
//! size, its modes, and CMAC, all on Camellia's rungs.

use super::{BLOCK_LEN, Bits128, Bits192, Bits256, Camellia, KeySize, Rung};
use crate::Error;
use crate::block::Cmac;
use crate::block::dynamic::{ModeKind, construct};
use crate::dynamic::{DynDigest, MacOptions};
use crate::table::{Construct, Kind, Ladder, Primitive, Rungs, rung_infos};

/// A primitive of the Camellia ladder.
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
                concat!("camellia-", $bits),
                Kind::BlockCipher,
                concat!("Camellia-", $bits, " (RFC 3713)"),
                &[$len],
                None,
                None,
                Construct::TypeOnly,
            ),
            entry(
                concat!("camellia-", $bits, "-ecb"),
                Kind::Mode,
                concat!("Camellia-", $bits, " in ECB mode (SP 800-38A §6.1), PKCS#7 padding"),
                &[$len],
                None,
                None,
                Construct::mode(|k, iv, o| construct::<Camellia<$K>>(ModeKind::Ecb, k, iv, o)),
            ),
            entry(
                concat!("camellia-", $bits, "-cbc"),
                Kind::Mode,
                concat!("Camellia-", $bits, " in CBC mode (SP 800-38A §6.2), PKCS#7 padding"),
                &[$len],
                Some(BLOCK_LEN),
                None,
                Construct::mode(|k, iv, o| construct::<Camellia<$K>>(ModeKind::Cbc, k, iv, o)),
            ),
            entry(
                concat!("camellia-", $bits, "-cfb"),
                Kind::Mode,
                concat!("Camellia-", $bits, " in full-block CFB mode (SP 800-38A §6.3)"),
                &[$len],
                Some(BLOCK_LEN),
                None,
                Construct::mode(|k, iv, o| construct::<Camellia<$K>>(ModeKind::Cfb, k, iv, o)),
            ),
            entry(
                concat!("camellia-", $bits, "-ofb"),
                Kind::Mode,
                concat!("Camellia-", $bits, " in OFB mode (SP 800-38A §6.4)"),
                &[$len],
                Some(BLOCK_LEN),
                None,
                Construct::mode(|k, iv, o| construct::<Camellia<$K>>(ModeKind::Ofb, k, iv, o)),
            ),
            entry(
                concat!("camellia-", $bits, "-ctr"),
                Kind::Mode,
                concat!(
                    "Camellia-",
                    $bits,
                    " in CTR mode (SP 800-38A §6.5): a 128-bit big-endian counter block"
                ),
                &[$len],
                Some(BLOCK_LEN),
                None,
                Construct::mode(|k, iv, o| construct::<Camellia<$K>>(ModeKind::Ctr, k, iv, o)),
            ),
        ]
    };
}

const CAMELLIA_128: [Primitive; 6] = sized!("128", 16, Bits128);
const CAMELLIA_192: [Primitive; 6] = sized!("192", 24, Bits192);
const CAMELLIA_256: [Primitive; 6] = sized!("256", 32, Bits256);

/// Every primitive, in the table's order.
const PRIMITIVES: [Primitive; 19] = {
    let mut all = [CAMELLIA_128[0]; 19];
    let mut i = 0;
    while i < 6 {
        all[i] = CAMELLIA_128[i];
        all[6 + i] = CAMELLIA_192[i];
        all[12 + i] = CAMELLIA_256[i];
        i += 1;
    }
    all[18] = entry(
        "camellia-cmac",
        Kind::Mac,
        "Camellia-CMAC (SP 800-38B over Camellia), any Camellia key size",
        &[16, 24, 32],
        None,
        Some(BLOCK_LEN),
        Construct::mac(cmac),
    );
    all
};

/// Camellia: RFC 3713 on every rung.
pub(crate) const LADDER: Ladder = Ladder {
    name: Rung::PRIMITIVE,
    primitives: &PRIMITIVES,
    rungs: Rungs::Own(|| rung_infos(Rung::best(), Rung::par_blocks)),
    #[cfg(feature = "kit")]
    checks: super::checks::run,
    #[cfg(feature = "kit")]
    fuzz: super::checks::fuzz,
};

impl<K: KeySize> DynDigest for Cmac<Camellia<K>> {
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

/// Camellia-CMAC under a key of any Camellia size.
fn cmac(key: &[u8], options: &MacOptions<'_>) -> Result<Box<dyn DynDigest>, Error> {
    fn sized<K: KeySize>(key: &[u8], imp: Option<&str>) -> Result<Box<dyn DynDigest>, Error> {
        let mut camellia = Camellia::<K>::from_slice(key)?;
        if let Some(name) = imp {
            camellia = camellia.with_rung(name.parse()?)?;
        }
        Ok(Box::new(Cmac::from_cipher(camellia)))
    }
    match key.len() {
        16 => sized::<Bits128>(key, options.rung),
        24 => sized::<Bits192>(key, options.rung),
        32 => sized::<Bits256>(key, options.rung),
        len => Err(Error::BadLength {
            primitive: "camellia-cmac",
            what: "key",
            len,
            expected: "16, 24 or 32".into(),
        }),
    }
}
