// jigsolve's engines in the browser, on every core: one Web Worker per
// core (navigator.hardwareConcurrency), each with its own WebAssembly
// instance, and one more, the desk, that reads puzzles and draws pictures
// while the others search. A count is split into shards, one per worker,
// and their counts added up as `jigsolve merge` adds shard results; every
// goal of a calendar likewise, goal by goal; a best-board search runs on
// every worker with its own seed, and the first full score ends them all;
// a solve and the search tree run on one worker. No SharedArrayBuffer is
// needed: Stop ends the workers.

export class Engine {
  constructor(workers = navigator.hardwareConcurrency || 1, base = import.meta.url) {
    this.base = base;
    this.size = Math.max(1, workers);
    this.workers = [];
    this.desk = null;
    this.next = 0;
  }

  spawn() {
    return new Worker(new URL("worker.js", this.base));
  }

  worker(i) {
    while (this.workers.length <= i) this.workers.push(null);
    if (!this.workers[i]) this.workers[i] = this.spawn();
    return this.workers[i];
  }

  // One request to `worker`: its answer; each event to `onEvent`. A worker
  // that fails (its module cannot load, it ran out of memory) answers with
  // an error rather than never.
  post(worker, request, onEvent = () => {}) {
    const id = ++this.next;
    return new Promise((resolve) => {
      const done = (answer) => {
        worker.removeEventListener("message", listen);
        worker.removeEventListener("error", failed);
        resolve(answer);
      };
      const listen = (message) => {
        if (message.data.id !== id) return;
        if (message.data.event) onEvent(message.data.event);
        else done(message.data.answer);
      };
      const failed = (e) => done({ error: `the search worker failed: ${e.message || "it could not start"}` });
      worker.addEventListener("message", listen);
      worker.addEventListener("error", failed);
      worker.postMessage({ id, request });
    });
  }

  // One request on search worker `i`.
  ask(i, request, onEvent) {
    return this.post(this.worker(i), request, onEvent);
  }

  // One request on the desk (catalog, puzzle, picture, heat-map): never
  // behind a search, never ended by Stop.
  ask_desk(request) {
    if (!this.desk) this.desk = this.spawn();
    return this.post(this.desk, request);
  }

  // Ends search worker `i` (made anew when needed).
  end(i) {
    if (this.workers[i]) this.workers[i].terminate();
    this.workers[i] = null;
  }

  // A search (a request with route "search") on `n` workers; each event
  // to `onEvent` with the worker's number as `shard`. The answer is the
  // workers' answers merged; an error of any is the answer.
  async search(request, onEvent = () => {}, n = this.size) {
    const tagged = (i) => (e) => onEvent({ ...e, shard: i });
    request = { ...request, route: "search" };
    if (request.mode === "best") return this.best(request, tagged, n);
    if (!["count", "by-open"].includes(request.mode) || n === 1) return this.ask(0, request, tagged(0));
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) => this.ask(i, { ...request, shard: [i, n] }, tagged(i))),
    );
    const failed = answers.find((a) => a.error);
    if (failed) return failed;
    const merged = { summary: mergedSummary(answers.map((a) => a.summary)), counts_mean: answers[0].counts_mean, error: null };
    if (request.mode === "by-open") {
      merged.goals = mergedGoals(answers.map((a) => a.goals));
      const reached = merged.goals.filter((g) => g.counts.distinct > 0).length;
      merged.summary.goals = { with_solutions: reached, without: merged.goals.length - reached };
      const map = await this.ask_desk({ route: "heat-map", text: request.text, label: request.label, goals: merged.goals, complete: merged.summary.complete });
      if (map.error) return map;
      merged.heat_map = map.svg;
    }
    return merged;
  }

  // The best board on `n` workers, seeds `request.seed`, +1, ...: the
  // first to reach a full score ends the others.
  best(request, tagged, n) {
    const seed = request.seed ?? Date.now();
    return new Promise((resolve) => {
      let left = n;
      const answers = [];
      for (let i = 0; i < n; i++) {
        this.ask(i, { ...request, seed: seed + i }, tagged(i)).then((answer) => {
          if (left === 0) return;
          answers.push(answer);
          const full = answer.summary && answer.summary.end === "full score";
          if (answer.error || full || --left === 0) {
            left = 0;
            for (let j = 0; j < n; j++) if (j !== i) this.end(j);
            const summary = answer.error ? null : { ...answer.summary, workers: n };
            if (summary) summary.restarts = answers.reduce((sum, a) => sum + ((a.summary && a.summary.restarts) || 0), 0);
            resolve({ summary, error: answer.error || null });
          }
        });
      }
    });
  }

  // Stops every search: the search workers are ended (made anew when
  // needed); the desk stays.
  stop() {
    for (let i = 0; i < this.workers.length; i++) this.end(i);
  }
}

// The shards' summaries as one: counts, listed solutions and nodes added
// (unknown if any is), complete when every shard is, the longest time.
export function mergedSummary(summaries) {
  const summary = { ...summaries[0], shard: null, shards: summaries.length };
  for (const key of ["raw", "distinct", "unique", "listed", "nodes"]) {
    summary[key] = summaries.some((s) => s[key] === null) ? null : summaries.reduce((sum, s) => sum + s[key], 0);
  }
  summary.complete = summaries.every((s) => s.complete);
  summary.seconds = Math.max(...summaries.map((s) => s.seconds));
  return summary;
}

// The shards' goal lines added up goal by goal (a goal is its open cells);
// the goals with solutions first, each in the order the shards list them.
export function mergedGoals(lists) {
  const byOpen = new Map();
  for (const list of lists) {
    for (const goal of list) {
      const key = JSON.stringify(goal.open);
      const seen = byOpen.get(key);
      if (!seen) {
        byOpen.set(key, { ...goal, counts: { ...goal.counts } });
        continue;
      }
      for (const k of ["raw", "distinct", "unique"]) {
        seen.counts[k] = seen.counts[k] === null || goal.counts[k] === null ? null : seen.counts[k] + goal.counts[k];
      }
    }
  }
  const all = [...byOpen.values()];
  return [...all.filter((g) => g.counts.distinct !== 0), ...all.filter((g) => g.counts.distinct === 0)];
}
