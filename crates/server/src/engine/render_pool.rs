//! A fixed pool of render threads with a first-in, first-out queue.
//!
//! Rendering and PNG encoding are pure CPU work. Running each of them on its
//! own blocking thread (up to `--canvas-jobs` at once) time-slices the cores
//! between every image in flight, so all of them finish late together, the
//! cores thrash their caches, and the HTTP workers compete with dozens of
//! runnable threads. This pool runs CPU work on as many threads as there are
//! cores (`--render-threads`), in arrival order: an image's latency is the
//! work queued ahead of it plus its own, and the async workers keep a core's
//! worth of room to answer JSON. Network waits (avatar fetches) stay on the
//! blocking pool, where a slow host costs a parked thread and no CPU.
//!
//! The queue needs no bound of its own: it never holds more than the canvas
//! job slots admitted (see `engine::canvas`).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::oneshot;

type Task = Box<dyn FnOnce() + Send + 'static>;

/// The render threads and the queue feeding them. Cloning shares the pool.
#[derive(Clone)]
pub struct RenderPool {
    queue: mpsc::Sender<Task>,
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
    /// `menagerie-render-<n>`. They stop when the last clone of the pool is
    /// dropped and the queue has drained.
    pub fn new(threads: usize) -> std::io::Result<Self> {
        let threads = threads.max(1);
        let (queue, rx) = mpsc::channel::<Task>();
        let rx = Arc::new(Mutex::new(rx));
        for n in 0..threads {
            let rx = Arc::clone(&rx);
            std::thread::Builder::new()
                .name(format!("menagerie-render-{n}"))
                .spawn(move || {
                    loop {
                        // The lock is held only while taking the next task.
                        let next = rx.lock().unwrap_or_else(PoisonError::into_inner).recv();
                        match next {
                            Ok(task) => task(),
                            Err(mpsc::RecvError) => break,
                        }
                    }
                })?;
        }
        Ok(Self { queue, threads })
    }

    /// How many render threads run.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `work` on a render thread, after the tasks queued before it,
    /// and waits for its result without blocking the caller's thread.
    ///
    /// The task runs to the end even if the returned future is dropped (a
    /// client that went away): whatever it owns, such as a job slot, is
    /// released when it finishes.
    pub async fn run<T, F>(&self, work: F) -> Result<T, TaskPanicked>
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
        // The threads hold the receiver until every sender is dropped, so a
        // send cannot fail while `self` is alive.
        self.queue.send(task).map_err(|_| TaskPanicked)?;
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
