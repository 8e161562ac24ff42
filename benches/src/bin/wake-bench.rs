//! What handing a frame's work to a second thread costs on this machine:
//! spawning and joining a scoped thread (what the strand step did until
//! 2026-11-30) against waking a parked thread and hearing back (what its
//! persistent helpers do). Each round starts after 0.5 ms idle, as a frame
//! does after the previous one.
//!
//! `cargo run --release -p tress-benches --bin wake-bench [-- ROUNDS]`

// A std-only tool: the core/alloc split of the library crates buys nothing here.
#![allow(clippy::std_instead_of_alloc, clippy::std_instead_of_core)]

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

fn report(name: &str, mut ns: Vec<u128>) {
    ns.sort_unstable();
    println!(
        "{name}: median {:.1} µs, p10 {:.1} µs, p90 {:.1} µs",
        ns[ns.len() / 2] as f64 / 1e3,
        ns[ns.len() / 10] as f64 / 1e3,
        ns[ns.len() * 9 / 10] as f64 / 1e3
    );
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000)
        .max(10);
    let idle = Duration::from_micros(500);

    let mut ns = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        std::thread::sleep(idle);
        let t = Instant::now();
        std::thread::scope(|s| {
            s.spawn(|| std::hint::black_box(1));
        });
        ns.push(t.elapsed().as_nanos());
    }
    report("scoped spawn + join", ns);

    // One parked thread: `order` carries the round number out, `reply` back.
    type Channel = (Mutex<u64>, Condvar);
    let order: Arc<Channel> = Arc::new((Mutex::new(0), Condvar::new()));
    let reply: Arc<Channel> = Arc::new((Mutex::new(0), Condvar::new()));
    let (o, r) = (Arc::clone(&order), Arc::clone(&reply));
    let helper = std::thread::spawn(move || {
        let mut seen = 0;
        loop {
            let mut g = o.0.lock().expect("order lock");
            while *g == seen {
                g = o.1.wait(g).expect("order wait");
            }
            seen = *g;
            drop(g);
            *r.0.lock().expect("reply lock") = seen;
            r.1.notify_one();
            if seen == u64::MAX {
                return;
            }
        }
    });
    let mut ns = Vec::with_capacity(rounds);
    for round in 1..=rounds as u64 {
        std::thread::sleep(idle);
        let t = Instant::now();
        *order.0.lock().expect("order lock") = round;
        order.1.notify_one();
        let mut g = reply.0.lock().expect("reply lock");
        while *g != round {
            g = reply.1.wait(g).expect("reply wait");
        }
        drop(g);
        ns.push(t.elapsed().as_nanos());
    }
    *order.0.lock().expect("order lock") = u64::MAX;
    order.1.notify_one();
    helper.join().expect("helper thread");
    report("parked thread woken + reply", ns);
}
