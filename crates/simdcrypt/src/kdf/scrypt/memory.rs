//! The memory of scrypt's ROMix: V and the second X buffer of each lane,
//! allocated fallibly; V on the heap when small, else in its own mapping
//! advised for transparent huge pages; wiped after use.

use memmap2::{MmapMut, MmapOptions};
#[cfg(not(target_arch = "x86_64"))]
use zeroize::Zeroize;

use super::Block;
use crate::Error;

/// The memory one lane's ROMix needs, in sub-blocks, allocated fallibly: V
/// (`N·2r` sub-blocks, filled by the rung) and the second buffer of X (the
/// first is the lane's B: `2r`), per lane of a group run at once.
pub(crate) struct Scratch {
    v: Memory,
    x: Box<[Block]>,
}

/// Where V lives: on the heap when small, else in its own memory mapping.
enum Memory {
    /// A zeroed heap allocation, wiped on drop: freed heap memory is handed
    /// out again within the process.
    Heap(Box<[Block]>),
    /// The `blocks` sub-blocks at `start` (2 MiB-aligned) in an anonymous
    /// private mapping, advised for transparent huge pages on Linux.
    ///
    /// Not wiped on drop, on purpose: unmapping it (the mapping's own drop)
    /// is the wipe. The kernel gives a process only zeroed pages, so V's
    /// pages reach no other process, and no later allocation of this one,
    /// without being zeroed by the kernel first; and once unmapped, the
    /// address range reads nothing back (a later mapping there is fresh
    /// zeroed memory). A wipe before `munmap` would protect only what
    /// `munmap` already does, and costs a pass over all of V (see
    /// bench/NOTES.md, section scrypt-mapped-v). (Neither wipe reaches
    /// copies already swapped out.)
    Mapped {
        map: MmapMut,
        start: usize,
        blocks: usize,
    },
}

/// The size of a transparent huge page on x86-64 (and the usual one
/// elsewhere): mapped V starts at a multiple of it and the mapping reaches
/// the next multiple after V, so that whole huge pages cover V.
const HUGE_PAGE: usize = 2 << 20;

/// The smallest V (in bytes) given its own mapping, by measurement: below
/// it the heap (whose pages glibc keeps mapped from one call to the next)
/// is as fast or faster than a fresh mapping's `mmap`, `munmap` and whole
/// 2 MiB huge page zeroed by the kernel, and takes less memory (see
/// bench/NOTES.md, section scrypt-mapped-v).
const MIN_MAPPED_BYTES: usize = 1 << 20;

impl Memory {
    /// `blocks` zeroed sub-blocks: mapped when at least
    /// [`MIN_MAPPED_BYTES`] and the mapping can be had, else on the heap.
    fn new(blocks: usize, what: &'static str) -> Result<Memory, Error> {
        let too_big = || Error::OutOfMemory {
            what,
            bytes: 64 * blocks as u128,
        };
        let bytes = blocks.checked_mul(64).ok_or_else(too_big)?;
        if bytes >= MIN_MAPPED_BYTES
            && let Some(memory) = Memory::mapped(bytes)
        {
            return Ok(memory);
        }
        bytemuck::allocation::try_zeroed_slice_box(blocks)
            .map(Memory::Heap)
            .map_err(|()| too_big())
    }

    /// `bytes` (a multiple of 64) of zeroed memory in a fresh anonymous
    /// mapping of whole huge pages and one more, so that they can start on
    /// a huge page and end within one (the rest is never touched); `None`
    /// when the system gives no such mapping (too large, out of memory,
    /// no `mmap` on the platform).
    ///
    /// Faulted in as the rung first writes V, one huge page at a time:
    /// prefaulting all of it at once gains nothing or loses (see
    /// bench/NOTES.md, section scrypt-mapped-v).
    fn mapped(bytes: usize) -> Option<Memory> {
        let len = bytes
            .checked_next_multiple_of(HUGE_PAGE)?
            .checked_add(HUGE_PAGE)?;
        let map = MmapOptions::new().len(len).map_anon().ok()?;
        // Transparent huge pages, where the kernel has them: a hint, so a
        // refusal (no THP support) changes nothing but speed.
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        let start = map.as_ptr().addr().next_multiple_of(HUGE_PAGE) - map.as_ptr().addr();
        Some(Memory::Mapped {
            map,
            start,
            blocks: bytes / 64,
        })
    }

    /// The sub-blocks.
    fn blocks(&mut self) -> &mut [Block] {
        match self {
            Memory::Heap(blocks) => blocks,
            // The start is 2 MiB-aligned within the page-aligned mapping,
            // so the bytes are suitably aligned sub-blocks.
            Memory::Mapped { map, start, blocks } => {
                bytemuck::cast_slice_mut(&mut map[*start..*start + *blocks * 64])
            }
        }
    }
}

impl Scratch {
    /// Room for `lanes` lanes of `2r`-sub-block blocks and `n` entries of V.
    pub(super) fn new(lanes: usize, two_r: usize, n: usize) -> Result<Scratch, Error> {
        const V: &str = "scrypt's V array (128·r·N bytes per lane)";
        let v_blocks = lanes
            .checked_mul(two_r)
            .and_then(|b| b.checked_mul(n))
            .ok_or(Error::OutOfMemory {
                what: V,
                bytes: 64 * lanes as u128 * two_r as u128 * n as u128,
            })?;
        Ok(Scratch {
            v: Memory::new(v_blocks, V)?,
            x: try_blocks(lanes * two_r, "scrypt's X buffer (128·r bytes per lane)")?,
        })
    }

    /// Overwrites V and the second X buffer with zeros, for the next
    /// derivation.
    pub(super) fn wipe(&mut self) {
        wipe(self.v.blocks());
        wipe(&mut self.x);
    }

    /// V (all `N` entries of the lanes) and the second X buffer.
    pub(super) fn parts(&mut self) -> (&mut [Block], &mut [Block]) {
        (self.v.blocks(), &mut self.x)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Memory::Heap(v) = &mut self.v {
            wipe(v);
        }
        wipe(&mut self.x);
    }
}

/// Zeroizes sub-blocks: with SSE2 stores on x86-64, as the `zeroize`
/// crate does elsewhere.
pub(super) fn wipe(blocks: &mut [Block]) {
    #[cfg(target_arch = "x86_64")]
    super::sse2::wipe(blocks);
    #[cfg(not(target_arch = "x86_64"))]
    blocks.iter_mut().for_each(Zeroize::zeroize);
}

/// `len` zeroed sub-blocks on the heap, allocated fallibly.
pub(super) fn try_blocks(len: usize, what: &'static str) -> Result<Box<[Block]>, Error> {
    bytemuck::allocation::try_zeroed_slice_box(len).map_err(|()| Error::OutOfMemory {
        what,
        bytes: 64 * len as u128,
    })
}

#[cfg(test)]
mod tests {
    use super::{HUGE_PAGE, MIN_MAPPED_BYTES, Memory};
    use crate::Error;

    /// V is zeroed, as long as asked for, and when mapped starts on a huge
    /// page; small V stays on the heap, large V is mapped (on Unix; where
    /// `mmap` is missing, on the heap).
    #[test]
    fn v_is_zeroed_and_mapped_on_huge_pages_when_large() {
        for bytes in [64, MIN_MAPPED_BYTES - 64, MIN_MAPPED_BYTES, 3 * HUGE_PAGE] {
            let mut memory = Memory::new(bytes / 64, "V").unwrap();
            let mapped = matches!(memory, Memory::Mapped { .. });
            assert_eq!(
                mapped,
                cfg!(unix) && bytes >= MIN_MAPPED_BYTES,
                "{bytes} bytes"
            );
            let blocks = memory.blocks();
            assert_eq!(blocks.len(), bytes / 64);
            assert!(blocks.iter().all(|b| b.0 == [0; 16]));
            if mapped {
                assert!(blocks.as_ptr().addr().is_multiple_of(HUGE_PAGE));
            }
        }
    }

    /// More memory than the address space holds, or than the system
    /// gives, is an error, not an abort.
    #[test]
    fn too_much_v_is_out_of_memory() {
        // Bytes beyond `usize`, and beyond `isize::MAX`.
        for blocks in [usize::MAX, usize::MAX / 64 + 1, usize::MAX / 128 + 1] {
            assert!(matches!(
                Memory::new(blocks, "V"),
                Err(Error::OutOfMemory { what: "V", .. })
            ));
        }
        // log_n = 40, r = 8: 2^50 bytes of V, more than the system gives
        // (x86-64 user space is 2^47 bytes).
        #[cfg(target_pointer_width = "64")]
        assert!(matches!(
            crate::kdf::scrypt(b"pw", b"salt", 40, 8, 1, &mut [0; 32]),
            Err(Error::OutOfMemory { .. })
        ));
    }
}
