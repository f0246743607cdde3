//! Standard streams the tool was started without (`simdcrypt hash f >&-`)
//! stay closed to it.
//!
//! Before `main`, Rust's runtime opens `/dev/null` on any of descriptors
//! 0, 1 and 2 that is closed, so a write to a closed stdout would succeed
//! and vanish: a secret key "written" nowhere, a digest list lost, exit 0.
//! coreutils, being C, sees `EBADF` there ("write error: Bad file
//! descriptor") and fails. To do the same, a constructor that runs before
//! the runtime's start notes which descriptors are closed, and
//! `crate::io`'s standard streams refuse to read or write those with
//! `EBADF` (std's own `Stdout` and `Stdin` would take `EBADF` for success
//! and end of file). Which descriptors were closed cannot be told
//! afterwards: `/dev/null` opened read-write by the runtime looks the same
//! as one a parent passed on purpose (Python's `subprocess.DEVNULL` does
//! exactly that).
//!
//! This is the tool's one module with `unsafe` code: the constructor's
//! link section and the `fcntl` probe of a raw descriptor number.
#![allow(unsafe_code)]

use std::sync::atomic::{AtomicU8, Ordering};

/// Bit `n` set: descriptor `n` (0, 1 or 2) was closed when the process
/// started.
static CLOSED_AT_START: AtomicU8 = AtomicU8::new(0);

/// Runs from `.init_array`, before the Rust runtime opens `/dev/null` on
/// the closed standard descriptors.
extern "C" fn note_closed_descriptors() {
    for fd in 0..3 {
        // SAFETY: `fcntl(F_GETFD)` on a descriptor number reads its flags
        // and touches no memory; on a closed descriptor it fails with EBADF.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
            CLOSED_AT_START.fetch_or(1 << fd, Ordering::Relaxed);
        }
    }
}

#[cfg(target_os = "linux")]
#[used]
// SAFETY: `.init_array` holds pointers to `extern "C" fn()` run by the
// loader before `main`; this is one, and it only calls `fcntl` and stores
// into an atomic, which needs no runtime.
#[unsafe(link_section = ".init_array")]
static NOTE_CLOSED_DESCRIPTORS: extern "C" fn() = note_closed_descriptors;

/// Whether standard descriptor `fd` (0, 1 or 2) was closed when the
/// process started (and so is `/dev/null` now).
pub fn closed_at_start(fd: u8) -> bool {
    CLOSED_AT_START.load(Ordering::Relaxed) & (1 << fd) != 0
}
