//! Keys and nonces from the command line: hex in byte order as written (as
//! `openssl enc -K`), or for keys `int:` and an unsigned number stored
//! little-endian. Errors name the 1-based character position in the argument
//! and what was expected.

use zeroize::Zeroizing;

use simdcrypt::ladder::Primitive;

use crate::error::CliError;

/// A key as given: 256 or 128 bits, zeroized on drop.
pub enum Key {
    /// 32 bytes.
    K256(Zeroizing<[u8; 32]>),
    /// 16 bytes.
    K128(Zeroizing<[u8; 16]>),
}

impl Key {
    /// The key's bytes.
    pub fn bytes(&self) -> &[u8] {
        match self {
            Key::K256(k) => &k[..],
            Key::K128(k) => &k[..],
        }
    }
}

/// What `--key` accepts, for messages.
fn key_expected(allow_128: bool, cipher: &str) -> String {
    if allow_128 {
        "expected 64 hex digits (a 256-bit key) or 32 (128-bit), or int:NUMBER".to_owned()
    } else {
        format!(
            "expected 64 hex digits (a 256-bit key; {cipher} has no 128-bit form), or int:NUMBER"
        )
    }
}

const INT_EXPECTED: &str =
    "expected an unsigned number of at most 256 bits: decimal, or 0x hex, 0o octal, 0b binary";

/// Parses `--key` for `cipher`: 64 hex digits, 32 when `allow_128`, or
/// `int:NUMBER`.
pub fn parse_key(arg: &str, allow_128: bool, cipher: &str) -> Result<Key, CliError> {
    let bad = |m: String| CliError::bad_arg("--key", m);
    if let Some(number) = arg.strip_prefix("int:") {
        return parse_int(number, "int:".len()).map(Key::K256).map_err(bad);
    }
    let expected = key_expected(allow_128, cipher);
    let digits = check_hex(arg, &expected).map_err(bad)?;
    match digits.len() {
        64 => Ok(Key::K256(Zeroizing::new(hex_array(&digits)))),
        32 if allow_128 => Ok(Key::K128(Zeroizing::new(hex_array(&digits)))),
        32 => Err(bad(format!(
            "a 128-bit key (32 hex digits) but {cipher} needs 256 bits: {expected}"
        ))),
        n => Err(bad(format!("{n} hex digits: {expected}"))),
    }
}

/// Parses `--nonce`: exactly `len` bytes in hex, for `cipher`.
pub fn parse_nonce(arg: &str, len: usize, cipher: &str) -> Result<Vec<u8>, CliError> {
    parse_hex("--nonce", arg, &[len], &format!("{cipher} nonce")).map(|b| b.to_vec())
}

/// Parses the hex value of `flag`: one of `lens` bytes long (any length
/// when `lens` is empty), `what` it is (for messages, e.g. `aes-128-cbc
/// key`); zeroized on drop.
pub fn parse_hex(
    flag: &'static str,
    arg: &str,
    lens: &[usize],
    what: &str,
) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let digits: Vec<String> = lens.iter().map(|l| (2 * l).to_string()).collect();
    let bits: Vec<String> = lens.iter().map(|l| (8 * l).to_string()).collect();
    let expected = if lens.is_empty() {
        format!("expected an even number of hex digits (the {what})")
    } else {
        format!(
            "expected {} hex digits (the {}-bit {what})",
            digits.join(" or "),
            bits.join("- or ")
        )
    };
    let bad = |m: String| CliError::bad_arg(flag, m);
    let hex = check_hex(arg, &expected).map_err(bad)?;
    let fits = if lens.is_empty() {
        hex.len() % 2 == 0
    } else {
        lens.iter().any(|&l| hex.len() == 2 * l)
    };
    if !fits {
        return Err(bad(format!("{} hex digits: {expected}", hex.len())));
    }
    Ok(bytes_of(&hex))
}

/// The bytes of an even number of hex digits (each 0..=15).
fn bytes_of(digits: &[u8]) -> Zeroizing<Vec<u8>> {
    Zeroizing::new(digits.chunks_exact(2).map(|d| d[0] << 4 | d[1]).collect())
}

/// Parses `--iv` for the mode `primitive` of the table: its IV length, or,
/// where its entry takes an IV register (GOST R 34.13-2015), any whole
/// number of its blocks.
pub fn parse_iv(arg: &str, primitive: &Primitive) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let len = primitive.nonce_len.unwrap_or(0);
    if !primitive.iv_register {
        return parse_hex("--iv", arg, &[len], &format!("{} IV", primitive.name));
    }
    let digits = 2 * primitive.block_len;
    let expected = format!(
        "expected {} hex digits, or any multiple of {digits} (the {} IV: a register of whole {}-bit blocks)",
        2 * len,
        primitive.name,
        8 * primitive.block_len,
    );
    let bad = |m: String| CliError::bad_arg("--iv", m);
    let hex = check_hex(arg, &expected).map_err(bad)?;
    if !hex.len().is_multiple_of(digits) {
        return Err(bad(format!("{} hex digits: {expected}", hex.len())));
    }
    Ok(bytes_of(&hex))
}

/// Parses `--key` for `primitive` of the table: hex of one of its key
/// lengths (any length for a MAC that takes any).
pub fn parse_table_key(
    arg: &str,
    primitive: &simdcrypt::ladder::Primitive,
) -> Result<Zeroizing<Vec<u8>>, CliError> {
    parse_hex(
        "--key",
        arg,
        primitive.key_lens,
        &format!("{} key", primitive.name),
    )
}

/// The hex digits of `arg`, each 0..=15, or a message naming the first bad
/// character and its position.
fn check_hex(arg: &str, expected: &str) -> Result<Zeroizing<Vec<u8>>, String> {
    if arg.is_empty() {
        return Err(format!("empty: {expected}"));
    }
    let mut digits = Zeroizing::new(Vec::with_capacity(arg.len()));
    for (i, c) in arg.chars().enumerate() {
        match c.to_digit(16) {
            Some(d) => digits.push(d as u8),
            None => {
                let hint = if i == 1 && c == 'x' && arg.starts_with('0') {
                    " (write a number as int:0x…)"
                } else {
                    ""
                };
                return Err(format!(
                    "bad hex digit '{}' at position {}: {expected}{hint}",
                    c.escape_debug(),
                    i + 1
                ));
            }
        }
    }
    Ok(digits)
}

/// Bytes from an even number of checked hex digits (high nibble first).
fn hex_array<const N: usize>(digits: &[u8]) -> [u8; N] {
    std::array::from_fn(|i| digits[2 * i] << 4 | digits[2 * i + 1])
}

/// The unsigned number `s` (decimal, `0x`, `0o` or `0b`) as 32 little-endian
/// bytes; positions in messages count from the start of the whole argument,
/// of which `s` begins at character `skip`.
fn parse_int(s: &str, skip: usize) -> Result<Zeroizing<[u8; 32]>, String> {
    let (radix, name, digits, skip) = if let Some(d) = s.strip_prefix("0x") {
        (16, "hex", d, skip + 2)
    } else if let Some(d) = s.strip_prefix("0o") {
        (8, "octal", d, skip + 2)
    } else if let Some(d) = s.strip_prefix("0b") {
        (2, "binary", d, skip + 2)
    } else {
        (10, "decimal", s, skip)
    };
    if digits.is_empty() {
        let consumed = &s[..s.len() - digits.len()];
        return Err(format!(
            "no digits after 'int:{consumed}' at position {}: {INT_EXPECTED}",
            skip + 1
        ));
    }
    let mut n = Zeroizing::new([0u8; 32]);
    for (i, c) in digits.chars().enumerate() {
        let position = skip + i + 1;
        let d = c.to_digit(radix).ok_or_else(|| {
            format!(
                "bad {name} digit '{}' at position {position}: {INT_EXPECTED}",
                c.escape_debug()
            )
        })?;
        // n = n * radix + d, little-endian bytes.
        let mut carry = d;
        for byte in n.iter_mut() {
            let v = u32::from(*byte) * radix + carry;
            *byte = v as u8;
            carry = v >> 8;
        }
        if carry != 0 {
            return Err(format!(
                "the number exceeds 256 bits at position {position}: {INT_EXPECTED}"
            ));
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(arg: &str) -> Result<[u8; 32], String> {
        match parse_key(arg, true, "a cipher").map_err(|e| e.to_string())? {
            Key::K256(k) => Ok(*k),
            Key::K128(_) => Err("128".into()),
        }
    }

    #[test]
    fn int_forms_are_little_endian() {
        let mut want = [0u8; 32];
        want[0] = 0x34;
        want[1] = 0x12;
        for arg in [
            "int:4660",
            "int:0x1234",
            "int:0o11064",
            "int:0b1001000110100",
        ] {
            assert_eq!(key(arg).unwrap(), want, "{arg}");
        }
        assert_eq!(
            key(&format!("int:0x{}", "f".repeat(64))).unwrap(),
            [0xff; 32]
        );
        assert!(key(&format!("int:0x1{}", "0".repeat(64))).is_err());
        // 2^256 - 1 and 2^256 in decimal.
        let max = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
        assert_eq!(key(&format!("int:{max}")).unwrap(), [0xff; 32]);
        let over = "115792089237316195423570985008687907853269984665640564039457584007913129639936";
        let e = key(&format!("int:{over}")).unwrap_err();
        assert!(e.contains("exceeds 256 bits at position 82"), "{e}");
    }

    #[test]
    fn errors_name_the_position() {
        let e = key("0123g").unwrap_err();
        assert_eq!(
            e,
            "--key: bad hex digit 'g' at position 5: expected 64 hex digits (a 256-bit key) or 32 (128-bit), or int:NUMBER"
        );
        assert!(key("int:12a").unwrap_err().contains("'a' at position 7"));
        assert!(
            key("int:0b102")
                .unwrap_err()
                .contains("binary digit '2' at position 9")
        );
        assert!(key("int:").unwrap_err().contains("no digits after 'int:'"));
        assert!(
            key("int:0x")
                .unwrap_err()
                .contains("no digits after 'int:0x'")
        );
        assert!(key("").unwrap_err().contains("empty"));
        assert!(key("00").unwrap_err().contains("2 hex digits"));
    }
}
