//! The AEADs built on ChaCha20, XSalsa20 and Poly1305.
