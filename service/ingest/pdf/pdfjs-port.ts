/**
 * The channel between pdfjs's API and its worker code, both running in this thread. pdfjs's own fake
 * worker copies every message with `structuredClone`, which cost ~7% of the CPU spent reading text
 * (thousands of small text items per page); this one copies plain data with a loop.
 */

type Listener = (event: { data: unknown }) => void;

export interface PdfjsPort {
  postMessage(message: unknown, transfer?: readonly Transferable[]): void;
  addEventListener(type: "message", listener: Listener): void;
  removeEventListener(type: "message", listener: Listener): void;
  terminate(): void;
}

/**
 * A copy as structured cloning would make it, for what pdfjs sends: arrays, plain objects, typed arrays
 * (transferred ones handed over as they are). Anything else (Map, Error, class instances) is cloned the
 * standard way. Shared references are copied twice; pdfjs messages hold none that matter.
 */
function copy(value: unknown, transferred: ReadonlySet<unknown>): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) out[index] = copy(value[index], transferred);
    return out;
  }
  if (ArrayBuffer.isView(value)) return transferred.has(value.buffer) ? value : structuredClone(value);
  if (value instanceof ArrayBuffer) return transferred.has(value) ? value : value.slice(0);
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  const out: Record<string, unknown> = prototype === null ? Object.create(null) : {};
  for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key], transferred);
  return out;
}

/** Two connected ends; like a worker's, a message is delivered after the sender's current task. */
export function createPortPair(): [PdfjsPort, PdfjsPort] {
  // Microtasks queued on one settled promise run in order; unlike a chain, one throwing listener
  // does not swallow the messages after it.
  const settled = Promise.resolve();
  const end = (own: Set<Listener>, peer: Set<Listener>): PdfjsPort => ({
    postMessage(message, transfer = []) {
      const event = { data: copy(message, new Set<unknown>(transfer)) };
      void settled.then(() => {
        for (const listener of peer) listener(event);
      });
    },
    addEventListener: (_type, listener) => own.add(listener),
    removeEventListener: (_type, listener) => own.delete(listener),
    terminate: () => own.clear(),
  });
  const [api, worker] = [new Set<Listener>(), new Set<Listener>()];
  return [end(api, worker), end(worker, api)];
}
