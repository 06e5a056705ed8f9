/**
 * One pooled connection per thread while the thread's statements follow each other without a pause.
 * A run saves a checkpoint per superstep; between two saves its nodes usually run without waiting on
 * the event loop, so checking a connection out of the pool for each statement (`pool.query`: a
 * checkout, a timer for the checkout's timeout, listeners, a release) paid that bookkeeping 8 times a
 * report run where one checkout does. A thread keeps its connection from one statement to the next as
 * long as the next one starts within two turns of the event loop (`setImmediate`, twice: an async run's
 * checkpoints follow its first read one turn later); as soon as the run waits on anything else (a
 * node's I/O, a timer, the end of the run), the connection goes back to the pool. So no connection sits idle with a thread while another thread waits for one, and the pool's
 * size bounds the connections as before.
 */
import type { PostgresPool, PostgresPoolClient, PostgresQuery, PostgresResult } from "./pool.js";

/** A checked-out connection and the thread's statements under way on it. */
interface Lease {
  readonly client: Promise<PostgresPoolClient>;
  /** Statements sent and not yet answered. */
  active: number;
  /** The pending return to the pool, cancelled when another statement of the thread starts first. */
  release: ReturnType<typeof setImmediate> | undefined;
  /** Set when the connection failed: it is returned to the pool with the error (which discards it). */
  broken: Error | undefined;
  /** Removes the lease's listener for the connection's `error` event, before it goes back to the pool. */
  unlisten: (() => void) | undefined;
}

/** A client's `on("error")` / `off("error")`, which `pg`'s clients have; a pool of yours may omit them. */
interface Listening {
  on?(event: "error", listener: (error: Error) => void): unknown;
  off?(event: "error", listener: (error: Error) => void): unknown;
}

/** The per-thread connections of one checkpointer's pool; see the module comment. */
export class ThreadLeases {
  readonly #pool: PostgresPool;
  readonly #leases = new Map<string, Lease>();

  constructor(pool: PostgresPool) {
    this.#pool = pool;
  }

  /** Runs `query` on the thread's connection (checked out for it when it has none). */
  async query<R>(threadId: string, query: PostgresQuery): Promise<PostgresResult<R>> {
    const lease = this.#leaseOf(threadId);
    lease.active++;
    if (lease.release !== undefined) clearImmediate(lease.release);
    lease.release = undefined;
    try {
      const client = await lease.client;
      return await client.query<R>(query);
    } catch (error) {
      // A failed statement may have left the connection unusable: it is not reused.
      lease.broken ??= error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      lease.active--;
      if (lease.active === 0) this.#releaseLater(threadId, lease);
    }
  }

  /**
   * Gives the connection back two turns of the event loop from now, unless another statement of the
   * thread starts first. Two, not one: an async-durability run stores its checkpoints from a
   * `setImmediate` queued after its latest read's statement ended (engine/threads/durability.ts), and
   * one turn gave the connection back just before that `saveMany` checked it out again.
   */
  #releaseLater(threadId: string, lease: Lease): void {
    lease.release = setImmediate(() => {
      lease.release = setImmediate(() => this.#return(threadId, lease));
    });
  }

  /** Returns every idle connection to the pool now (before the pool ends). */
  releaseAll(): Promise<void> {
    const returned: Promise<void>[] = [];
    for (const [threadId, lease] of this.#leases) {
      if (lease.active > 0) continue;
      if (lease.release !== undefined) clearImmediate(lease.release);
      returned.push(this.#return(threadId, lease));
    }
    return Promise.all(returned).then(() => undefined);
  }

  #leaseOf(threadId: string): Lease {
    const held = this.#leases.get(threadId);
    if (held !== undefined && held.broken === undefined) return held;
    const lease: Lease = { client: this.#checkout(() => lease), active: 0, release: undefined, broken: undefined, unlisten: undefined };
    // The checkout's failure is the first statement's (it awaits it); this lease is then dropped.
    lease.client.catch((error: unknown) => {
      lease.broken ??= error instanceof Error ? error : new Error(String(error));
      if (this.#leases.get(threadId) === lease) this.#leases.delete(threadId);
    });
    this.#leases.set(threadId, lease);
    return lease;
  }

  /** A connection from the pool, whose `error` event (the server gone while it is out) marks the lease broken. */
  async #checkout(leaseOf: () => Lease): Promise<PostgresPoolClient> {
    const client = await this.#pool.connect();
    const listening = client as PostgresPoolClient & Listening;
    // Unheard, an `error` event on a checked-out client would crash the process; the statement under
    // way fails on its own, so marking the lease is all the listener does.
    const onError = (error: Error) => {
      leaseOf().broken ??= error;
    };
    listening.on?.("error", onError);
    leaseOf().unlisten = () => listening.off?.("error", onError);
    return client;
  }

  async #return(threadId: string, lease: Lease): Promise<void> {
    if (lease.active > 0) return;
    if (this.#leases.get(threadId) === lease) this.#leases.delete(threadId);
    lease.release = undefined;
    const client = await lease.client.catch(() => undefined);
    if (client === undefined) return;
    lease.unlisten?.();
    client.release(lease.broken);
  }
}
