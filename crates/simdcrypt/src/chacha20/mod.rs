//! ChaCha20 (RFC 8439), its original form and XChaCha20, as a ladder of
//! implementations.
