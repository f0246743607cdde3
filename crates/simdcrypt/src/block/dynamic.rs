//! The modes behind [`DynMode`], for callers that pick a cipher and mode
//! by name (the table of ladders, the tool's `enc`): written once for
//! every block cipher.

use std::str::FromStr;

use super::padding::{BlockMode, PaddedDecryptor, PaddedEncryptor};
use super::{BlockCipher, Cbc, Cfb, Cmac, Ctr, Ecb, Ofb};
use crate::dynamic::{Direction, DynDigest, DynMode, MacOptions, ModeOptions};
use crate::{Error, KeyStream};

/// The modes a [`DynMode`] can be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ModeKind {
    Ecb,
    Cbc,
    Cfb,
    Ofb,
    /// CTR from a whole counter block (SP 800-38A §6.5).
    Ctr,
    /// CTR of GOST R 34.13-2015 §5.2: a half-block IV, the counter block
    /// IV ‖ 0, a keystream of 2^(4·block length) blocks.
    CtrHalf,
}

/// `kind` over the cipher `C` under `key`, from `iv` (unused by ECB), on
/// the rung and in the direction `options` say; `C` takes no parameters.
pub(crate) fn construct<C>(
    kind: ModeKind,
    key: &[u8],
    iv: &[u8],
    options: &ModeOptions<'_>,
) -> Result<Box<dyn DynMode>, Error>
where
    C: BlockCipher + Send + 'static,
    C::Rung: FromStr<Err = Error>,
{
    construct_with(kind, C::from_slice(key)?, iv, options)
}

/// `kind` over `cipher` (keyed, with its parameters), from `iv`: CBC, CFB
/// and OFB take an IV of one or more blocks (GOST R 34.13-2015's
/// registers), on the rung `options` name.
pub(crate) fn construct_with<C>(
    kind: ModeKind,
    mut cipher: C,
    iv: &[u8],
    options: &ModeOptions<'_>,
) -> Result<Box<dyn DynMode>, Error>
where
    C: BlockCipher + Send + 'static,
    C::Rung: FromStr<Err = Error>,
{
    if let Some(name) = options.rung {
        cipher = cipher.with_rung(name.parse()?)?;
    }
    let decrypt = options.direction == Direction::Decrypt;
    let padding = options.padding;
    Ok(match kind {
        ModeKind::Ecb if decrypt => Box::new(Ecb::from_cipher(cipher).decryptor(padding)),
        ModeKind::Ecb => Box::new(Ecb::from_cipher(cipher).encryptor(padding)),
        ModeKind::Cbc => {
            let cbc = Cbc::from_cipher_with_iv_register(cipher, iv)?;
            if decrypt {
                Box::new(cbc.decryptor(padding))
            } else {
                Box::new(cbc.encryptor(padding))
            }
        }
        ModeKind::Cfb => Box::new(Streamed::Cfb(
            Cfb::from_cipher_with_iv_register(cipher, iv)?,
            decrypt,
        )),
        ModeKind::Ofb => Box::new(Streamed::Ofb(Ofb::from_cipher_with_iv_register(
            cipher, iv,
        )?)),
        ModeKind::Ctr => {
            let block = C::Block::try_from(iv).map_err(|_| Error::BadLength {
                primitive: C::NAME,
                what: "IV",
                len: iv.len(),
                expected: C::BLOCK_LEN.to_string(),
            })?;
            let ctr = Ctr::from_cipher(cipher, &block);
            let imp = crate::RungSet::name(ctr.rung());
            Box::new(KeyStreamMode::new(ctr, imp))
        }
        ModeKind::CtrHalf => {
            let ctr = Ctr::from_cipher_half_iv(cipher, iv)?;
            let imp = crate::RungSet::name(ctr.rung());
            Box::new(KeyStreamMode::new(ctr, imp))
        }
    })
}

/// CMAC (SP 800-38B) under `key` over the cipher of its size, on the rung
/// `options` name: `C16`, `C24` or `C32` for a key of 16, 24 or 32 bytes
/// (AES, Camellia); the primitive `name` in the error for another length.
pub(crate) fn cmac_by_key_len<C16, C24, C32>(
    name: &'static str,
    key: &[u8],
    options: &MacOptions<'_>,
) -> Result<Box<dyn DynDigest>, Error>
where
    C16: BlockCipher + Send + Sync + 'static,
    C16::Rung: FromStr<Err = Error>,
    C24: BlockCipher + Send + Sync + 'static,
    C24::Rung: FromStr<Err = Error>,
    C32: BlockCipher + Send + Sync + 'static,
    C32::Rung: FromStr<Err = Error>,
{
    fn keyed<C>(key: &[u8], rung: Option<&str>) -> Result<Box<dyn DynDigest>, Error>
    where
        C: BlockCipher + Send + Sync + 'static,
        C::Rung: FromStr<Err = Error>,
    {
        let mut cipher = C::from_slice(key)?;
        if let Some(name) = rung {
            cipher = cipher.with_rung(name.parse()?)?;
        }
        Ok(Box::new(Cmac::from_cipher(cipher)))
    }
    match key.len() {
        16 => keyed::<C16>(key, options.rung),
        24 => keyed::<C24>(key, options.rung),
        32 => keyed::<C32>(key, options.rung),
        len => Err(Error::BadLength {
            primitive: name,
            what: "key",
            len,
            expected: "16, 24 or 32".into(),
        }),
    }
}

/// CMAC over any block cipher, whatever its type.
impl<C: BlockCipher + Send + Sync> DynDigest for Cmac<C> {
    fn update(&mut self, data: &[u8]) {
        Cmac::update(self, data);
    }

    fn finalize_into(self: Box<Self>, out: &mut [u8]) {
        out.copy_from_slice(Cmac::finalize(*self).as_ref());
    }

    fn rung(&self) -> &'static str {
        crate::RungSet::name(self.cipher().rung())
    }
}

/// Any seekable keystream as a [`DynMode`], cut for the tool's threads by
/// seeking: CTR and the other counter modes.
#[derive(Clone)]
pub(crate) struct KeyStreamMode<K: KeyStream + Clone> {
    keystream: K,
    imp: &'static str,
}

impl<K: KeyStream + Clone> KeyStreamMode<K> {
    /// `keystream`, running on the rung named `imp`.
    pub(crate) fn new(keystream: K, imp: &'static str) -> Self {
        KeyStreamMode { keystream, imp }
    }

    /// This keystream `skip` bytes further on, where it is at a block's
    /// start and the keystream reaches there.
    fn skipped(&self, skip: &[u8]) -> Option<Self> {
        let ks = &self.keystream;
        let at = ks.position().checked_add(skip.len() as u128)?;
        let aligned = ks.position().is_multiple_of(ks.block_len() as u128);
        let mut next = self.clone();
        (aligned && next.keystream.seek(at).is_ok()).then_some(next)
    }
}

impl<K: KeyStream + Clone + Send + 'static> DynMode for KeyStreamMode<K> {
    fn update_len(&self, input_len: usize) -> usize {
        input_len
    }

    fn update(&mut self, input: &[u8], output: &mut [u8]) -> Result<usize, Error> {
        let output = crate::dynamic::output_for(input, output)?;
        self.keystream.xor_into(input, output)?;
        Ok(input.len())
    }

    fn finalize(self: Box<Self>, _output: &mut [u8]) -> Result<usize, Error> {
        Ok(0)
    }

    fn rung(&self) -> &'static str {
        self.imp
    }

    fn fork(&self, skip: &[u8]) -> Option<Box<dyn DynMode>> {
        Some(Box::new(self.skipped(skip)?))
    }

    fn advance(&mut self, skip: &[u8]) -> bool {
        match self.skipped(skip) {
            Some(next) => {
                *self = next;
                true
            }
            None => false,
        }
    }
}

impl<M: BlockMode + Send + 'static> DynMode for PaddedEncryptor<M> {
    fn update_len(&self, input_len: usize) -> usize {
        PaddedEncryptor::update_len(self, input_len)
    }
    fn update(&mut self, input: &[u8], output: &mut [u8]) -> Result<usize, Error> {
        PaddedEncryptor::update(self, input, output)
    }
    fn finalize(self: Box<Self>, output: &mut [u8]) -> Result<usize, Error> {
        PaddedEncryptor::finalize(*self, output)
    }
    fn rung(&self) -> &'static str {
        crate::RungSet::name(self.mode().cipher().rung())
    }
    fn fork(&self, skip: &[u8]) -> Option<Box<dyn DynMode>> {
        Some(Box::new(PaddedEncryptor::fork(self, skip)?))
    }
    fn advance(&mut self, skip: &[u8]) -> bool {
        PaddedEncryptor::advance(self, skip)
    }
}

impl<M: BlockMode + Send + 'static> DynMode for PaddedDecryptor<M> {
    fn update_len(&self, input_len: usize) -> usize {
        PaddedDecryptor::update_len(self, input_len)
    }
    fn update(&mut self, input: &[u8], output: &mut [u8]) -> Result<usize, Error> {
        PaddedDecryptor::update(self, input, output)
    }
    fn finalize(self: Box<Self>, output: &mut [u8]) -> Result<usize, Error> {
        PaddedDecryptor::finalize(*self, output)
    }
    fn rung(&self) -> &'static str {
        crate::RungSet::name(self.mode().cipher().rung())
    }
    fn fork(&self, skip: &[u8]) -> Option<Box<dyn DynMode>> {
        Some(Box::new(PaddedDecryptor::fork(self, skip)?))
    }
    fn advance(&mut self, skip: &[u8]) -> bool {
        PaddedDecryptor::advance(self, skip)
    }
}

impl<C: BlockCipher> Streamed<C> {
    /// This mode `skip` further on, where it can be cut there.
    fn skipped(&self, skip: &[u8]) -> Option<Self> {
        match self {
            Streamed::Cfb(cfb, true) => Some(Streamed::Cfb(cfb.skipped(skip)?, true)),
            Streamed::Cfb(_, false) | Streamed::Ofb(_) => None,
        }
    }
}

/// The chained modes that write every byte as it comes; CFB with its
/// direction.
#[derive(Clone)]
enum Streamed<C: BlockCipher> {
    Cfb(Cfb<C>, bool),
    Ofb(Ofb<C>),
}

impl<C: BlockCipher + Send + 'static> DynMode for Streamed<C> {
    fn update_len(&self, input_len: usize) -> usize {
        input_len
    }

    fn update(&mut self, input: &[u8], output: &mut [u8]) -> Result<usize, Error> {
        let output = crate::dynamic::output_for(input, output)?;
        match self {
            Streamed::Cfb(cfb, true) => cfb.decrypt_into(input, output)?,
            Streamed::Cfb(cfb, false) => cfb.encrypt_into(input, output)?,
            Streamed::Ofb(ofb) => ofb.xor_into(input, output)?,
        }
        Ok(input.len())
    }

    fn finalize(self: Box<Self>, _output: &mut [u8]) -> Result<usize, Error> {
        Ok(0)
    }

    fn rung(&self) -> &'static str {
        let cipher = match self {
            Streamed::Cfb(cfb, _) => cfb.cipher(),
            Streamed::Ofb(ofb) => ofb.cipher(),
        };
        crate::RungSet::name(cipher.rung())
    }

    fn fork(&self, skip: &[u8]) -> Option<Box<dyn DynMode>> {
        Some(Box::new(self.skipped(skip)?))
    }

    fn advance(&mut self, skip: &[u8]) -> bool {
        match self.skipped(skip) {
            Some(next) => {
                *self = next;
                true
            }
            None => false,
        }
    }
}
