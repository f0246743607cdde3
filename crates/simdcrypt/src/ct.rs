//! Constant time, checked by the machine: the library's named
//! declassification points and valgrind's client requests.
//!
//! `tools/ctgrind` runs the primitives under valgrind's memcheck with their
//! secrets (keys, plaintexts, passwords, MAC keys) marked *undefined*:
//! memcheck then reports every conditional branch and every memory address
//! computed from a secret, which is what a timing or cache attack reads.
//! Some values computed from secrets are public by design — whether a tag
//! matched, whether padding was valid, a ciphertext — and the code that
//! branches on them says so at that point with [`declassify`]. Without the
//! `ctgrind` feature (and off x86-64), `declassify` is the identity and
//! compiles to nothing; with it, it issues valgrind's `MAKE_MEM_DEFINED`
//! request, a handful of instructions that change nothing outside valgrind.
//! docs/constant-time.md lists every point that calls it, and why.
//!
//! With the `ctgrind` feature this module also gives the checker the other
//! requests it needs (`poison`, `running_on_valgrind`, `error_count`:
//! not links, since without the feature they do not exist). The `asm!` of the client-request sequence is here and
//! nowhere else.
//!
//! This module sits at the bottom of the library's layers
//! (docs/architecture.md): every family may call it, and it names none.

/// `value`, which was computed from secrets but is public by design (a
/// tag comparison's result, whether padding was valid, …): under the
/// `ctgrind` feature, marked defined for valgrind's memcheck, so that a
/// branch on it is not reported; otherwise returned as it is.
///
/// Call it on the *result* a branch reads, never on a secret: each call is
/// a hole in the check, and docs/constant-time.md lists every one.
///
/// ```
/// // A verdict reached in constant time, then branched on.
/// let (computed, received) = ([1u8; 16], [1u8; 16]);
/// let diff = computed.iter().zip(&received).fold(0, |d, (a, b)| d | (a ^ b));
/// if simdcrypt::ct::declassify(diff == 0) {
///     println!("the tag matches");
/// }
/// ```
#[inline(always)]
pub fn declassify<T: Copy>(value: T) -> T {
    #[cfg(all(feature = "ctgrind", target_arch = "x86_64"))]
    {
        let mut value = value;
        valgrind::request(
            0,
            valgrind::MAKE_MEM_DEFINED,
            [
                (&raw mut value).expose_provenance(),
                std::mem::size_of::<T>(),
                0,
                0,
                0,
            ],
        );
        // The request took the address of `value`, and the `asm!` may have
        // written what it points to: the compiler reads it back.
        value
    }
    #[cfg(not(all(feature = "ctgrind", target_arch = "x86_64")))]
    value
}

/// `bytes`, computed from secrets but public by design (a ciphertext
/// before it is compared, sent or printed), marked defined for valgrind's
/// memcheck under the `ctgrind` feature; untouched otherwise.
#[inline(always)]
pub fn declassify_bytes(bytes: &mut [u8]) {
    #[cfg(all(feature = "ctgrind", target_arch = "x86_64"))]
    valgrind::request(
        0,
        valgrind::MAKE_MEM_DEFINED,
        [bytes.as_mut_ptr().expose_provenance(), bytes.len(), 0, 0, 0],
    );
    #[cfg(not(all(feature = "ctgrind", target_arch = "x86_64")))]
    let _ = bytes;
}

/// Overwrites `bytes` (round keys, keystream, a message's copy) with zeros
/// in word-wide stores that the compiler must keep: `black_box` makes the
/// buffer observable afterwards, so the stores are not dead. (`Zeroize` on
/// a byte array writes one volatile byte at a time: for AES's two
/// 240-byte key schedules, the better part of a short message's time.)
#[inline]
pub(crate) fn wipe(bytes: &mut [u8]) {
    bytes.fill(0);
    std::hint::black_box(bytes);
}

/// Marks the bytes of `value` (a key, a message, a struct holding a secret)
/// undefined for valgrind's memcheck (its `MAKE_MEM_UNDEFINED` request):
/// from here on, a branch or a memory address computed from them is
/// reported. Their values are unchanged; outside valgrind this does
/// nothing.
#[cfg(feature = "ctgrind")]
#[cfg_attr(docsrs, doc(cfg(feature = "ctgrind")))]
pub fn poison<T: ?Sized>(value: &mut T) {
    #[cfg(target_arch = "x86_64")]
    valgrind::request(
        0,
        valgrind::MAKE_MEM_UNDEFINED,
        [
            (&raw mut *value).cast::<u8>().expose_provenance(),
            std::mem::size_of_val(value),
            0,
            0,
            0,
        ],
    );
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// Whether the program runs under valgrind (its `RUNNING_ON_VALGRIND`
/// request): `false` on a CPU, and off x86-64.
#[cfg(feature = "ctgrind")]
#[cfg_attr(docsrs, doc(cfg(feature = "ctgrind")))]
pub fn running_on_valgrind() -> bool {
    #[cfg(target_arch = "x86_64")]
    return valgrind::request(0, valgrind::RUNNING_ON_VALGRIND, [0; 5]) != 0;
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// How many errors valgrind's tool has reported so far (its `COUNT_ERRORS`
/// request): 0 outside valgrind.
#[cfg(feature = "ctgrind")]
#[cfg_attr(docsrs, doc(cfg(feature = "ctgrind")))]
pub fn error_count() -> usize {
    #[cfg(target_arch = "x86_64")]
    return valgrind::request(0, valgrind::COUNT_ERRORS, [0; 5]);
    #[cfg(not(target_arch = "x86_64"))]
    0
}

/// Valgrind's client requests on x86-64 (valgrind.h,
/// `VALGRIND_DO_CLIENT_REQUEST_EXPR` for amd64; the request numbers are
/// valgrind.h's and memcheck.h's).
#[cfg(all(feature = "ctgrind", target_arch = "x86_64"))]
mod valgrind {
    /// `VG_USERREQ__RUNNING_ON_VALGRIND`.
    pub(super) const RUNNING_ON_VALGRIND: usize = 0x1001;
    /// `VG_USERREQ__COUNT_ERRORS`.
    pub(super) const COUNT_ERRORS: usize = 0x1201;
    /// `VG_USERREQ__MAKE_MEM_UNDEFINED` (`VG_USERREQ_TOOL_BASE('M','C') + 1`).
    pub(super) const MAKE_MEM_UNDEFINED: usize = 0x4d43_0001;
    /// `VG_USERREQ__MAKE_MEM_DEFINED`.
    pub(super) const MAKE_MEM_DEFINED: usize = 0x4d43_0002;

    /// Request `code` with `args`: valgrind's answer, or `default` when
    /// the program does not run under valgrind.
    #[inline(always)]
    pub(super) fn request(default: usize, code: usize, args: [usize; 5]) -> usize {
        let block = [code, args[0], args[1], args[2], args[3], args[4]];
        let result;
        // SAFETY: valgrind's client-request sequence for amd64. On a CPU
        // it is inert: the four rotations of rdi add up to 128 bits (rdi
        // ends as it began), `xchg rbx, rbx` swaps a register with itself,
        // so only the flags change (not declared preserved) and rdx keeps
        // `default`. Under valgrind the core recognises the rotations and
        // answers the request whose six words rax points at, in rdx. The
        // words are `block`, alive on this stack frame across the `asm!`;
        // an address among them (a MAKE_MEM_* request) is a range the
        // caller borrows, and valgrind changes only its shadow state, never
        // its bytes. Without `nomem`, the compiler assumes the `asm!` may
        // read and write memory whose address escaped into it, so it
        // stores the words before and reads borrowed values back after.
        unsafe {
            core::arch::asm!(
                "rol rdi, 3",
                "rol rdi, 13",
                "rol rdi, 61",
                "rol rdi, 51",
                "xchg rbx, rbx",
                in("rax") block.as_ptr(),
                inout("rdx") default => result,
                options(nostack),
            );
        }
        result
    }
}

/// `x`, unchanged, through an empty `asm!` block that hides its value from
/// the optimiser, so it can neither branch nor make a conditional move on
/// what it would know of the value. Costs no instruction.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
pub(crate) fn opaque(mut x: u64) -> u64 {
    // SAFETY: the template is empty: no instruction runs, no register,
    // memory or flag changes.
    unsafe {
        core::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
    }
    x
}

/// `$x`, unchanged, through an empty `asm!` block (template `$template`,
/// naming the register) in a register of class `$class`, which hides the
/// value from the optimiser: the vector form of [`opaque`]. Costs no
/// instruction.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! opaque_in {
    ($class:ident, $template:literal, $x:expr) => {{
        let mut x = $x;
        // SAFETY: the template is empty: no instruction runs, no register,
        // memory or flag changes.
        unsafe {
            core::arch::asm!($template, inout($class) x, options(pure, nomem, nostack, preserves_flags));
        }
        x
    }};
}
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) use opaque_in;

/// `x`: elsewhere there is no `asm!` to hide it with.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
#[inline(always)]
pub(crate) fn opaque(x: u64) -> u64 {
    x
}

#[cfg(all(test, feature = "ctgrind"))]
mod tests {
    /// Outside valgrind every request is inert: values unchanged, the
    /// defaults answered.
    #[test]
    fn requests_are_inert_outside_valgrind() {
        if super::running_on_valgrind() {
            return;
        }
        let mut bytes = [7u8, 8, 9];
        super::poison(&mut bytes[..]);
        super::declassify_bytes(&mut bytes);
        assert_eq!(bytes, [7, 8, 9]);
        assert_eq!(super::declassify(0x1234_5678_u32), 0x1234_5678);
        assert!(super::declassify(true));
        assert_eq!(super::error_count(), 0);
    }
}
