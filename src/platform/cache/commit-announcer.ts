/**
 * How long after one announcement of this process's commits the next may be sent: commits inside the
 * window are announced together when it ends.
 */
export const COMMIT_ANNOUNCEMENT_WINDOW_MS = 20;

/**
 * Announces this process's commits to the others at most once per `windowMs`. The first commit after a
 * quiet spell is announced on the next turn of the event loop (commits of the same turn share it);
 * commits during the window that follows are announced once, when it ends, which opens the next. So
 * every commit is announced within `windowMs` of it, and a busy process sends one announcement a window
 * instead of one a commit (each costs the database a transaction of its own and every listener a
 * wake-up). Returns the function to call on each commit.
 */
export function commitAnnouncer(announce: () => void, windowMs = COMMIT_ANNOUNCEMENT_WINDOW_MS): () => void {
  let scheduled = false;
  let windowOpen = false;
  let pending = false;
  const send = () => {
    announce();
    windowOpen = true;
    // Not kept alive for this: a process stopping within the window leaves the others to the caches'
    // own lifetime.
    setTimeout(() => {
      windowOpen = false;
      if (pending) {
        pending = false;
        send();
      }
    }, windowMs).unref();
  };
  return () => {
    if (scheduled) return;
    if (windowOpen) {
      pending = true;
      return;
    }
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      send();
    });
  };
}
