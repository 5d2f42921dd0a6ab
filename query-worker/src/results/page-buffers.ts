/**
 * Reusable buffers for the result pages a web process reads to answer a request. Reading pages
 * into fresh buffers made tens of MB of short-lived external memory per 100k-row answer, and V8
 * answers that with a full garbage collection every few requests (about 10 ms each on the web
 * thread). A page is read into a block taken from here, and the block goes back to a free list once
 * the page's bytes were written to the socket (`openRows` streams an answer two pages at a time).
 */
export class PageBufferPool implements PageBufferSource {
  private readonly free: Buffer[] = [];

  /**
   * @param blockBytes size of a pooled block: a page up to this size reuses one (a larger page gets its own buffer)
   * @param maxFree blocks kept for reuse; more are left to the garbage collector
   */
  constructor(readonly blockBytes = 2 * 1024 * 1024, private readonly maxFree = 32) {}

  /** Buffers for one page (or one request); `release()` once what was read into them has been sent (or abandoned). */
  lease(): PageBuffers {
    const taken: Buffer[] = [];
    let released = false;
    return {
      take: (size) => {
        if (size > this.blockBytes) return Buffer.allocUnsafe(size);
        const block = this.free.pop() ?? Buffer.allocUnsafeSlow(this.blockBytes);
        taken.push(block);
        return block;
      },
      release: () => {
        if (released) return;
        released = true;
        for (const block of taken) if (this.free.length < this.maxFree) this.free.push(block);
        taken.length = 0;
      },
    };
  }
}

/** Buffers lent to one request. */
export interface PageBuffers {
  /** A buffer of at least `size` bytes, the caller's until `release()`. */
  take(size: number): Buffer;
  /** Gives every buffer taken back; nothing read into them may be used afterwards. */
  release(): void;
}

/** Fresh buffers, for readers that keep what they read (nothing to give back). */
export const FRESH_BUFFERS: PageBuffers = { take: (size) => Buffer.allocUnsafe(size), release: () => undefined };

/** Lends the buffers a page is read into: a {@link PageBufferPool}, or {@link FRESH_PAGES}. */
export interface PageBufferSource {
  lease(): PageBuffers;
}

/** Fresh buffers for every page: for readers that keep what they read. */
export const FRESH_PAGES: PageBufferSource = { lease: () => FRESH_BUFFERS };
