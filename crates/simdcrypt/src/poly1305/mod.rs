//! Poly1305 (RFC 8439 section 2.5), as a ladder of implementations.
