//! The modes behind [`DynMode`], for callers that pick a cipher and mode
//! by name (the table of ladders, the tool's `enc`): written once for
//! every block cipher.

use std::str::FromStr;

use super::padding::{BlockMode, PaddedDecryptor, PaddedEncryptor};
use super::{BlockCipher, Cbc, Cfb, Ctr, Ecb, Ofb};
use crate::dynamic::{Direction, DynMode, ModeOptions};
use crate::{Error, KeyStream};

/// The modes a [`DynMode`] can be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ModeKind {
    Ecb,
    Cbc,
    Cfb,
    Ofb,
    Ctr,
}

/// `kind` over the cipher `C` under `key`, from `iv` (unused by ECB), on
/// the rung and in the direction `options` say.
pub(crate) fn construct<C>(
    kind: ModeKind,
    key: &[u8],
    iv: &[u8],
    options: &ModeOptions<'_>,
) -> Result<Box<dyn DynMode>, Error>
where
    C: BlockCipher + Send + 'static,
    C::Impl: FromStr<Err = Error>,
{
    options.params.none_for(C::NAME)?;
    let mut cipher = C::from_slice(key)?;
    if let Some(name) = options.imp {
        cipher = cipher.with_impl(name.parse()?)?;
    }
    let iv = || {
        C::Block::try_from(iv).map_err(|_| Error::BadLength {
            primitive: C::NAME,
            what: "IV",
            len: iv.len(),
            expected: C::BLOCK_LEN.to_string(),
        })
    };
    let decrypt = options.direction == Direction::Decrypt;
    let padding = options.padding;
    Ok(match kind {
        ModeKind::Ecb if decrypt => Box::new(Ecb::from_cipher(cipher).decryptor(padding)),
        ModeKind::Ecb => Box::new(Ecb::from_cipher(cipher).encryptor(padding)),
        ModeKind::Cbc if decrypt => Box::new(Cbc::from_cipher(cipher, &iv()?).decryptor(padding)),
        ModeKind::Cbc => Box::new(Cbc::from_cipher(cipher, &iv()?).encryptor(padding)),
        ModeKind::Cfb => Box::new(Streamed::Cfb(Cfb::from_cipher(cipher, &iv()?), decrypt)),
        ModeKind::Ofb => Box::new(Streamed::Ofb(Ofb::from_cipher(cipher, &iv()?))),
        ModeKind::Ctr => Box::new(Streamed::Ctr(Ctr::from_cipher(cipher, &iv()?))),
    })
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
    fn implementation(&self) -> &'static str {
        crate::Rung::name(self.mode().cipher().implementation())
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
    fn implementation(&self) -> &'static str {
        crate::Rung::name(self.mode().cipher().implementation())
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
            Streamed::Ctr(ctr) => {
                let at = ctr.position().checked_add(skip.len() as u128)?;
                let aligned = ctr.position() % C::BLOCK_LEN as u128 == 0;
                let mut next = ctr.clone();
                (aligned && next.seek(at).is_ok()).then_some(Streamed::Ctr(next))
            }
        }
    }
}

/// The modes that write every byte as it comes; CFB with its direction.
#[derive(Clone)]
enum Streamed<C: BlockCipher> {
    Cfb(Cfb<C>, bool),
    Ofb(Ofb<C>),
    Ctr(Ctr<C>),
}

impl<C: BlockCipher + Send + 'static> DynMode for Streamed<C> {
    fn update_len(&self, input_len: usize) -> usize {
        input_len
    }

    fn update(&mut self, input: &[u8], output: &mut [u8]) -> Result<usize, Error> {
        let got = output.len();
        let output = output.get_mut(..input.len()).ok_or(Error::OutputTooShort {
            need: input.len(),
            got,
        })?;
        match self {
            Streamed::Cfb(cfb, true) => cfb.decrypt_into(input, output)?,
            Streamed::Cfb(cfb, false) => cfb.encrypt_into(input, output)?,
            Streamed::Ofb(ofb) => ofb.xor_into(input, output)?,
            Streamed::Ctr(ctr) => KeyStream::xor_into(ctr, input, output)?,
        }
        Ok(input.len())
    }

    fn finalize(self: Box<Self>, _output: &mut [u8]) -> Result<usize, Error> {
        Ok(0)
    }

    fn implementation(&self) -> &'static str {
        let cipher = match self {
            Streamed::Cfb(cfb, _) => cfb.cipher(),
            Streamed::Ofb(ofb) => ofb.cipher(),
            Streamed::Ctr(ctr) => ctr.cipher(),
        };
        crate::Rung::name(cipher.implementation())
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
