// Where the page's searches run: one page, two back ends. The page of
// `jigsolve serve` asks the server over its JSON API and event stream; the
// static site (scripts/site.sh) asks jigsolve's WebAssembly build in Web
// Workers on the visitor's own cores, and sends nothing anywhere. Both
// answer the page in the server's words (the same progress and outcome
// objects), so app.js does not know which it talks to.
//
// A back end has: kind; catalog() (the list); entry(name), read(text,
// label), puzzlePng(text, label) answering {ok, data} as the server's API
// does; status() (a line about the server, or null); most() (the threads
// a search may take); start(request, on) answering {ok, data}: on success
// data is a run, whose events come to on.progress(p), on.done(outcome)
// and on.lost(message). A run has stop(), close(), picture(kind, n) (an
// address for an <img>: kind solution, best or tree) and file(kind, n,
// format) and allSolutions() (a {blob, name} to save).
"use strict";

function makeBackend() {
  return document.body.dataset.backend === "browser" ? browserBackend() : serverBackend();
}

// ---------- the server ----------

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const type = response.headers.get("Content-Type") || "";
  const data = type.startsWith("application/json") ? await response.json() : await response.blob();
  return { ok: response.ok, status: response.status, data, response };
}

// The name a download is saved under, as the server's answer gives it.
function savedName(response, fallback) {
  const m = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
  return m ? m[1] : fallback;
}

function serverBackend() {
  let most = 1;
  return {
    kind: "server",
    async catalog() {
      const { ok, data } = await api("api/catalog");
      return ok ? data : [];
    },
    entry: (name) => api("api/catalog/" + encodeURIComponent(name)),
    read: (text, label) => api("api/puzzle", { text, label }),
    puzzlePng: (text, label) => api("api/puzzle/png", { text, label }),
    async status() {
      const { ok, data } = await api("api/status");
      if (!ok) return null;
      most = data.limits.threads;
      return `server: ${data.running} searches running on ${data.threads} threads, ${data.waiting} waiting (at most ${data.limits.threads} threads at once, ${data.limits.waiting} searches waiting)`;
    },
    most: () => most,
    async start(request, on) {
      const { ok, data } = await api("api/search", request);
      if (!ok) return { ok, data };
      const id = data.id;
      const events = new EventSource(`api/search/${id}/events`);
      let done = false;
      events.addEventListener("progress", (e) => on.progress(JSON.parse(e.data)));
      events.addEventListener("done", (e) => {
        done = true;
        on.done(JSON.parse(e.data));
      });
      events.onerror = () => {
        if (!done) on.lost("lost the connection to the server; the search is cancelled");
        events.close();
      };
      const address = (kind, n) => kind === "solution" ? `api/search/${id}/solution/${n}` : `api/search/${id}/${kind}`;
      const file = async (path, fallback) => {
        const got = await api(path);
        if (!got.ok) throw new Error(got.data.error || "the server has no such file");
        const blob = got.data instanceof Blob ? got.data : new Blob([JSON.stringify(got.data)], { type: "application/json" });
        return { blob, name: savedName(got.response, fallback) };
      };
      return {
        ok: true,
        data: {
          stop: () => api(`api/search/${id}/stop`, {}),
          close: () => events.close(),
          // The board number makes each better board a new address, not a
          // cached picture.
          picture: async (kind, n) => `${address(kind, n)}?format=svg` + (kind === "best" ? `&board=${n}` : ""),
          file: (kind, n, format) => file(`${address(kind, n)}?format=${format}&download`, `${kind}.${format}`),
          allSolutions: () => file(`api/search/${id}/solutions`, "solutions.jsonl"),
        },
      };
    },
  };
}

// ---------- the browser: WebAssembly in Web Workers ----------

// At most this many solutions are kept for browsing (the server's default).
const KEPT_IN_BROWSER = 1000;

// A picture as PNG, drawn by the browser from its SVG.
async function pngOf(svg) {
  const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const context = canvas.getContext("2d");
    context.fillStyle = "white";
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(img, 0, 0);
    return await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
  } finally {
    URL.revokeObjectURL(url);
  }
}

// An error answer of the engines as the server's API gives it: the
// message, and its line when it names one of `label`.
function refused(label, message) {
  const m = message.startsWith(label + ":") ? /^(\d+):/.exec(message.slice(label.length + 1)) : null;
  return { ok: false, data: { error: message, line: m ? Number(m[1]) : null } };
}

function fileStem(name) {
  return name.replace(/\.[a-z]+$/i, "").replace(/[^A-Za-z0-9_.-]/g, "_") || "puzzle";
}

function browserBackend() {
  const cores = navigator.hardwareConcurrency || 1;
  // A browser may refuse modules and workers to a page opened from a file
  // (Chromium does): then every answer says so.
  const loading = import("./jigsolve.js").then(({ Engine }) => new Engine(cores));
  const unloaded = (e) => ({
    error: `the engines could not be loaded (${e.message || e}); a browser may refuse them to a page opened from a file: serve this folder (for example python3 -m http.server) and open its address`,
  });
  const desk = async (request) => {
    try {
      return (await loading).ask_desk(request);
    } catch (e) {
      return unloaded(e);
    }
  };
  const answered = (label, answer) => (answer.error ? refused(label, answer.error) : { ok: true, data: answer });
  let running = null;
  return {
    kind: "browser",
    async catalog() {
      const answer = await desk({ route: "catalog" });
      if (answer.error) document.getElementById("server").textContent = answer.error;
      return answer.puzzles || [];
    },
    async entry(name) {
      const answer = await desk({ route: "catalog", name });
      return answer.error ? { ok: false, data: answer } : { ok: true, data: answer };
    },
    read: async (text, label) => answered(label, await desk({ route: "puzzle", text, label })),
    async puzzlePng(text, label) {
      const read = answered(label, await desk({ route: "puzzle", text, label }));
      return read.ok ? { ok: true, data: await pngOf(read.data.svg) } : read;
    },
    async status() {
      if (await loading.then(() => false, () => true)) return null;
      return `in this browser: WebAssembly on ${cores} Web Worker${cores === 1 ? "" : "s"} (one per core), nothing sent anywhere`;
    },
    most: () => cores,
    async start(request, on) {
      let engine;
      try {
        engine = await loading;
      } catch (e) {
        return { ok: false, data: unloaded(e) };
      }
      if (running) running.stop();
      // The puzzle is read first, so that bad input is the answer, as the
      // server's.
      const read = answered(request.label, await desk({ route: "puzzle", text: request.text, label: request.label }));
      if (!read.ok) return read;
      if (request.mode === "best" && read.data.family !== "edge") {
        return refused(request.label, `${request.label}: the best-board search is for edge-matching puzzles; this is ${read.data.family}`);
      }
      const run = browserRun(engine, desk, request, read.data, on);
      running = run;
      return { ok: true, data: run };
    },
  };
}

// One search on the workers, told to the page as the server tells it.
function browserRun(engine, desk, request, puzzle, on) {
  const { text, label, mode } = request;
  const puzzleName = puzzle.name;
  const options = { ...request.options };
  const workers = Math.max(1, options.threads || 1);
  delete options.threads;
  const kept = [];
  const shards = new Map(); // per worker: its last progress and solutions seen
  let best = null, bestFound = null, improvements = 0, ended = false, tree = null;
  const started = performance.now();
  const urls = [];
  const stem = fileStem(puzzleName);

  const progress = (phase) => {
    let nodes = 0, solutions = 0, fraction = 0;
    for (const s of shards.values()) {
      nodes += s.nodes;
      solutions += Math.max(s.solutions, s.seen);
      fraction += s.fraction;
    }
    const seconds = (performance.now() - started) / 1000;
    const p = { phase, mode, puzzle: puzzleName, listed: solutions, kept: kept.length, nodes, seconds, rate: Math.round(nodes / Math.max(seconds, 1e-9)), solutions };
    if (mode === "count" || mode === "by-open") {
      p.fraction = fraction / workers;
      if (p.fraction > 0 && p.fraction < 1 && phase === "running") p.seconds_left = seconds * (1 - p.fraction) / p.fraction;
    }
    if (best) {
      p.best = { score: best.score, max: best.max, nodes: bestFound.nodes, seconds: bestFound.seconds, link: best.link, improvements };
    }
    return p;
  };
  const shard = (i) => {
    if (!shards.has(i)) shards.set(i, { nodes: 0, solutions: 0, seen: 0, fraction: 0 });
    return shards.get(i);
  };
  let last = 0;
  const onEvent = (e) => {
    if (ended) return;
    const s = shard(e.shard || 0);
    if (e.type === "progress") {
      s.nodes = e.nodes;
      s.solutions = e.solutions;
      s.fraction = e.fraction || 0;
    } else if (e.type === "solution") {
      s.seen += 1;
      if (kept.length < KEPT_IN_BROWSER) kept.push({ solution: e.solution, weight: e.weight });
    } else if (e.type === "best") {
      if (!best || e.line.score > best.score) {
        best = e.line;
        // Each worker counts its own nodes and time; the page shows the
        // search's as a whole.
        bestFound = { nodes: [...shards.values()].reduce((sum, x) => sum + x.nodes, 0), seconds: (performance.now() - started) / 1000 };
        improvements += 1;
      }
    }
    const now = performance.now();
    if (now - last >= 250 || e.type === "best") {
      last = now;
      on.progress(progress("running"));
    }
  };
  // The end: the progress shown last has the summary's nodes and solutions
  // (the workers' last beats lag them) and a whole tree when complete.
  const finish = (outcome) => {
    if (ended) return;
    ended = true;
    const s = outcome.summary;
    outcome.progress = progress("done");
    if (mode === "best" && s) {
      // The summary is the worker's that ended the search; the others'
      // nodes are those of their last beats.
      s.nodes = Math.max(s.nodes, outcome.progress.nodes);
      s.nodes_per_second = Math.round(s.nodes / Math.max(outcome.progress.seconds, 1e-9));
    }
    if (s && s.nodes !== undefined && s.nodes !== null) outcome.progress.nodes = s.nodes;
    if (s && typeof s.listed === "number") outcome.progress.listed = outcome.progress.solutions = s.listed;
    const p = outcome.progress;
    p.rate = Math.round(p.nodes / Math.max(p.seconds, 1e-9));
    if (s && s.complete && outcome.progress.fraction !== undefined) outcome.progress.fraction = 1;
    outcome.kept = kept.length;
    on.done(outcome);
  };
  engine
    .search({ route: "search", text, label, mode, options, keep: KEPT_IN_BROWSER }, onEvent, mode === "solve" || mode === "tree" ? 1 : workers)
    .then((answer) => {
      if (answer.error && !answer.summary && !answer.tree) {
        finish({ summary: null, error: answer.error });
        return;
      }
      if (mode === "tree") {
        tree = answer;
        finish({ tree: answer.tree, naive: answer.naive, error: answer.error || null, listed: 0 });
        return;
      }
      const outcome = { summary: answer.summary, counts_mean: answer.counts_mean, error: answer.error || null, listed: answer.summary.listed };
      if (mode === "by-open") {
        outcome.goals = answer.goals;
        outcome.heat_map = answer.heat_map;
      }
      finish(outcome);
    });

  const svgOf = async (kind, n) => {
    if (kind === "tree") return tree ? tree.svg : null;
    const request = kind === "best"
      ? { route: "picture", text, label, best }
      : { route: "picture", text, label, index: n, ...kept[n - 1] };
    if (kind === "best" ? !best : !kept[n - 1]) throw new Error(`no ${kind} ${n} in this search`);
    const answer = await desk(request);
    if (answer.error) throw new Error(answer.error);
    return answer.svg;
  };
  const named = (kind, n) => kind === "solution" ? `${stem}-${String(n).padStart(4, "0")}` : kind === "best" ? `${stem}-best-${best ? best.score : 0}` : `${stem}-tree`;
  const solutionLine = (n) => ({ type: "solution", family: puzzle.family, puzzle: puzzleName, index: n, weight: kept[n - 1].weight, solution: kept[n - 1].solution });
  return {
    stop() {
      if (ended) return;
      engine.stop();
      finish({ summary: null, error: null });
    },
    close() {
      if (!ended) engine.stop();
      ended = true;
      for (const u of urls.splice(0)) URL.revokeObjectURL(u);
    },
    async picture(kind, n) {
      const url = URL.createObjectURL(new Blob([await svgOf(kind, n)], { type: "image/svg+xml" }));
      urls.push(url);
      // Only the last few pictures stay alive: the page shows one of each.
      if (urls.length > 8) URL.revokeObjectURL(urls.shift());
      return url;
    },
    async file(kind, n, format) {
      const name = `${named(kind, n)}.${format}`;
      if (format === "json") {
        const value = kind === "solution" ? solutionLine(n) : kind === "best" ? best : tree.tree;
        return { blob: new Blob([JSON.stringify(value) + "\n"], { type: "application/json" }), name };
      }
      const svg = await svgOf(kind, n);
      const blob = format === "png" ? await pngOf(svg) : new Blob([svg], { type: "image/svg+xml" });
      return { blob, name };
    },
    async allSolutions() {
      const lines = kept.map((_, i) => JSON.stringify(solutionLine(i + 1)));
      return { blob: new Blob([lines.join("\n") + (lines.length ? "\n" : "")], { type: "application/x-ndjson" }), name: `${stem}-solutions.jsonl` };
    },
  };
}
