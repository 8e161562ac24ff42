//! Handles: indices into a registry of live objects with a generation per
//! slot, so a destroyed or foreign handle is detected, never dereferenced.
//!
//! A handle's 64 bits are a kind tag (8 bits), the slot's generation
//! (24 bits, never 0) and the slot index plus one (32 bits); the null handle
//! is 0. Each object sits behind its own `Arc<Mutex<_>>`: a call locks the
//! registry only to clone the `Arc` (no allocation), then works on the
//! object alone, so calls on different objects run in parallel and an
//! object destroyed during another thread's call lives until that call ends.

use alloc::sync::Arc;
use std::sync::{Mutex, MutexGuard};

use crate::ptr::required;
use crate::status::{Error, Result, TressStatus, guard};
use crate::types::index_out;

struct Slot<T> {
    generation: u32,
    value: Option<Arc<Mutex<T>>>,
}

struct Slots<T> {
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
}

/// Live objects of one kind.
pub(crate) struct Registry<T> {
    tag: u8,
    kind: &'static str,
    inner: Mutex<Slots<T>>,
}

const GENERATION_MASK: u32 = 0x00ff_ffff;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic caught at the boundary may have poisoned the lock; the data
    // is plain values, so carry on with it.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl<T> Registry<T> {
    pub const fn new(tag: u8, kind: &'static str) -> Self {
        Self {
            tag,
            kind,
            inner: Mutex::new(Slots {
                slots: Vec::new(),
                free: Vec::new(),
            }),
        }
    }

    /// Stores `value`; returns its handle bits.
    pub fn insert(&self, value: T) -> u64 {
        let value = Some(Arc::new(Mutex::new(value)));
        let mut s = lock(&self.inner);
        let index = if let Some(i) = s.free.pop() {
            s.slots[i as usize].value = value;
            i
        } else {
            s.slots.push(Slot {
                generation: 1,
                value,
            });
            u32::try_from(s.slots.len() - 1).expect("fewer than 2^32 live objects")
        };
        let generation = s.slots[index as usize].generation;
        (u64::from(self.tag) << 56) | (u64::from(generation) << 32) | (u64::from(index) + 1)
    }

    fn locate(&self, bits: u64) -> Result<(usize, u32)> {
        if bits == 0 {
            return Err(Error::new(
                TressStatus::NullHandle,
                format!("the {} handle is null", self.kind),
            ));
        }
        let tag = (bits >> 56) as u8;
        let generation = ((bits >> 32) as u32) & GENERATION_MASK;
        let low = bits as u32;
        if tag != self.tag || low == 0 {
            return Err(Error::new(
                TressStatus::StaleHandle,
                format!("{bits:#018x} is not a handle of kind `{}`", self.kind),
            ));
        }
        Ok(((low - 1) as usize, generation))
    }

    fn stale(&self, bits: u64) -> Error {
        Error::new(
            TressStatus::StaleHandle,
            format!(
                "{} handle {bits:#018x} was destroyed or never made",
                self.kind
            ),
        )
    }

    /// The live object behind `bits`.
    pub fn get(&self, bits: u64) -> Result<Arc<Mutex<T>>> {
        let (index, generation) = self.locate(bits)?;
        let s = lock(&self.inner);
        match s.slots.get(index) {
            Some(Slot {
                generation: g,
                value: Some(v),
            }) if *g == generation => Ok(Arc::clone(v)),
            _ => Err(self.stale(bits)),
        }
    }

    /// Runs `f` on the live object behind `bits`.
    pub fn with<R>(&self, bits: u64, f: impl FnOnce(&mut T) -> Result<R>) -> Result<R> {
        let obj = self.get(bits)?;
        let mut guard = lock(&obj);
        f(&mut guard)
    }

    /// Removes the object behind `bits`; its handle and every copy of it
    /// become stale.
    pub fn remove(&self, bits: u64) -> Result<()> {
        let (index, generation) = self.locate(bits)?;
        let taken = {
            let mut s = lock(&self.inner);
            let taken = match s.slots.get_mut(index) {
                Some(slot) if slot.generation == generation && slot.value.is_some() => {
                    slot.generation = match (slot.generation + 1) & GENERATION_MASK {
                        0 => 1,
                        g => g,
                    };
                    slot.value.take()
                }
                _ => None,
            };
            if taken.is_some() {
                s.free.push(index as u32);
            }
            taken
        };
        // Dropped outside the registry lock: a big world takes a moment.
        match taken {
            Some(v) => {
                drop(v);
                Ok(())
            }
            None => Err(self.stale(bits)),
        }
    }
}

/// The body of a getter that writes one count of the object behind `bits`
/// into `out`: null `out`, a bad handle or an error of `count` give their
/// status.
pub(crate) fn count_into<T>(
    function: &'static str,
    registry: &Registry<T>,
    bits: u64,
    out: Option<&mut u32>,
    count: impl FnOnce(&mut T) -> Result<usize>,
) -> TressStatus {
    guard(function, || {
        let out = required(out, "out")?;
        registry.with(bits, |obj| {
            *out = index_out(count(obj)?);
            Ok(())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destroyed_handles_go_stale_even_when_the_slot_is_reused() {
        let r: Registry<i32> = Registry::new(7, "test");
        let a = r.insert(1);
        assert_eq!(*r.get(a).unwrap().lock().unwrap(), 1);
        r.remove(a).unwrap();
        assert_eq!(r.get(a).unwrap_err().status, TressStatus::StaleHandle);
        let b = r.insert(2);
        assert_ne!(a, b);
        assert_eq!(r.get(a).unwrap_err().status, TressStatus::StaleHandle);
        assert_eq!(r.remove(a).unwrap_err().status, TressStatus::StaleHandle);
        assert_eq!(r.get(0).unwrap_err().status, TressStatus::NullHandle);
        let other: Registry<i32> = Registry::new(8, "other");
        assert_eq!(other.get(b).unwrap_err().status, TressStatus::StaleHandle);
        assert_eq!(*r.get(b).unwrap().lock().unwrap(), 2);
    }
}
