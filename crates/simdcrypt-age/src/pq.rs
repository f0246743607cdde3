//! The MLKEM768-X25519 hybrid post-quantum recipient type (c2sp.org/age).
