// jigsolve's engines in the browser, on every core: one Web Worker per
// core (navigator.hardwareConcurrency), each with its own WebAssembly
// instance. A count is split into shards, one per worker, and their counts
// added up as `jigsolve merge` adds shard results; the first solution of a
// solve comes from one worker walking the whole tree. No SharedArrayBuffer
// is needed.

export class Engine {
  constructor(workers = navigator.hardwareConcurrency || 1, base = import.meta.url) {
    this.base = base;
    this.size = Math.max(1, workers);
    this.workers = [];
    this.next = 0;
  }

  worker(i) {
    while (this.workers.length <= i) {
      this.workers.push(new Worker(new URL("worker.js", this.base)));
    }
    return this.workers[i];
  }

  // One request on worker `i`: its answer; each event to `onEvent`.
  ask(i, request, onEvent = () => {}) {
    const worker = this.worker(i);
    const id = ++this.next;
    return new Promise((resolve) => {
      const listen = (message) => {
        if (message.data.id !== id) return;
        if (message.data.event) onEvent(message.data.event);
        else {
          worker.removeEventListener("message", listen);
          resolve(message.data.answer);
        }
      };
      worker.addEventListener("message", listen);
      worker.postMessage({ id, request });
    });
  }

  // A search: a count on every worker, a shard each, merged; a solve on
  // one. The merged summary adds the shards' counts, nodes and listed
  // solutions; an error of any shard is the answer.
  async search(request, onEvent = () => {}) {
    if (request.mode !== "count" || this.size === 1) {
      return this.ask(0, { ...request, route: "search" }, onEvent);
    }
    const n = this.size;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        this.ask(i, { ...request, route: "search", shard: [i, n] }, (e) => onEvent({ ...e, shard: i })),
      ),
    );
    const failed = answers.find((a) => a.error);
    if (failed) return failed;
    const summary = { ...answers[0].summary, shard: null, shards: n };
    for (const key of ["raw", "distinct", "unique", "listed", "nodes"]) {
      summary[key] = answers.some((a) => a.summary[key] === null)
        ? null
        : answers.reduce((sum, a) => sum + a.summary[key], 0);
    }
    summary.complete = answers.every((a) => a.summary.complete);
    summary.seconds = Math.max(...answers.map((a) => a.summary.seconds));
    return { summary, counts_mean: answers[0].counts_mean, error: null };
  }

  // Stops every search: the workers are ended and made anew when needed.
  stop() {
    for (const w of this.workers) w.terminate();
    this.workers = [];
  }
}
