//! Buffers for the large tables read at random on every node (the hash
//! table, the net's feature-transformer rows), backed by transparent huge
//! pages where the system offers them. With 4 KB pages nearly every probe of
//! a 16 MB table also misses the TLB and waits for a page walk; with 2 MB
//! pages a handful of TLB entries cover the whole table. Stockfish allocates
//! its hash and its net the same way.
//!
//! Linux hands out huge pages for `madvise(MADV_HUGEPAGE)` regions that are
//! 2 MB-aligned, even where `/sys/kernel/mm/transparent_hugepage/enabled`
//! says `madvise`. Elsewhere, or when the kernel declines, the buffer is
//! ordinary memory and only slower.

use std::alloc::{self, Layout};
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// The size of one huge page on x86-64 and most aarch64 kernels.
pub const HUGE_PAGE_BYTES: usize = 2 << 20;

/// A fixed-length, heap-allocated slice like `Box<[T]>`, aligned to a huge
/// page when it is at least one huge page long.
pub struct HugePageBuffer<T> {
    ptr: NonNull<T>,
    len: usize,
    /// How it was allocated (`None`: nothing was, for an empty buffer or a
    /// zero-sized `T`).
    layout: Option<Layout>,
}

// SAFETY: the buffer owns its elements exclusively, as `Vec<T>` does, so it
// may move between threads when `T` may, and be shared when `T` may.
unsafe impl<T: Send> Send for HugePageBuffer<T> {}
// SAFETY: as above: `&HugePageBuffer<T>` gives only `&[T]`.
unsafe impl<T: Sync> Sync for HugePageBuffer<T> {}

impl<T> HugePageBuffer<T> {
    /// `len` elements, element `i` being `init(i)`, or `None` if the memory
    /// cannot be allocated.
    pub fn try_from_fn(len: usize, mut init: impl FnMut(usize) -> T) -> Option<HugePageBuffer<T>> {
        let bytes = len.checked_mul(size_of::<T>())?;
        if bytes == 0 {
            let mut buffer = HugePageBuffer {
                ptr: NonNull::dangling(),
                len: 0,
                layout: None,
            };
            // Zero-sized values take no memory, but they are still built (and
            // later dropped) once each, as in a `Vec`.
            for i in 0..len {
                std::mem::forget(init(i));
                buffer.len = i + 1;
            }
            return Some(buffer);
        }
        let layout = huge_page_layout(bytes, align_of::<T>())?;
        // SAFETY: `layout` has a non-zero size (bytes > 0).
        let raw = unsafe { alloc::alloc(layout) };
        let ptr = NonNull::new(raw.cast::<T>())?;
        advise_huge_pages(raw, layout);
        for i in 0..len {
            // SAFETY: `i < len` and the allocation holds `len` values of `T`
            // at `T`'s alignment (`layout.align()` is a multiple of it), so
            // the write stays inside it; it is uninitialised, so nothing is
            // dropped by writing.
            unsafe { ptr.as_ptr().add(i).write(init(i)) };
        }
        Some(HugePageBuffer {
            ptr,
            len,
            layout: Some(layout),
        })
    }
}

impl<T: Copy> HugePageBuffer<T> {
    /// A copy of `values`. Panics only if the memory cannot be allocated,
    /// as `to_vec` would.
    pub fn from_slice(values: &[T]) -> HugePageBuffer<T> {
        HugePageBuffer::try_from_fn(values.len(), |i| values[i])
            .expect("cannot allocate memory for a copy of a slice")
    }
}

/// The allocation for `bytes`: aligned to a huge page and rounded up to
/// whole huge pages once it spans one (so the kernel can back all of it with
/// huge pages), otherwise to a cache line.
fn huge_page_layout(bytes: usize, align: usize) -> Option<Layout> {
    if bytes >= HUGE_PAGE_BYTES {
        let size = bytes.checked_next_multiple_of(HUGE_PAGE_BYTES)?;
        Layout::from_size_align(size, HUGE_PAGE_BYTES.max(align)).ok()
    } else {
        Layout::from_size_align(bytes, align.max(64)).ok()
    }
}

/// Asks the kernel for huge pages under the allocation, before anything
/// touches it (pages are faulted in on first write). Only a hint: a refusal
/// changes nothing but speed.
#[cfg(target_os = "linux")]
fn advise_huge_pages(raw: *mut u8, layout: Layout) {
    if layout.align() >= HUGE_PAGE_BYTES {
        // SAFETY: `raw` starts an allocation of `layout.size()` bytes that we
        // own; it is huge-page (hence page) aligned, as madvise requires, and
        // MADV_HUGEPAGE changes no contents, only how pages are backed.
        unsafe {
            libc::madvise(raw.cast(), layout.size(), libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_raw: *mut u8, _layout: Layout) {}

impl<T> Drop for HugePageBuffer<T> {
    fn drop(&mut self) {
        // SAFETY: the `len` elements were initialised in `try_from_fn` and
        // are dropped once, here; then the memory goes back with the layout
        // it was allocated with.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                self.len,
            ));
            if let Some(layout) = self.layout {
                alloc::dealloc(self.ptr.as_ptr().cast(), layout);
            }
        }
    }
}

impl<T> Deref for HugePageBuffer<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised values (or is dangling with
        // a zero-sized `T` or `len` 0, which slices allow), borrowed with
        // `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> DerefMut for HugePageBuffer<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, borrowed mutably with `self`.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Clone> Clone for HugePageBuffer<T> {
    fn clone(&self) -> HugePageBuffer<T> {
        HugePageBuffer::try_from_fn(self.len, |i| self[i].clone())
            .expect("cannot allocate memory for a clone")
    }
}

impl<T: PartialEq> PartialEq for HugePageBuffer<T> {
    fn eq(&self, other: &HugePageBuffer<T>) -> bool {
        **self == **other
    }
}

impl<T: Eq> Eq for HugePageBuffer<T> {}

impl<T: fmt::Debug> fmt::Debug for HugePageBuffer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}

impl<T: Copy> From<Vec<T>> for HugePageBuffer<T> {
    fn from(values: Vec<T>) -> HugePageBuffer<T> {
        HugePageBuffer::from_slice(&values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::rc::Rc;

    #[test]
    fn holds_what_a_vec_holds() {
        // Below, at and above one huge page, and empty.
        for len in [
            0,
            1,
            1000,
            HUGE_PAGE_BYTES / 2,
            HUGE_PAGE_BYTES / 2 + 3,
            3 << 20,
        ] {
            let values: Vec<i16> = (0..len).map(|i| (i * 7919 % 65_521) as i16).collect();
            let mut buffer = HugePageBuffer::from_slice(&values);
            assert_eq!(&buffer[..], &values[..]);
            assert_eq!(buffer.clone(), buffer);
            if len > 0 {
                buffer[len - 1] = buffer[len - 1].wrapping_add(1);
                assert_ne!(&buffer[..], &values[..]);
            }
        }
    }

    #[test]
    fn large_buffers_start_on_a_huge_page() {
        let buffer = HugePageBuffer::from_slice(&vec![0u64; HUGE_PAGE_BYTES / 8]);
        assert_eq!(buffer.as_ptr() as usize % HUGE_PAGE_BYTES, 0);
        let small = HugePageBuffer::from_slice(&[1u8, 2, 3]);
        assert_eq!(small.as_ptr() as usize % 64, 0);
    }

    #[test]
    fn every_element_is_built_once_and_dropped_once() {
        let drops = Rc::new(Cell::new(0));
        struct Counted(Rc<Cell<usize>>);
        impl Drop for Counted {
            fn drop(&mut self) {
                self.0.set(self.0.get() + 1);
            }
        }
        let mut built = 0;
        let buffer = HugePageBuffer::try_from_fn(100, |_| {
            built += 1;
            Counted(drops.clone())
        })
        .unwrap();
        assert_eq!((built, drops.get()), (100, 0));
        drop(buffer);
        assert_eq!(drops.get(), 100);
        let units = HugePageBuffer::try_from_fn(5, |_| ()).unwrap();
        assert_eq!(units.len(), 5);
    }

    #[test]
    fn an_impossible_size_is_refused() {
        assert!(HugePageBuffer::<u64>::try_from_fn(usize::MAX / 4, |_| 0).is_none());
    }
}
