//! The S-box sets of GOST 28147-89: eight 4-bit substitutions `K1`…`K8`,
//! `K1` on the least-significant nibble of the round function's input
//! (RFC 5830 §5). The standard leaves them to the user; these are the sets
//! published with OIDs (RFC 4357 §11, RFC 7836), named on the command line
//! by their short names, and any table a user gives, once checked.

use std::fmt;

use crate::Error;

/// Eight 4-bit substitutions: `rows[i][x]` is `K(i+1)(x)`, each row a
/// permutation of 0..15.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SBox {
    rows: [[u8; 16]; 8],
    /// The index in [`SETS`] of a published set.
    name: Option<u8>,
}

/// A published set: its short name, its OID's name and the OID.
struct Named {
    short: &'static str,
    full: &'static str,
    oid: &'static str,
    rows: [[u8; 16]; 8],
}

/// The published sets, in the order `--sbox` lists them.
const SETS: [Named; 7] = [
    Named {
        short: "cryptopro-a",
        full: "id-Gost28147-89-CryptoPro-A-ParamSet",
        oid: "1.2.643.2.2.31.1",
        rows: [
            [9, 6, 3, 2, 8, 11, 1, 7, 10, 4, 14, 15, 12, 0, 13, 5],
            [3, 7, 14, 9, 8, 10, 15, 0, 5, 2, 6, 12, 11, 4, 13, 1],
            [14, 4, 6, 2, 11, 3, 13, 8, 12, 15, 5, 10, 0, 7, 1, 9],
            [14, 7, 10, 12, 13, 1, 3, 9, 0, 2, 11, 4, 15, 8, 5, 6],
            [11, 5, 1, 9, 8, 13, 15, 0, 14, 4, 2, 3, 12, 7, 10, 6],
            [3, 10, 13, 12, 1, 2, 0, 11, 7, 5, 9, 4, 8, 15, 14, 6],
            [1, 13, 2, 9, 7, 10, 6, 0, 8, 12, 4, 5, 15, 3, 11, 14],
            [11, 10, 15, 5, 0, 12, 14, 8, 6, 2, 3, 9, 1, 7, 13, 4],
        ],
    },
    Named {
        short: "cryptopro-b",
        full: "id-Gost28147-89-CryptoPro-B-ParamSet",
        oid: "1.2.643.2.2.31.2",
        rows: [
            [8, 4, 11, 1, 3, 5, 0, 9, 2, 14, 10, 12, 13, 6, 7, 15],
            [0, 1, 2, 10, 4, 13, 5, 12, 9, 7, 3, 15, 11, 8, 6, 14],
            [14, 12, 0, 10, 9, 2, 13, 11, 7, 5, 8, 15, 3, 6, 1, 4],
            [7, 5, 0, 13, 11, 6, 1, 2, 3, 10, 12, 15, 4, 14, 9, 8],
            [2, 7, 12, 15, 9, 5, 10, 11, 1, 4, 0, 13, 6, 8, 14, 3],
            [8, 3, 2, 6, 4, 13, 14, 11, 12, 1, 7, 15, 10, 0, 9, 5],
            [5, 2, 10, 11, 9, 1, 12, 3, 7, 4, 13, 0, 6, 15, 8, 14],
            [0, 4, 11, 14, 8, 3, 7, 1, 10, 2, 9, 6, 15, 13, 5, 12],
        ],
    },
    Named {
        short: "cryptopro-c",
        full: "id-Gost28147-89-CryptoPro-C-ParamSet",
        oid: "1.2.643.2.2.31.3",
        rows: [
            [1, 11, 12, 2, 9, 13, 0, 15, 4, 5, 8, 14, 10, 7, 6, 3],
            [0, 1, 7, 13, 11, 4, 5, 2, 8, 14, 15, 12, 9, 10, 6, 3],
            [8, 2, 5, 0, 4, 9, 15, 10, 3, 7, 12, 13, 6, 14, 1, 11],
            [3, 6, 0, 1, 5, 13, 10, 8, 11, 2, 9, 7, 14, 15, 12, 4],
            [8, 13, 11, 0, 4, 5, 1, 2, 9, 3, 12, 14, 6, 15, 10, 7],
            [12, 9, 11, 1, 8, 14, 2, 4, 7, 3, 6, 5, 10, 0, 15, 13],
            [10, 9, 6, 8, 13, 14, 2, 0, 15, 3, 5, 11, 4, 1, 12, 7],
            [7, 4, 0, 5, 10, 2, 15, 14, 12, 6, 1, 11, 13, 9, 3, 8],
        ],
    },
    Named {
        short: "cryptopro-d",
        full: "id-Gost28147-89-CryptoPro-D-ParamSet",
        oid: "1.2.643.2.2.31.4",
        rows: [
            [15, 12, 2, 10, 6, 4, 5, 0, 7, 9, 14, 13, 1, 11, 8, 3],
            [11, 6, 3, 4, 12, 15, 14, 2, 7, 13, 8, 0, 5, 10, 9, 1],
            [1, 12, 11, 0, 15, 14, 6, 5, 10, 13, 4, 8, 9, 3, 7, 2],
            [1, 5, 14, 12, 10, 7, 0, 13, 6, 2, 11, 4, 9, 3, 15, 8],
            [0, 12, 8, 9, 13, 2, 10, 11, 7, 3, 6, 5, 4, 14, 15, 1],
            [8, 0, 15, 3, 2, 5, 14, 11, 1, 10, 4, 7, 12, 9, 13, 6],
            [3, 0, 6, 15, 1, 14, 9, 2, 13, 8, 12, 4, 11, 10, 5, 7],
            [1, 10, 6, 8, 15, 11, 0, 4, 12, 3, 5, 9, 7, 13, 2, 14],
        ],
    },
    Named {
        short: "test",
        full: "id-Gost28147-89-TestParamSet",
        oid: "1.2.643.2.2.31.0",
        rows: [
            [4, 2, 15, 5, 9, 1, 0, 8, 14, 3, 11, 12, 13, 7, 10, 6],
            [12, 9, 15, 14, 8, 1, 3, 10, 2, 7, 4, 13, 6, 0, 11, 5],
            [13, 8, 14, 12, 7, 3, 9, 10, 1, 5, 2, 4, 6, 15, 0, 11],
            [14, 9, 11, 2, 5, 15, 7, 1, 0, 13, 12, 6, 10, 4, 3, 8],
            [3, 14, 5, 9, 6, 8, 0, 13, 10, 11, 7, 12, 2, 1, 15, 4],
            [8, 15, 6, 11, 1, 9, 12, 5, 13, 3, 7, 10, 0, 14, 2, 4],
            [9, 11, 12, 0, 3, 6, 7, 5, 4, 8, 14, 15, 1, 10, 2, 13],
            [12, 6, 5, 2, 11, 0, 9, 13, 3, 14, 7, 10, 15, 4, 1, 8],
        ],
    },
    Named {
        short: "test-3411",
        full: "id-GostR3411-94-TestParamSet",
        oid: "1.2.643.2.2.30.0",
        rows: [
            [4, 10, 9, 2, 13, 8, 0, 14, 6, 11, 1, 12, 7, 15, 5, 3],
            [14, 11, 4, 12, 6, 13, 15, 10, 2, 3, 8, 1, 0, 7, 5, 9],
            [5, 8, 1, 13, 10, 3, 4, 2, 14, 15, 12, 7, 6, 0, 9, 11],
            [7, 13, 10, 1, 0, 8, 9, 15, 14, 4, 6, 12, 11, 2, 5, 3],
            [6, 12, 7, 1, 5, 15, 13, 8, 4, 10, 9, 14, 0, 3, 11, 2],
            [4, 11, 10, 0, 7, 2, 1, 13, 3, 6, 8, 5, 9, 12, 15, 14],
            [13, 11, 4, 1, 3, 15, 5, 9, 0, 10, 14, 7, 6, 8, 2, 12],
            [1, 15, 13, 0, 5, 7, 10, 4, 9, 2, 3, 14, 6, 11, 8, 12],
        ],
    },
    Named {
        short: "param-z",
        full: "id-tc26-gost-28147-param-Z",
        oid: "1.2.643.7.1.2.5.1.1",
        rows: [
            [12, 4, 6, 2, 10, 5, 11, 9, 14, 8, 13, 7, 0, 3, 15, 1],
            [6, 8, 2, 3, 9, 10, 5, 12, 1, 14, 4, 7, 11, 13, 0, 15],
            [11, 3, 5, 8, 2, 15, 10, 13, 14, 1, 7, 4, 12, 9, 6, 0],
            [12, 8, 2, 1, 13, 4, 15, 6, 7, 0, 10, 5, 3, 14, 9, 11],
            [7, 15, 5, 10, 8, 1, 6, 13, 0, 9, 3, 14, 11, 4, 2, 12],
            [5, 13, 15, 6, 9, 2, 12, 10, 11, 7, 8, 1, 4, 3, 14, 0],
            [8, 14, 2, 5, 6, 9, 1, 12, 15, 4, 11, 0, 13, 10, 3, 7],
            [1, 7, 14, 13, 0, 5, 8, 3, 4, 15, 10, 6, 9, 12, 11, 2],
        ],
    },
];

impl SBox {
    /// id-Gost28147-89-CryptoPro-A-ParamSet (RFC 4357 §11.2), gost-engine's
    /// default for GOST 28147-89.
    pub const CRYPTOPRO_A: SBox = SBox::named(0);
    /// id-Gost28147-89-CryptoPro-B-ParamSet (RFC 4357 §11.2).
    pub const CRYPTOPRO_B: SBox = SBox::named(1);
    /// id-Gost28147-89-CryptoPro-C-ParamSet (RFC 4357 §11.2).
    pub const CRYPTOPRO_C: SBox = SBox::named(2);
    /// id-Gost28147-89-CryptoPro-D-ParamSet (RFC 4357 §11.2).
    pub const CRYPTOPRO_D: SBox = SBox::named(3);
    /// id-Gost28147-89-TestParamSet (RFC 4357 §11.2).
    pub const TEST: SBox = SBox::named(4);
    /// id-GostR3411-94-TestParamSet (RFC 4357 §11.2; RFC 5831's examples).
    pub const TEST_3411: SBox = SBox::named(5);
    /// id-tc26-gost-28147-param-Z (RFC 7836): Magma's `π'` (RFC 8891 §4.1).
    pub const PARAM_Z: SBox = SBox::named(6);

    const fn named(i: usize) -> SBox {
        SBox {
            rows: SETS[i].rows,
            name: Some(i as u8),
        }
    }

    /// The short names of the published sets, as `--sbox` takes them.
    pub fn names() -> impl Iterator<Item = &'static str> {
        SETS.iter().map(|s| s.short)
    }

    /// A published set by its short name (`cryptopro-a`), the name of its
    /// OID (`id-Gost28147-89-CryptoPro-A-ParamSet`, any case) or the OID
    /// (`1.2.643.2.2.31.1`); or a table of 128 hexadecimal digits, `K1`'s
    /// 16 outputs first (checked as [`SBox::from_rows`] checks).
    ///
    /// # Errors
    ///
    /// [`Error::BadSBox`] naming what was wrong.
    pub fn from_name(name: &str) -> Result<SBox, Error> {
        let named = SETS.iter().position(|s| {
            s.short.eq_ignore_ascii_case(name) || s.full.eq_ignore_ascii_case(name) || s.oid == name
        });
        if let Some(i) = named {
            return Ok(SBox::named(i));
        }
        if name.len() == 128 && name.bytes().all(|b| b.is_ascii_hexdigit()) {
            let mut rows = [[0u8; 16]; 8];
            for (i, c) in name.chars().enumerate() {
                rows[i / 16][i % 16] = c.to_digit(16).expect("checked hexadecimal") as u8;
            }
            return SBox::from_rows(rows);
        }
        Err(Error::BadSBox {
            what: format!("unknown S-box set `{name}`"),
            expected: format!(
                "one of {}, an OID or its name, or 128 hexadecimal digits (K1's 16 outputs first)",
                SBox::names().collect::<Vec<_>>().join(", ")
            ),
        })
    }

    /// A table given by the user: `rows[i][x]` is `K(i+1)(x)`.
    ///
    /// # Errors
    ///
    /// [`Error::BadSBox`] when a row is not a permutation of 0..15 (the
    /// round function would not be a bijection on its nibbles).
    pub fn from_rows(rows: [[u8; 16]; 8]) -> Result<SBox, Error> {
        for (i, row) in rows.iter().enumerate() {
            let mut seen = 0u16;
            for (x, &y) in row.iter().enumerate() {
                if y > 15 {
                    return Err(Error::BadSBox {
                        what: format!("S-box row K{} maps {x} to {y}", i + 1),
                        expected: "outputs 0..15".into(),
                    });
                }
                if seen & (1 << y) != 0 {
                    return Err(Error::BadSBox {
                        what: format!("S-box row K{} gives {y} twice", i + 1),
                        expected: "each row a permutation of 0..15".into(),
                    });
                }
                seen |= 1 << y;
            }
        }
        let name = SETS.iter().position(|s| s.rows == rows).map(|i| i as u8);
        Ok(SBox { rows, name })
    }

    /// The eight rows: `rows()[i][x]` is `K(i+1)(x)`.
    pub fn rows(&self) -> &[[u8; 16]; 8] {
        &self.rows
    }

    /// The eight rows as two 64-byte tables indexed by a nibble and the
    /// position of its byte in the word, `n | j << 4`: `[0]` gives
    /// `K(2j+1)(n)` for the low nibble of byte `j`, `[1]` gives
    /// `K(2j+2)(n) << 4` for its high nibble, so that the OR of a byte's
    /// two lookups is the byte substituted. A 64-byte table is what one
    /// byte permute looks up in: `vpermb` (the `avx512` rung), `tbl` on
    /// four registers (`neon`).
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    pub(super) fn byte_tables(&self) -> [[u8; 64]; 2] {
        [
            std::array::from_fn(|i| self.rows[2 * (i >> 4)][i & 15]),
            std::array::from_fn(|i| self.rows[2 * (i >> 4) + 1][i & 15] << 4),
        ]
    }

    /// The short name of a published set; `None` for another table.
    pub fn name(&self) -> Option<&'static str> {
        self.set().map(|s| s.short)
    }

    /// The published set this is, if it is one.
    fn set(&self) -> Option<&'static Named> {
        const { &SETS }.get(usize::from(self.name?))
    }

    /// The OID of a published set.
    pub fn oid(&self) -> Option<&'static str> {
        self.set().map(|s| s.oid)
    }
}

impl fmt::Debug for SBox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.set() {
            Some(s) => write!(f, "SBox({})", s.short),
            None => f.debug_tuple("SBox").field(&self.rows).finish(),
        }
    }
}

impl fmt::Display for SBox {
    /// The short name of a published set, else the 128 hexadecimal digits
    /// [`SBox::from_name`] takes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.set() {
            Some(s) => f.write_str(s.short),
            None => self
                .rows
                .iter()
                .flatten()
                .try_for_each(|x| write!(f, "{x:x}")),
        }
    }
}

impl std::str::FromStr for SBox {
    type Err = Error;

    fn from_str(s: &str) -> Result<SBox, Error> {
        SBox::from_name(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_published_set_is_found_by_each_of_its_names() {
        for s in &SETS {
            for name in [s.short, s.full, s.oid, &s.full.to_uppercase()] {
                assert_eq!(SBox::from_name(name).unwrap().name(), Some(s.short));
            }
            assert!(SBox::from_rows(s.rows).is_ok(), "{}", s.short);
            let hex = SBox::from_rows(s.rows).unwrap();
            assert_eq!(SBox::from_name(&hex.to_string()).unwrap().rows(), &s.rows);
        }
    }

    #[test]
    fn tables_that_are_not_permutations_are_refused_by_name() {
        let mut rows = SBox::PARAM_Z.rows;
        rows[2][5] = rows[2][6];
        let err = SBox::from_rows(rows).unwrap_err().to_string();
        assert!(err.contains("K3") && err.contains("twice"), "{err}");
        rows[2][5] = 16;
        assert!(
            SBox::from_rows(rows)
                .unwrap_err()
                .to_string()
                .contains("0..15")
        );
        let digits: String = (0..128).map(|i| format!("{:x}", i % 16)).collect();
        let identity = SBox::from_name(&digits).unwrap();
        assert_eq!(identity.name(), None);
        let err = SBox::from_name("cryptopro-e").unwrap_err().to_string();
        assert!(
            err.contains("cryptopro-e") && err.contains("param-z"),
            "{err}"
        );
    }
}
