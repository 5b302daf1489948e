//! The canvas job bound: slots, a bounded fair queue and a per-client cap.
//!
//! At most `max_jobs` canvas jobs run at once. A job that finds no slot
//! waits in a queue of at most `queue_cap` jobs for at most `deadline`; only
//! beyond those is it refused (503 with `Retry-After`). Waiting jobs are
//! served round-robin across clients (the rate limiter's client key), so a
//! client with many queued jobs delays another client by at most one job
//! per turn.
//!
//! A large job (an animation) holds more slots than its first, one per
//! part of its rendered pixels. It asks for them once it knows its plan,
//! holding its first slot: at once when they are free and nobody waits
//! for more before it, else in a first-come queue of its own, served
//! before any new job (so a stream of small jobs cannot starve it), until
//! the same deadline. Jobs waiting there hold at most half the slots
//! between them, so the slots the others free always cover the first
//! waiter's need (a plan asks for at most half the slots): a burst of
//! animations waits its turn instead of being refused at once.
//!
//! A few slots (a sixteenth of the pool, [`JobSlots::reserve`]) are kept
//! for clients with no job running: a client with jobs running, and an
//! animation taking its extra slots, leave them free, and while animations
//! wait for their extra slots such a client may still start one job in
//! them. So a client sending one request at a time is not held behind
//! other clients' animations, while a stream of new jobs from clients with
//! jobs running still cannot overtake a waiting animation (the waiters
//! hold at most half the pool less the reserve, so the slots freed outside
//! the reserve still cover the first waiter's need).
//!
//! Each client also has a cap on its weight in flight. A job weighs one
//! unit, or more when its avatar had to be decoded: [`JobPermit::weigh`]
//! charges the decode cost, and the client's following jobs are charged the
//! same weight up front while the client still has jobs here, so a client
//! sending expensive avatars runs few of them at once. A client with
//! nothing in flight is always admitted to a free slot, whatever its
//! weight.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::oneshot;

use crate::ratelimit::ClientKey;

/// The settings of a [`JobSlots`].
#[derive(Debug, Clone, Copy)]
pub struct SlotLimits {
    /// Jobs running at once.
    pub max_jobs: usize,
    /// Weight one client may have running at once (a job with a cached or
    /// small avatar weighs 1).
    pub per_client: u32,
    /// Jobs waiting at once; more are refused at once.
    pub queue_cap: usize,
    /// How long a job waits for a slot before it is refused.
    pub deadline: Duration,
}

/// Why a job got no slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The queue was full.
    QueueFull,
    /// The job waited `deadline` without getting a slot.
    Deadline,
}

/// The canvas job bound (see the module documentation).
#[derive(Debug)]
pub struct JobSlots {
    limits: SlotLimits,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    running: usize,
    queued: usize,
    next_id: u64,
    /// Jobs started from the reserve (see [`JobSlots::reserve`]).
    reserved: usize,
    clients: HashMap<ClientKey, Client>,
    /// Clients with waiting jobs, in round-robin order.
    turns: VecDeque<ClientKey>,
    /// Jobs that hold slots and wait for their extra slots, first come
    /// first served: (id, slots wanted, slots held, where to send them).
    /// A grant that finds its waiter gone gives its slots back on drop.
    extra_waiting: VecDeque<(u64, usize, usize, oneshot::Sender<ExtraSlots>)>,
}

#[derive(Debug)]
struct Client {
    /// Weight of this client's running jobs.
    weight: u32,
    /// What the client's next job is charged up front: the weight of its
    /// last decoded avatar (1 when small or cached).
    expected: u32,
    waiting: VecDeque<(u64, oneshot::Sender<JobPermit>)>,
}

impl Client {
    fn new() -> Self {
        Self {
            weight: 0,
            expected: 1,
            waiting: VecDeque::new(),
        }
    }
}

impl State {
    /// Whether `key` has no job running now.
    fn idle(&self, key: &ClientKey) -> bool {
        self.clients.get(key).is_none_or(|c| c.weight == 0)
    }

    fn client_fits(&self, key: &ClientKey, cap: u32) -> bool {
        self.clients
            .get(key)
            .is_none_or(|c| c.weight == 0 || c.weight.saturating_add(c.expected) <= cap)
    }

    /// Charges a new job to `key`: one slot, the client's expected weight.
    fn charge(&mut self, key: &ClientKey) -> u32 {
        self.running += 1;
        let client = self.clients.entry(key.clone()).or_insert_with(Client::new);
        client.weight = client.weight.saturating_add(client.expected);
        client.expected
    }

    /// Gives back one slot and `weight` of `key`'s weight.
    fn refund(&mut self, key: &ClientKey, weight: u32) {
        self.running -= 1;
        if let Some(client) = self.clients.get_mut(key) {
            client.weight = client.weight.saturating_sub(weight);
            if client.weight == 0 && client.waiting.is_empty() {
                self.clients.remove(key);
            }
        }
    }

    fn remove_waiter(&mut self, key: &ClientKey, id: u64) {
        let Some(client) = self.clients.get_mut(key) else {
            return;
        };
        let before = client.waiting.len();
        client.waiting.retain(|(w, _)| *w != id);
        if client.waiting.len() < before {
            self.queued -= 1;
        }
        if client.waiting.is_empty() {
            self.turns.retain(|k| k != key);
            if client.weight == 0 {
                self.clients.remove(key);
            }
        }
    }
}

impl JobSlots {
    /// A bound with these limits (each at least 1, the deadline as given).
    pub fn new(limits: SlotLimits) -> Arc<Self> {
        Arc::new(Self {
            limits: SlotLimits {
                max_jobs: limits.max_jobs.max(1),
                per_client: limits.per_client.max(1),
                queue_cap: limits.queue_cap,
                deadline: limits.deadline,
            },
            state: Mutex::default(),
        })
    }

    /// The limits in force.
    pub fn limits(&self) -> SlotLimits {
        self.limits
    }

    /// Slots kept for clients with no job running (a sixteenth of the
    /// pool: 4 of 64, none in a pool under 16): a client with jobs running
    /// starts a new one, and an animation takes its extra slots, only while
    /// this many stay free. While animations wait for their extra slots,
    /// no new job starts, except a job of a client with nothing running,
    /// within the reserve: so a client sending one request at a time never
    /// waits behind other clients' animations, and a stream of such
    /// clients delays a waiting animation by at most the reserve.
    pub fn reserve(&self) -> usize {
        self.limits.max_jobs / 16
    }

    /// Whether `client` may start a job now (its turn aside): `Some(from
    /// the reserve)`, or `None`.
    fn may_start(&self, state: &State, client: &ClientKey) -> Option<bool> {
        let idle = state.idle(client);
        let room = if idle {
            self.limits.max_jobs
        } else {
            self.limits.max_jobs - self.reserve()
        };
        if state.running >= room || !state.client_fits(client, self.limits.per_client) {
            return None;
        }
        if state.extra_waiting.is_empty() {
            Some(false)
        } else if idle && state.reserved < self.reserve() {
            Some(true)
        } else {
            None
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Jobs running now.
    pub fn running(&self) -> usize {
        self.lock().running
    }

    /// Jobs waiting for a slot now.
    pub fn queued(&self) -> usize {
        self.lock().queued
    }

    /// A slot for one job of `client`: at once when one is free (and the
    /// client is under its cap and has nobody waiting ahead of it), else
    /// after a fair wait of at most the deadline.
    pub async fn acquire(self: &Arc<Self>, client: ClientKey) -> Result<JobPermit, Refusal> {
        let (id, rx) = {
            let mut state = self.lock();
            let no_queue_ahead = state
                .clients
                .get(&client)
                .is_none_or(|c| c.waiting.is_empty());
            if no_queue_ahead && let Some(reserved) = self.may_start(&state, &client) {
                let weight = state.charge(&client);
                state.reserved += usize::from(reserved);
                return Ok(self.permit(client, weight, reserved));
            }
            if state.queued >= self.limits.queue_cap {
                return Err(Refusal::QueueFull);
            }
            let (tx, rx) = oneshot::channel();
            let id = state.next_id;
            state.next_id += 1;
            state.queued += 1;
            let entry = state
                .clients
                .entry(client.clone())
                .or_insert_with(Client::new);
            entry.waiting.push_back((id, tx));
            if entry.waiting.len() == 1 {
                state.turns.push_back(client.clone());
            }
            (id, rx)
        };
        let waiter = Waiter {
            slots: self,
            client,
            id,
        };
        let result = tokio::time::timeout(self.limits.deadline, rx).await;
        drop(waiter);
        match result {
            Ok(Ok(permit)) => Ok(permit),
            // The sender is only dropped by `Waiter` (gone now) or a grant.
            Ok(Err(_)) | Err(_) => Err(Refusal::Deadline),
        }
    }

    fn permit(self: &Arc<Self>, client: ClientKey, weight: u32, reserved: bool) -> JobPermit {
        JobPermit {
            slots: Arc::clone(self),
            client,
            weight,
            reserved,
        }
    }

    /// Hands free slots to waiting jobs: the first client in turn that is
    /// under its cap gets one, then goes to the back of the turns.
    fn dispatch(self: &Arc<Self>) {
        let mut refused = Vec::new();
        let mut refused_extra = Vec::new();
        {
            let mut state = self.lock();
            // Jobs waiting for their extra slots come first, in order; while
            // the first of them does not fit, no new job starts.
            let room = self.limits.max_jobs - self.reserve();
            while let Some(&(_, count, _, _)) = state.extra_waiting.front() {
                if state.running + count > room {
                    break;
                }
                let Some((_, count, _, tx)) = state.extra_waiting.pop_front() else {
                    break;
                };
                state.running += count;
                let grant = ExtraSlots {
                    slots: Arc::clone(self),
                    count,
                };
                if let Err(grant) = tx.send(grant) {
                    refused_extra.push(grant);
                }
            }
            while state.running < self.limits.max_jobs {
                let s = &*state;
                let Some((at, reserved)) = s
                    .turns
                    .iter()
                    .enumerate()
                    .find_map(|(at, k)| self.may_start(s, k).map(|r| (at, r)))
                else {
                    break;
                };
                let Some(key) = state.turns.remove(at) else {
                    break;
                };
                let Some((_, tx)) = state
                    .clients
                    .get_mut(&key)
                    .and_then(|c| c.waiting.pop_front())
                else {
                    continue;
                };
                state.queued -= 1;
                if state
                    .clients
                    .get(&key)
                    .is_some_and(|c| !c.waiting.is_empty())
                {
                    state.turns.push_back(key.clone());
                }
                let weight = state.charge(&key);
                state.reserved += usize::from(reserved);
                if let Err(permit) = tx.send(self.permit(key, weight, reserved)) {
                    // The waiter gave up a moment ago: the slot is given
                    // back (and dispatched again) outside the lock.
                    refused.push(permit);
                }
            }
        }
        drop(refused);
        drop(refused_extra);
    }
}

/// Removes a waiting job from the queue when it stops waiting (granted,
/// timed out, or its client went away).
struct Waiter<'a> {
    slots: &'a Arc<JobSlots>,
    client: ClientKey,
    id: u64,
}

impl Drop for Waiter<'_> {
    fn drop(&mut self) {
        self.slots.lock().remove_waiter(&self.client, self.id);
    }
}

/// One job's slot and weight; given back when dropped.
#[derive(Debug)]
pub struct JobPermit {
    slots: Arc<JobSlots>,
    client: ClientKey,
    weight: u32,
    /// Started from the reserve (see [`JobSlots::reserve`]).
    reserved: bool,
}

impl JobPermit {
    /// Sets the job's weight from its avatar's decode cost; the client's
    /// next jobs are charged the same up front while it has jobs here.
    pub fn weigh(&mut self, weight: u32) {
        let weight = weight.max(1);
        let mut state = self.slots.lock();
        if let Some(client) = state.clients.get_mut(&self.client) {
            client.weight = client.weight.saturating_sub(self.weight) + weight;
            client.expected = weight;
        }
        self.weight = weight;
    }
}

impl Drop for JobPermit {
    fn drop(&mut self) {
        {
            let mut state = self.slots.lock();
            state.refund(&self.client, self.weight);
            state.reserved -= usize::from(self.reserved);
        }
        self.slots.dispatch();
    }
}

/// Slots beyond its first that a large job (an animation) holds; given back
/// when dropped.
#[derive(Debug)]
pub struct ExtraSlots {
    slots: Arc<JobSlots>,
    count: usize,
}

impl JobSlots {
    /// `count` more slots for a job that already holds one, or `None` when
    /// they are not all free now or other jobs wait for theirs (never
    /// waits: for a job with nowhere to wait, such as a preview).
    pub fn try_acquire_extra(self: &Arc<Self>, count: usize) -> Option<ExtraSlots> {
        let mut state = self.lock();
        if !state.extra_waiting.is_empty()
            || state.running + count > self.limits.max_jobs - self.reserve()
        {
            return None;
        }
        state.running += count;
        Some(ExtraSlots {
            slots: Arc::clone(self),
            count,
        })
    }

    /// `count` more slots for a job that holds one: at once when they are
    /// free and no job waits for its own before this one, else in the
    /// first-come queue of such jobs until `until` (see the module
    /// documentation). `QueueFull` when the jobs waiting there already hold
    /// half the slots.
    pub async fn acquire_extra(
        self: &Arc<Self>,
        count: usize,
        until: std::time::Instant,
    ) -> Result<ExtraSlots, Refusal> {
        self.acquire_extra_holding(count, 1, until).await
    }

    /// [`acquire_extra`](Self::acquire_extra) for a job that already holds
    /// `held` slots (a job with two images takes a slot for the second
    /// before fetching it): the jobs waiting hold at most half the slots
    /// between them, counted by the slots each holds (`QueueFull` beyond),
    /// so the slots the others free still cover the first waiter's need.
    pub async fn acquire_extra_holding(
        self: &Arc<Self>,
        count: usize,
        held: usize,
        until: std::time::Instant,
    ) -> Result<ExtraSlots, Refusal> {
        let held = held.max(1);
        let (id, rx) = {
            let mut state = self.lock();
            let room = self.limits.max_jobs - self.reserve();
            if state.extra_waiting.is_empty() && state.running + count <= room {
                state.running += count;
                return Ok(ExtraSlots {
                    slots: Arc::clone(self),
                    count,
                });
            }
            let waiters_hold: usize = state.extra_waiting.iter().map(|w| w.2).sum();
            if (waiters_hold + held) * 2 > self.limits.max_jobs - 2 * self.reserve()
                || count + held > room
            {
                return Err(Refusal::QueueFull);
            }
            let (tx, rx) = oneshot::channel();
            let id = state.next_id;
            state.next_id += 1;
            state.extra_waiting.push_back((id, count, held, tx));
            (id, rx)
        };
        let waiter = ExtraWaiter { slots: self, id };
        let result = tokio::time::timeout_at(tokio::time::Instant::from_std(until), rx).await;
        drop(waiter);
        match result {
            Ok(Ok(extra)) => Ok(extra),
            // The sender is only dropped by `ExtraWaiter` (gone now).
            Ok(Err(_)) | Err(_) => Err(Refusal::Deadline),
        }
    }

    /// Jobs waiting for their extra slots now.
    pub fn waiting_for_extra(&self) -> usize {
        self.lock().extra_waiting.len()
    }
}

/// Takes a job waiting for its extra slots out of their queue when it stops
/// waiting; the jobs behind it may fit now.
struct ExtraWaiter<'a> {
    slots: &'a Arc<JobSlots>,
    id: u64,
}

impl Drop for ExtraWaiter<'_> {
    fn drop(&mut self) {
        let removed = {
            let mut state = self.slots.lock();
            let before = state.extra_waiting.len();
            state.extra_waiting.retain(|(w, _, _, _)| *w != self.id);
            state.extra_waiting.len() < before
        };
        if removed {
            self.slots.dispatch();
        }
    }
}

impl ExtraSlots {
    /// Slots held.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Takes `other`'s slots into this grant (given back together).
    pub fn absorb(&mut self, mut other: ExtraSlots) {
        self.count += std::mem::take(&mut other.count);
    }
}

impl Drop for ExtraSlots {
    fn drop(&mut self) {
        self.slots.lock().running -= self.count;
        self.slots.dispatch();
    }
}

#[cfg(test)]
mod tests {
    use std::net::{IpAddr, Ipv4Addr};

    use super::*;

    fn client(n: u8) -> ClientKey {
        ClientKey::Ip(IpAddr::V4(Ipv4Addr::new(10, 0, 0, n)))
    }

    fn slots(
        max_jobs: usize,
        per_client: u32,
        queue_cap: usize,
        deadline_ms: u64,
    ) -> Arc<JobSlots> {
        JobSlots::new(SlotLimits {
            max_jobs,
            per_client,
            queue_cap,
            deadline: Duration::from_millis(deadline_ms),
        })
    }

    /// Lets spawned tasks run until they are parked again.
    async fn settle() {
        for _ in 0..20 {
            tokio::task::yield_now().await;
        }
    }

    #[actix_rt::test]
    async fn a_job_waits_for_a_slot_then_runs() {
        let s = slots(1, 8, 4, 5_000);
        let first = s.acquire(client(1)).await.unwrap();
        let waiting = actix_rt::spawn({
            let s = Arc::clone(&s);
            async move { s.acquire(client(2)).await.map(|_| ()) }
        });
        settle().await;
        assert_eq!((s.running(), s.queued()), (1, 1));
        drop(first);
        assert_eq!(waiting.await.unwrap(), Ok(()));
        assert_eq!((s.running(), s.queued()), (0, 0));
    }

    #[actix_rt::test]
    async fn beyond_the_deadline_or_the_queue_cap_a_job_is_refused() {
        let s = slots(1, 8, 1, 50);
        let _held = s.acquire(client(1)).await.unwrap();
        let waiting = actix_rt::spawn({
            let s = Arc::clone(&s);
            async move { s.acquire(client(2)).await.map(|_| ()) }
        });
        settle().await;
        assert_eq!(
            s.acquire(client(3)).await.map(|_| ()),
            Err(Refusal::QueueFull)
        );
        assert_eq!(waiting.await.unwrap(), Err(Refusal::Deadline));
        assert_eq!(
            (s.running(), s.queued()),
            (1, 0),
            "the timed-out job left the queue"
        );
    }

    #[actix_rt::test]
    async fn a_client_runs_at_most_its_cap_while_others_get_slots() {
        let s = slots(8, 2, 16, 5_000);
        let a1 = s.acquire(client(1)).await.unwrap();
        let _a2 = s.acquire(client(1)).await.unwrap();
        // The third job of client 1 waits although slots are free...
        let a3 = actix_rt::spawn({
            let s = Arc::clone(&s);
            async move { s.acquire(client(1)).await.map(|_| ()) }
        });
        settle().await;
        assert_eq!((s.running(), s.queued()), (2, 1));
        // ...while another client gets one at once.
        let _b = s.acquire(client(2)).await.unwrap();
        assert_eq!(s.running(), 3);
        drop(a1);
        assert_eq!(a3.await.unwrap(), Ok(()));
    }

    #[actix_rt::test]
    async fn a_heavy_job_counts_by_its_weight_for_its_client() {
        let s = slots(8, 16, 16, 5_000);
        let mut heavy = s.acquire(client(1)).await.unwrap();
        heavy.weigh(14);
        // The client's next job is charged 14 up front: 14 + 14 > 16.
        let next = actix_rt::spawn({
            let s = Arc::clone(&s);
            async move { s.acquire(client(1)).await.map(|p| p.weight) }
        });
        settle().await;
        assert_eq!((s.running(), s.queued()), (1, 1));
        let _other = s.acquire(client(2)).await.unwrap();
        drop(heavy);
        assert_eq!(next.await.unwrap(), Ok(14));
    }

    #[actix_rt::test]
    async fn waiting_jobs_are_served_round_robin_across_clients() {
        let s = slots(1, 8, 64, 5_000);
        let held = s.acquire(client(9)).await.unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        // Client 1 queues six jobs, then clients 2 and 3 one each.
        let mut tasks = Vec::new();
        for c in [1, 1, 1, 1, 1, 1, 2, 3] {
            let (s, order) = (Arc::clone(&s), Arc::clone(&order));
            tasks.push(actix_rt::spawn(async move {
                let permit = s.acquire(client(c)).await.unwrap();
                order.lock().unwrap().push(c);
                tokio::task::yield_now().await;
                drop(permit);
            }));
            settle().await;
        }
        drop(held);
        for t in tasks {
            t.await.unwrap();
        }
        let order = order.lock().unwrap().clone();
        // First come first served would give [1, 1, 1, 1, 1, 1, 2, 3].
        assert_eq!(order, [1, 2, 3, 1, 1, 1, 1, 1]);
    }
    fn later(ms: u64) -> std::time::Instant {
        std::time::Instant::now() + Duration::from_millis(ms)
    }

    #[actix_rt::test]
    async fn an_animation_waits_for_its_extra_slots_instead_of_being_refused() {
        let s = slots(8, 16, 16, 5_000);
        // Three animations of four slots each arrive together: two fit.
        let mut running = Vec::new();
        for c in [1, 2] {
            let first = s.acquire(client(c)).await.unwrap();
            let extra = s.acquire_extra(3, later(5_000)).await.unwrap();
            running.push((first, extra));
        }
        assert_eq!(s.running(), 8);
        let third = actix_rt::spawn({
            let s = Arc::clone(&s);
            async move {
                let first = s.acquire(client(3)).await.unwrap();
                let extra = s.acquire_extra(3, later(5_000)).await;
                (first, extra)
            }
        });
        settle().await;
        assert_eq!((s.running(), s.queued()), (8, 1));
        // One animation gives back its extra slots: the third gets its
        // first slot and waits for three more while holding it.
        let (first_of_two, extra_of_two) = running.pop().unwrap();
        drop(extra_of_two);
        settle().await;
        assert_eq!((s.running(), s.waiting_for_extra()), (6, 1));
        // The last slot it needs frees up; it gets all three.
        drop(first_of_two);
        let (_first, extra) = third.await.unwrap();
        assert_eq!(extra.as_ref().map(|e| e.count), Ok(3));
        assert_eq!((s.running(), s.waiting_for_extra()), (8, 0));
    }

    #[actix_rt::test]
    async fn a_waiting_animation_is_not_overtaken_by_new_small_jobs() {
        let s = slots(4, 16, 16, 5_000);
        let small = s.acquire(client(1)).await.unwrap();
        let _small2 = s.acquire(client(1)).await.unwrap();
        let big = actix_rt::spawn({
            let s = Arc::clone(&s);
            async move {
                let first = s.acquire(client(2)).await.unwrap();
                let extra = s.acquire_extra(2, later(5_000)).await;
                (first, extra)
            }
        });
        settle().await;
        assert_eq!((s.running(), s.waiting_for_extra()), (3, 1));
        // A slot is free, but a new job waits behind the animation.
        let late = actix_rt::spawn({
            let s = Arc::clone(&s);
            async move { s.acquire(client(3)).await.map(|_| ()) }
        });
        settle().await;
        assert_eq!((s.running(), s.queued()), (3, 1));
        assert!(
            s.try_acquire_extra(1).is_none(),
            "nor does a job that cannot wait"
        );
        drop(small);
        let (first, extra) = big.await.unwrap();
        assert_eq!(extra.as_ref().map(|e| e.count), Ok(2));
        assert_eq!((s.running(), s.queued()), (4, 1));
        drop((first, extra));
        assert_eq!(late.await.unwrap(), Ok(()));
    }

    /// While an animation waits for its extra slots, a client with nothing
    /// running starts a job in the reserve; a client with a job running
    /// waits, and so does a second idle client once the reserve is taken.
    #[actix_rt::test]
    async fn a_client_with_nothing_running_starts_beside_a_waiting_animation() {
        let s = slots(16, 16, 16, 5_000);
        assert_eq!(s.reserve(), 1);
        let a = s.acquire(client(1)).await.unwrap();
        let a_extra = s.acquire_extra(7, later(5_000)).await.unwrap();
        let b = actix_rt::spawn({
            let s = Arc::clone(&s);
            async move {
                let first = s.acquire(client(2)).await.unwrap();
                let extra = s.acquire_extra(7, later(5_000)).await;
                (first, extra)
            }
        });
        settle().await;
        // 9 running; 7 more would pass the 15 outside the reserve.
        assert_eq!((s.running(), s.waiting_for_extra()), (9, 1));
        let busy = actix_rt::spawn({
            let s = Arc::clone(&s);
            async move { s.acquire(client(1)).await.map(|_| ()) }
        });
        settle().await;
        assert_eq!(s.queued(), 1, "a client with a job running waits");
        let victim = s.acquire(client(3)).await.unwrap();
        assert_eq!(s.running(), 10);
        let second = actix_rt::spawn({
            let s = Arc::clone(&s);
            async move { s.acquire(client(4)).await.map(|_| ()) }
        });
        settle().await;
        assert_eq!(s.queued(), 2, "the reserve is taken");
        drop(victim);
        assert_eq!(second.await.unwrap(), Ok(()));
        // The running animation ends: the waiting one gets its slots first.
        drop((a_extra, a));
        let (first, extra) = b.await.unwrap();
        assert_eq!(extra.as_ref().map(|e| e.count), Ok(7));
        drop((first, extra));
        assert_eq!(busy.await.unwrap(), Ok(()));
    }

    #[actix_rt::test]
    async fn waiting_for_extra_slots_is_bounded_by_half_the_slots_and_the_deadline() {
        let s = slots(4, 16, 16, 5_000);
        let _a = s.acquire(client(1)).await.unwrap();
        let _b = s.acquire(client(2)).await.unwrap();
        let _c = s.acquire(client(3)).await.unwrap();
        let waiting = actix_rt::spawn({
            let s = Arc::clone(&s);
            async move { s.acquire_extra(2, later(50)).await.map(|e| e.count) }
        });
        settle().await;
        assert_eq!(s.waiting_for_extra(), 1);
        let second = actix_rt::spawn({
            let s = Arc::clone(&s);
            async move { s.acquire_extra(2, later(5_000)).await.map(|e| e.count) }
        });
        settle().await;
        assert_eq!(s.waiting_for_extra(), 2);
        // Two waiters hold half of the four slots: a third is refused.
        assert_eq!(
            s.acquire_extra(1, later(5_000)).await.map(|e| e.count),
            Err(Refusal::QueueFull)
        );
        assert_eq!(waiting.await.unwrap(), Err(Refusal::Deadline));
        assert_eq!(s.waiting_for_extra(), 1, "the timed-out job left the queue");
        second.abort();
        settle().await;
        assert_eq!((s.running(), s.waiting_for_extra()), (3, 0));
    }
}
