//! A fixed pool of render threads with two first-in, first-out queues: one
//! for still images, one for animations.
//!
//! Rendering and PNG encoding are pure CPU work. Running each of them on its
//! own blocking thread (up to `--canvas-jobs` at once) time-slices the cores
//! between every image in flight, so all of them finish late together, the
//! cores thrash their caches, and the HTTP workers compete with dozens of
//! runnable threads. This pool runs CPU work on as many threads as there are
//! cores (`--render-threads`), in arrival order, and the async workers keep
//! a core's worth of room to answer JSON. Network waits (avatar fetches)
//! stay on the blocking pool, where a slow host costs a parked thread and no
//! CPU.
//!
//! **The still lane.** An animation renders and encodes for up to seconds
//! (hundreds of frames), a still image for milliseconds. With one queue, a
//! client sending cheap requests for costly animations holds every thread,
//! and everyone's still image waits seconds behind them. So still images
//! ([`Lane::Still`]) have a queue of their own, served first by every
//! thread, and one more thread that serves only them while animations hold
//! every other thread: a still image waits behind other still images only,
//! never behind an animation queued or running (the kernel shares the cores
//! between the threads running), and without animations the still images
//! run on one thread per core as before. An
//! animation ([`Lane::Animation`]) waits for one of the `--render-threads`
//! threads; between still images it is never overtaken for ever, as still
//! images are bounded by the job slots and each takes milliseconds.
//!
//! The queues need no bound of their own: they never hold more than the
//! canvas job slots admitted (see `engine::canvas`).

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use tokio::sync::oneshot;

type Task = Box<dyn FnOnce() + Send + 'static>;

/// Which queue a task waits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// A still image: served first by every thread, and by the still
    /// lane's own thread.
    Still,
    /// An animation: served by the `--render-threads` threads when no still
    /// image waits.
    Animation,
}

#[derive(Default)]
struct Queues {
    still: VecDeque<Task>,
    animation: VecDeque<Task>,
    /// Animations running now.
    animations_running: usize,
    /// Set when the last handle is dropped: threads stop once drained.
    closed: bool,
}

#[derive(Default)]
struct Shared {
    queues: Mutex<Queues>,
    ready: Condvar,
    /// The `--render-threads` threads (those that also serve animations).
    threads: usize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queues> {
        self.queues.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next task for a thread (`still_only`: the still lane's own
    /// thread, which takes one only while animations hold every other
    /// thread, so a still-only load runs on one thread per core), waiting
    /// for one, and whether it is an animation; `None` once the pool is
    /// closed and drained.
    fn next(&self, still_only: bool) -> Option<(Task, bool)> {
        let mut q = self.lock();
        loop {
            if (!still_only || q.animations_running >= self.threads)
                && let Some(task) = q.still.pop_front()
            {
                return Some((task, false));
            }
            if !still_only && let Some(task) = q.animation.pop_front() {
                q.animations_running += 1;
                // The still lane's thread may take a still image now.
                self.ready.notify_all();
                return Some((task, true));
            }
            // Closed: the still lane's thread leaves at once (the others
            // drain both queues), the others once both are empty.
            if q.closed && (still_only || (q.still.is_empty() && q.animation.is_empty())) {
                return None;
            }
            q = self.ready.wait(q).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// Closes the queues when the last clone of the pool is dropped.
struct Handle(Arc<Shared>);

impl Drop for Handle {
    fn drop(&mut self) {
        self.0.lock().closed = true;
        self.0.ready.notify_all();
    }
}

/// The render threads and the queues feeding them. Cloning shares the pool.
#[derive(Clone)]
pub struct RenderPool {
    handle: Arc<Handle>,
    threads: usize,
}

impl std::fmt::Debug for RenderPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RenderPool")
            .field("threads", &self.threads)
            .finish_non_exhaustive()
    }
}

/// The task panicked (a bug: the renderer returns typed errors). The pool
/// thread survives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the render task panicked")]
pub struct TaskPanicked;

impl RenderPool {
    /// Starts `threads` render threads (at least one), named
    /// `menagerie-render-<n>`, and the still lane's own thread,
    /// `menagerie-render-still`. They stop when the last clone of the pool
    /// is dropped and the queues have drained.
    pub fn new(threads: usize) -> std::io::Result<Self> {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            threads,
            ..Shared::default()
        });
        let names = (0..threads)
            .map(|n| (format!("menagerie-render-{n}"), false))
            .chain(std::iter::once(("menagerie-render-still".to_owned(), true)));
        for (name, still_only) in names {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new().name(name).spawn(move || {
                while let Some((task, animation)) = shared.next(still_only) {
                    task();
                    if animation {
                        shared.lock().animations_running -= 1;
                    }
                }
            })?;
        }
        Ok(Self {
            handle: Arc::new(Handle(shared)),
            threads,
        })
    }

    /// How many render threads serve animations (`--render-threads`); the
    /// still lane has one more.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `work` in the animation lane: [`run_in`](Self::run_in).
    pub async fn run<T, F>(&self, work: F) -> Result<T, TaskPanicked>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        self.run_in(Lane::Animation, work).await
    }

    /// Runs `work` on a render thread, after the tasks queued before it in
    /// its lane (and, for an animation, after every still image queued),
    /// and waits for its result without blocking the caller's thread.
    ///
    /// The task runs to the end even if the returned future is dropped (a
    /// client that went away): whatever it owns, such as a job slot, is
    /// released when it finishes.
    pub async fn run_in<T, F>(&self, lane: Lane, work: F) -> Result<T, TaskPanicked>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let (tx, rx) = oneshot::channel();
        let task: Task = Box::new(move || {
            if let Ok(value) = catch_unwind(AssertUnwindSafe(work)) {
                // The receiver may be gone (client left); nothing to do then.
                let _ = tx.send(value);
            }
        });
        let shared = &self.handle.0;
        {
            let mut q = shared.lock();
            match lane {
                Lane::Still => q.still.push_back(task),
                Lane::Animation => q.animation.push_back(task),
            }
        }
        shared.ready.notify_all();
        rx.await.map_err(|_| TaskPanicked)
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[actix_rt::test]
    async fn results_come_back_and_panics_are_contained() {
        let pool = RenderPool::new(2).unwrap();
        assert_eq!(pool.run(|| 6 * 7).await, Ok(42));
        assert_eq!(
            pool.run(|| -> u8 { panic!("boom") }).await,
            Err(TaskPanicked)
        );
        // Both threads still serve after a panic.
        let names: Vec<String> = futures_join(&pool).await;
        assert!(
            names.iter().all(|n| n.starts_with("menagerie-render-")),
            "{names:?}"
        );
    }

    async fn futures_join(pool: &RenderPool) -> Vec<String> {
        let mut out = Vec::new();
        for _ in 0..4 {
            out.push(
                pool.run(|| std::thread::current().name().unwrap_or("").to_owned())
                    .await
                    .unwrap(),
            );
        }
        out
    }

    #[actix_rt::test]
    async fn one_thread_runs_tasks_in_arrival_order() {
        let pool = RenderPool::new(1).unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let started = Arc::new(AtomicUsize::new(0));
        let mut waits = Vec::new();
        for i in 0..8 {
            let order = Arc::clone(&order);
            let started = Arc::clone(&started);
            let pool = pool.clone();
            waits.push(actix_rt::spawn(async move {
                pool.run(move || {
                    started.fetch_add(1, Ordering::SeqCst);
                    order.lock().unwrap().push(i);
                })
                .await
            }));
            // Let the spawned future queue its task before the next one.
            actix_rt::task::yield_now().await;
        }
        for w in waits {
            w.await.unwrap().unwrap();
        }
        assert_eq!(*order.lock().unwrap(), (0..8).collect::<Vec<_>>());
    }

    /// A still image runs while animations hold every thread and more
    /// wait: on the still lane's own thread.
    #[actix_rt::test]
    async fn a_still_image_does_not_wait_behind_animations() {
        let pool = RenderPool::new(1).unwrap();
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let wait = Arc::new(Mutex::new(wait));
        let started = Arc::new(AtomicUsize::new(0));
        let mut animations = Vec::new();
        for _ in 0..3 {
            let (pool, wait, started) = (pool.clone(), Arc::clone(&wait), Arc::clone(&started));
            animations.push(actix_rt::spawn(async move {
                pool.run_in(Lane::Animation, move || {
                    started.fetch_add(1, Ordering::SeqCst);
                    let _ = wait
                        .lock()
                        .unwrap()
                        .recv_timeout(std::time::Duration::from_secs(30));
                })
                .await
            }));
        }
        // The one render thread runs an animation (the others queue).
        while started.load(Ordering::SeqCst) == 0 {
            actix_rt::time::sleep(std::time::Duration::from_millis(1)).await;
        }
        let name = pool
            .run_in(Lane::Still, || {
                std::thread::current().name().unwrap_or("").to_owned()
            })
            .await
            .unwrap();
        assert_eq!(name, "menagerie-render-still");
        for _ in 0..3 {
            release.send(()).unwrap();
        }
        for a in animations {
            a.await.unwrap().unwrap();
        }
    }

    #[actix_rt::test]
    async fn a_dropped_waiter_does_not_stop_the_task() {
        let pool = RenderPool::new(1).unwrap();
        let done = Arc::new(AtomicUsize::new(0));
        let d = Arc::clone(&done);
        let fut = pool.run(move || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            d.fetch_add(1, Ordering::SeqCst);
        });
        // Poll once so the task is queued, then drop the future.
        let _ = futures_poll_once(fut).await;
        // A later task runs after it on the single thread.
        pool.run(|| ()).await.unwrap();
        assert_eq!(done.load(Ordering::SeqCst), 1);
    }

    async fn futures_poll_once<F: std::future::Future>(fut: F) -> Option<F::Output> {
        let mut fut = std::pin::pin!(fut);
        std::future::poll_fn(|cx| match fut.as_mut().poll(cx) {
            std::task::Poll::Ready(v) => std::task::Poll::Ready(Some(v)),
            std::task::Poll::Pending => std::task::Poll::Ready(None),
        })
        .await
    }
}
