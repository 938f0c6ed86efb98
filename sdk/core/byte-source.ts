/** One way to pull bytes from a web `ReadableStream` or any async iterable, abortable and cancellable. */

/** What the stream readers accept: a fetch `Response.body`, a web stream, or an async iterable of bytes. */
export type ByteStream = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface ByteSource {
  /** The next chunk, or null at the end. Rejects with `signal.reason` as soon as the signal aborts. */
  read(signal?: AbortSignal): Promise<Uint8Array | null>;
  /** Stops the source early (cancels the reader); does nothing once it has ended. */
  close(reason?: unknown): Promise<void>;
}

/** Opens a byte stream for reading; the stream is locked (web) or iterated (async iterable) from now on. */
export function openByteSource(stream: ByteStream): ByteSource {
  return isReadableStream(stream) ? openReadableStream(stream) : openAsyncIterable(stream);
}

function isReadableStream(stream: ByteStream): stream is ReadableStream<Uint8Array> {
  return typeof (stream as Partial<ReadableStream<Uint8Array>>).getReader === "function";
}

function openReadableStream(stream: ReadableStream<Uint8Array>): ByteSource {
  const reader = stream.getReader();
  let ended = false;
  return {
    async read(signal) {
      signal?.throwIfAborted();
      const result = await abortable(reader.read(), signal);
      if (result.done) {
        ended = true;
        reader.releaseLock();
        return null;
      }
      return checkChunk(result.value);
    },
    async close(reason) {
      if (ended) return;
      ended = true;
      // Cancelling settles a read still in flight, so this does not wait for more bytes.
      await reader.cancel(reason);
    },
  };
}

function openAsyncIterable(iterable: AsyncIterable<Uint8Array>): ByteSource {
  const iterator = iterable[Symbol.asyncIterator]();
  let ended = false;
  let inFlight: Promise<IteratorResult<Uint8Array>> | null = null;
  return {
    async read(signal) {
      signal?.throwIfAborted();
      const next = iterator.next();
      inFlight = next;
      const clear = () => {
        if (inFlight === next) inFlight = null;
      };
      next.then(clear, clear);
      const result = await abortable(next, signal);
      if (result.done) {
        ended = true;
        return null;
      }
      return checkChunk(result.value);
    },
    async close() {
      if (ended) return;
      ended = true;
      if (inFlight === null) {
        await iterator.return?.();
        return;
      }
      // An async generator queues `return()` behind the `next()` it is busy with, so waiting here
      // would hold an abort until the source speaks again. The caller already has its abort reason;
      // how the late clean-up goes has nobody left to report to.
      Promise.resolve()
        .then(() => iterator.return?.())
        .then(
          () => undefined,
          () => undefined,
        );
    },
  };
}

function checkChunk(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError(`expected Uint8Array chunks of bytes, got ${typeof chunk}`);
}

/** Settles with `promise`, or rejects with the abort reason as soon as `signal` aborts. */
function abortable<Value>(promise: Promise<Value>, signal: AbortSignal | undefined): Promise<Value> {
  if (signal === undefined) return promise;
  return new Promise<Value>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
}
