// The page of `jigsolve serve` and of the static site: enter a puzzle
// (catalog, file, paste or drawing), see it drawn and its errors as the
// command line says them, run a search and watch it, browse the solutions,
// or show the search itself: its tree, counted per depth and drawn.
// Everything the page knows of a puzzle is the file text in the text area:
// the drawing tools write that text, and the back end (backends.js: the
// server, or the WebAssembly build in this browser's workers) reads it
// exactly as `jigsolve solve` does.
"use strict";

const $ = (id) => document.getElementById(id);

const state = {
  catalogName: "",     // the catalog puzzle loaded, while its text is unchanged
  catalogText: "",
  family: "",          // the family of the puzzle as last read without error
  search: null,        // {run, mode, done, kept, listed}
  index: 1,            // the solution shown
  readTimer: null,
};

// ---------- the back end ----------

let backend = null; // made when the page is ready (backends.js)

function label() {
  return $("label").value.trim() || "puzzle.toml";
}

// ---------- reading the puzzle as it is edited ----------

function textChanged() {
  if (state.catalogName && $("text").value !== state.catalogText) {
    state.catalogName = "";
    $("catalog").value = "";
  }
  clearTimeout(state.readTimer);
  state.readTimer = setTimeout(readPuzzle, 300);
}

async function readPuzzle() {
  const text = $("text").value;
  updateAddress();
  if (!text.trim()) {
    showError(null);
    $("puzzle-picture").removeAttribute("src");
    $("puzzle-info").textContent = "";
    return;
  }
  const { ok, data } = await backend.read(text, label());
  if (text !== $("text").value) return; // edited again meanwhile
  if (ok) {
    showError(null);
    state.family = data.family;
    familyChanged();
    textReadAs(data.family, text);
    const warnings = (data.warnings || []).map((w) => `warning: ${w}`);
    $("puzzle-info").textContent = [`${data.name}: ${familyName(data.family)}`, ...warnings].join("\n");
    showCalendar(data.open_groups || []);
    $("puzzle-picture").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(data.svg);
  } else {
    // No picture of an older version: the error is what the text says now.
    $("puzzle-picture").removeAttribute("src");
    $("puzzle-info").textContent = "";
    $("calendar").hidden = true;
    showError(data.error || "the puzzle could not be read", data.line);
  }
}

function familyName(family) {
  return { edge: "edge matching", grid: "polyforms", polygon: "polygonal jigsaw" }[family] || family;
}

function showError(message, line) {
  const box = $("error");
  if (!message) {
    box.hidden = true;
    box.textContent = "";
    delete box.dataset.line;
    return;
  }
  box.hidden = false;
  box.textContent = message;
  if (line) {
    box.dataset.line = line;
    const go = document.createElement("button");
    go.type = "button";
    go.id = "error-line";
    go.textContent = `show line ${line}`;
    go.onclick = () => selectLine(line);
    box.append(" ", go);
  } else {
    delete box.dataset.line;
  }
}

function selectLine(line) {
  showTab("text-tab");
  const area = $("text");
  const lines = area.value.split("\n");
  let start = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
  const end = start + (lines[line - 1] || "").length;
  area.focus();
  area.setSelectionRange(start, end);
  const lineHeight = area.scrollHeight / Math.max(lines.length, 1);
  area.scrollTop = Math.max(0, (line - 3) * lineHeight);
}

function setText(text, fromCatalog) {
  $("text").value = text;
  state.catalogName = fromCatalog || "";
  state.catalogText = fromCatalog ? text : "";
  clearTimeout(state.readTimer);
  readPuzzle();
}

// ---------- catalog and files ----------

async function loadCatalogList() {
  for (const entry of await backend.catalog()) {
    const option = document.createElement("option");
    option.value = entry.name;
    option.textContent = `${entry.name} (${familyName(entry.family)})` + (entry.title ? ` — ${entry.title}` : "");
    $("catalog").append(option);
  }
}

async function chooseCatalog(name) {
  if (!name) return;
  const { ok, data } = await backend.entry(name);
  if (!ok) {
    showError(data.error);
    return;
  }
  $("catalog").value = name;
  $("label").value = data.label;
  showTab("text-tab");
  setText(data.text, name);
}

async function openFile(file) {
  if (!file) return;
  if (file.size > 256 * 1024) {
    showError(`${file.name}: larger than 256 KiB, the most jigsolve reads`);
    return;
  }
  $("label").value = file.name;
  $("catalog").value = "";
  showTab("text-tab");
  setText(await file.text(), "");
}

// ---------- the address: a link reproduces the puzzle ----------

function base64url(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unbase64url(text) {
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

async function squeeze(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return base64url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

async function unsqueeze(packed) {
  const stream = new Blob([unbase64url(packed)]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return await new Response(stream).text();
}

async function addressOf() {
  if (state.catalogName) return "#catalog=" + encodeURIComponent(state.catalogName);
  const text = $("text").value;
  if (!text.trim()) return "#";
  return "#label=" + encodeURIComponent(label()) + "&text=" + (await squeeze(text));
}

async function updateAddress() {
  const hash = await addressOf();
  if (location.hash !== hash && !(hash === "#" && !location.hash)) {
    history.replaceState(null, "", hash === "#" ? location.pathname : hash);
  }
}

async function readAddress() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("catalog")) {
    await chooseCatalog(params.get("catalog"));
  } else if (params.get("text")) {
    try {
      $("label").value = params.get("label") || "puzzle.toml";
      setText(await unsqueeze(params.get("text")), "");
    } catch (e) {
      showError("the link's puzzle cannot be read (the address was cut short?)");
    }
  }
}

// ---------- downloads of the puzzle ----------

function saveBlob(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

function stem() {
  return (state.catalogName || label()).replace(/\.[a-z]+$/i, "").replace(/[^A-Za-z0-9_.-]/g, "_") || "puzzle";
}

// ---------- searching ----------

function closeSearch() {
  if (state.search && state.search.run) state.search.run.close();
  state.search = null;
}

async function startSearch(mode) {
  closeSearch();
  // At once, so that the last search's "done" is never read as this one's.
  setStatus(`${modeWord(mode)}: starting`);
  $("search-error").hidden = true;
  $("search-warning").hidden = true;
  $("counts").hidden = true;
  $("browser").hidden = true;
  $("progress").textContent = "";
  $("fraction").hidden = true;
  $("best-view").hidden = true;
  $("tree-view").hidden = true;
  $("goals-view").hidden = true;
  const search = { run: null, mode, done: false, kept: 0, listed: 0 };
  state.search = search;
  const request = { text: $("text").value, label: label(), mode, options: searchOptions(mode) };
  const { ok, data } = await backend.start(request, {
    progress: (p) => {
      if (state.search === search) showProgress(p);
    },
    done: (outcome) => {
      if (state.search !== search) return;
      search.done = true;
      showProgress(outcome.progress);
      if (search.mode === "best") showBestOutcome(outcome);
      else if (search.mode === "tree") showTreeOutcome(outcome);
      else if (search.mode === "by-open") showGoalsOutcome(outcome);
      else showOutcome(outcome);
    },
    lost: (message) => {
      if (state.search !== search || search.done) return;
      searchError(message);
      setStatus("idle");
      $("stop").disabled = true;
    },
  });
  if (state.search !== search) {
    if (ok) data.close();
    return;
  }
  if (!ok) {
    state.search = null;
    if (data.line) showError(data.error, data.line);
    searchError(data.error || "the search was refused");
    setStatus("idle");
    return;
  }
  search.run = data;
  state.index = 1;
  if (!search.done) setStatus(`${modeWord(mode)}: starting`);
  $("stop").disabled = search.done;
}

function modeWord(mode) {
  return { solve: "solving", count: "counting", best: "searching for the best board", tree: "recording the search tree", "by-open": "counting every goal" }[mode] || mode;
}

function setStatus(text) {
  $("status").textContent = text;
}

function searchError(message) {
  $("search-error").hidden = false;
  $("search-error").textContent = message;
}

function human(seconds) {
  if (seconds < 1) return `${(seconds * 1000).toFixed(0)} ms`;
  if (seconds < 90) return `${seconds.toFixed(1)} s`;
  if (seconds < 5400) return `${(seconds / 60).toFixed(1)} min`;
  if (seconds < 172800) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86400).toFixed(0)} days`;
}

function grouped(n) {
  return Number(n).toLocaleString("en-US");
}

function showProgress(p) {
  const search = state.search;
  if (!search || !p) return;
  search.kept = p.kept;
  search.listed = p.listed;
  if (p.phase === "waiting") setStatus("waiting for a free search thread on the server");
  else if (p.phase === "running") setStatus(`${modeWord(search.mode)}…`);
  const rows = [];
  if (p.nodes !== undefined) {
    rows.push(["nodes", grouped(p.nodes)], ["rate", `${grouped(p.rate)} nodes/s`], ["time", human(p.seconds)]);
  }
  if (search.mode === "best") {
    if (p.best) rows.push(["best score", `${p.best.score} of ${p.best.max}`]);
    showBest(search, p.best);
  } else {
    rows.push(["solutions so far", grouped(p.solutions ?? p.listed)]);
  }
  if (p.fraction !== undefined) {
    rows.push(["tree done", `${(p.fraction * 100).toFixed(p.fraction < 0.01 ? 4 : 1)}%`]);
    $("fraction").hidden = false;
    $("fraction").value = p.fraction;
  }
  if (p.seconds_left !== undefined) rows.push(["time left", `about ${human(p.seconds_left)}`]);
  const dl = $("progress");
  dl.textContent = "";
  for (const [k, v] of rows) {
    const dt = document.createElement("dt");
    dt.textContent = k;
    const dd = document.createElement("dd");
    dd.textContent = v;
    dd.id = "progress-" + k.replace(/ /g, "-");
    dl.append(dt, dd);
  }
  if (p.kept > 0 && $("browser").hidden) {
    $("browser").hidden = false;
    showSolution(1);
  } else if (!$("browser").hidden) {
    updatePosition();
  }
}

// A search has ended: Stop is off, its error shown; its `part` of the
// outcome (the summary, or the tree of a tree search), or null (and the
// status says stopped) when it ended without one.
function ended(outcome, part = "summary") {
  $("stop").disabled = true;
  if (outcome.error) searchError(outcome.error);
  if (outcome.warning) {
    $("search-warning").hidden = false;
    $("search-warning").textContent = `warning: ${outcome.warning}`;
  }
  if (!outcome[part]) setStatus("stopped");
  return outcome[part] || null;
}

function showOutcome(outcome) {
  const s = ended(outcome);
  if (!s) return;
  const how = s.complete ? "complete" : s.stopped === "cancelled" ? "stopped" : s.stopped ? `stopped (${s.stopped})` : "stopped at the first solution";
  setStatus(`done: ${how}${s.complete ? "" : " — the counts are those found so far"}`);
  $("counts").hidden = false;
  const means = outcome.counts_mean || {};
  for (const key of ["raw", "distinct", "unique", "listed"]) {
    $("count-" + key).textContent = s[key] === null ? "too many to count" : grouped(s[key]);
    $("mean-" + key).textContent = means[key] || "";
  }
  if (s.listed > 0) {
    $("browser").hidden = false;
    showSolution(state.index);
  } else {
    $("browser").hidden = true;
  }
}

function updatePosition() {
  const search = state.search;
  if (!search) return;
  const more = search.listed > search.kept ? ` (the first ${grouped(search.kept)} of ${grouped(search.listed)} are kept)` : "";
  $("position").textContent = `solution ${grouped(state.index)} of ${grouped(search.kept)}${more}`;
  $("prev").disabled = state.index <= 1;
  $("next").disabled = state.index >= search.kept;
  $("jump").max = search.kept;
}

function showSolution(n) {
  const search = state.search;
  if (!search || search.kept === 0) return;
  n = Math.max(1, Math.min(search.kept, Math.floor(n) || 1));
  state.index = n;
  updatePosition();
  showPicture("solution-picture", search, "solution", n);
}

// ---------- search options: the command line's engine options ----------

// Shows the options the puzzle's family takes (a family refuses the
// others, as on the command line), and Best board for edge matching.
function familyChanged() {
  for (const el of document.querySelectorAll("#search-options [data-family]")) el.hidden = el.dataset.family !== state.family;
  $("best").hidden = state.family !== "edge";
}

function limitThreads(most) {
  const input = $("opt-threads");
  input.max = most;
  if (+input.value > most) input.value = most;
}

// The request's options: only those of the puzzle's family, and only the
// threads for the best-board search; the tree takes one thread, and its
// depth and nodes drawn as typed (the server checks them as `tree` does).
function searchOptions(mode) {
  const threads = Math.max(1, Math.min(+$("opt-threads").max || 1, Math.floor(+$("opt-threads").value) || 1));
  const options = mode === "tree" ? {} : { threads };
  if (mode === "best") return options;
  if (mode === "tree") {
    const number = (id) => ($(id).value.trim() === "" ? undefined : Number($(id).value));
    options.depth = number("opt-depth");
    options.max_nodes = number("opt-max-nodes");
  }
  if (!$("opt-symmetry").checked) options.symmetry = false;
  if ((mode === "solve" || mode === "count" || mode === "tree") && !$("calendar").hidden && $("open-use").checked) options.open = openGoal().join(",");
  if (state.family === "edge" && $("opt-order").value !== "auto") options.order = $("opt-order").value;
  if (state.family === "grid" && $("opt-engine").value !== "auto") options.engine = $("opt-engine").value;
  if (state.family === "polygon" && $("opt-flip").value !== "file") options.flip = $("opt-flip").value;
  return options;
}

// ---------- puzzles that leave cells open: calendars ----------

// One picker per open cell of each group (a calendar: month and day), and
// the choice to solve that goal only (solve --open).
function showCalendar(groups) {
  const pickers = $("open-pickers");
  const before = openGoal();
  pickers.textContent = "";
  $("calendar").hidden = groups.length === 0;
  for (const group of groups) {
    const label = document.createElement("label");
    label.textContent = group.name + " ";
    const select = document.createElement("select");
    select.className = "open-pick";
    for (const cell of group.cells) {
      const option = document.createElement("option");
      option.textContent = cell;
      select.appendChild(option);
    }
    label.appendChild(select);
    pickers.appendChild(label);
  }
  const selects = pickers.querySelectorAll("select");
  before.forEach((name, i) => {
    if (selects[i] && [...selects[i].options].some((o) => o.textContent === name)) selects[i].value = name;
  });
}

function openGoal() {
  return [...document.querySelectorAll("#open-pickers select")].map((s) => s.value);
}

function pickGoal(names) {
  const selects = document.querySelectorAll("#open-pickers select");
  names.forEach((name, i) => { if (selects[i]) selects[i].value = name; });
  $("open-use").checked = true;
}

function showGoalsOutcome(outcome) {
  const s = ended(outcome);
  if (!s) return;
  setStatus(`done: ${s.complete ? "complete" : "stopped — the counts are those found so far"}`);
  $("counts").hidden = false;
  const means = outcome.counts_mean || {};
  for (const key of ["raw", "distinct", "unique", "listed"]) {
    $("count-" + key).textContent = s[key] === null ? "too many to count" : grouped(s[key]);
    $("mean-" + key).textContent = means[key] || "";
  }
  const goals = outcome.goals || [];
  const names = (g) => Object.values(g.open).flat();
  const reached = goals.filter((g) => g.counts.distinct > 0);
  const order = [...reached].sort((a, b) => a.counts.distinct - b.counts.distinct);
  const fewest = order[0], most = order[order.length - 1];
  $("goals-summary").textContent = reached.length === 0 ? "no goal has a solution" :
    `${grouped(reached.length)} goals with solutions, ${grouped(goals.length - reached.length)} without; fewest: ${names(fewest).join(" ")} (${grouped(fewest.counts.distinct)}), most: ${names(most).join(" ")} (${grouped(most.counts.distinct)})`;
  const svg = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(outcome.heat_map || "");
  $("heat-map").src = svg;
  $("heat-svg").href = svg;
  $("heat-svg").download = stem() + "-heat-map.svg";
  const body = $("goals-table").tBodies[0];
  body.textContent = "";
  for (const g of goals) {
    const tr = body.insertRow();
    tr.insertCell().textContent = names(g).join(" ");
    tr.insertCell().textContent = grouped(g.counts.distinct);
    tr.insertCell().textContent = grouped(g.counts.raw);
    const solve = document.createElement("button");
    solve.type = "button";
    solve.textContent = "solutions";
    solve.title = "list this goal's solutions (Count with only this goal)";
    solve.onclick = () => { pickGoal(names(g)); startSearch("count"); };
    tr.insertCell().appendChild(solve);
  }
  $("goals-view").hidden = false;
}

// ---------- the best board of edge puzzles ----------

// Shows the best board so far; its picture is fetched again only when the
// score has changed.
function showBest(search, best) {
  if (!best) return;
  $("best-view").hidden = false;
  $("best-score").textContent = `${best.score} of ${best.max}`;
  $("best-found").textContent = `(board ${best.improvements}, found after ${grouped(best.nodes)} nodes, ${human(best.seconds)})`;
  const link = $("best-link");
  if (best.link) {
    link.href = best.link;
    link.hidden = false;
  } else {
    link.hidden = true;
  }
  if (search.bestShown === best.improvements) return;
  search.bestShown = best.improvements;
  showPicture("best-picture", search, "best", best.improvements);
}

function showBestOutcome(outcome) {
  const s = ended(outcome);
  if (!s) return;
  const end = s.end === "full score" ? "full score" : s.end === "cancelled" ? "stopped" : s.end;
  const score = s.score === null ? "no board" : `best ${s.score} of ${s.max}`;
  setStatus(`done: ${end} — ${score}, ${grouped(s.nodes)} nodes at ${grouped(s.nodes_per_second)} nodes/s, ${grouped(s.restarts)} restart${s.restarts === 1 ? "" : "s"}, seed ${s.seed}`);
  if (outcome.progress) showBest(state.search, outcome.progress.best);
}

// ---------- the search tree (jigsolve tree) ----------

// The counts per depth as `tree` prints them, with a column for each rule
// that rejected placements or pruned nodes at any depth; the naive space
// and the share of it never visited; the tree's picture.
function showTreeOutcome(outcome) {
  const t = ended(outcome, "tree");
  if (!t) return;
  setStatus(`done: ${t.complete ? "complete" : "stopped early — the counts of the folded subtrees are partial"}`);
  const rules = (key) => [...new Set(t.depths.flatMap((d) => Object.keys(d[key] || {})))];
  const rejected = rules("rejected"), pruned = rules("pruned");
  const tried = t.depths.some((d) => d.tried !== undefined);
  const columns = [
    ["depth", (d) => d.depth],
    ["nodes", (d) => grouped(d.nodes)],
    ["solutions", (d) => (d.recorded === undefined ? "" : grouped(d.solutions))],
    ["dead ends", (d) => (d.recorded === undefined ? "" : grouped(d.dead_ends))],
    ["symmetry", (d) => (d.recorded === undefined ? "" : grouped(d.duplicates))],
    ["folded", (d) => (d.recorded === undefined ? "(folded)" : grouped(d.folded))],
    ...(tried ? [["tried", (d) => grouped(d.tried ?? 0)]] : []),
    ...rejected.map((rule) => [`rejected: ${rule}`, (d) => grouped((d.rejected || {})[rule] ?? 0)]),
    ...pruned.map((rule) => [`pruned: ${rule}`, (d) => grouped((d.pruned || {})[rule] ?? 0)]),
    ["chosen", (d) => d.chosen ?? "-"],
  ];
  const table = $("tree-table");
  const row = (cells, header) => {
    const tr = document.createElement("tr");
    cells.forEach((text, i) => {
      const cell = document.createElement(header || i === 0 ? "th" : "td");
      cell.textContent = text;
      if (!header && i === columns.length - 1) cell.className = "chosen";
      tr.append(cell);
    });
    return tr;
  };
  table.tHead.replaceChildren(row(columns.map(([name]) => name), true));
  table.tBodies[0].replaceChildren(...t.depths.map((d) => row(columns.map(([, value]) => String(value(d))))));
  const total = row(["total", grouped(t.nodes), grouped(t.solutions)]);
  total.cells[1].id = "tree-nodes";
  total.cells[2].id = "tree-solutions";
  const rest = document.createElement("td");
  rest.colSpan = columns.length - 3;
  rest.className = "note";
  rest.textContent = `${grouped(t.recorded)} recorded one by one, ${grouped(t.nodes - t.recorded)} in folded subtrees`;
  total.append(rest);
  table.tFoot.replaceChildren(total);
  $("tree-help").textContent = state.family === "edge"
    ? "chosen: the cell the scan order fills at that depth. Dead ends: no tile fits the next cell; symmetry: complete boards rejected as a copy of one listed elsewhere."
    : "chosen: the engine picks the cell or corner anew at every node; shown is the commonest choice among the recorded nodes one depth up. Dead ends: nothing fits the next cell or corner; symmetry: complete assemblies rejected as a copy of one listed elsewhere.";
  const naive = outcome.naive || {};
  const facts = [
    ["naive space", `${naive.space} (${naive.means})`],
    ["pruned", `${naive.pruned} of it never visited (${grouped(t.nodes)} nodes visited)`],
  ];
  $("tree-naive").replaceChildren(...facts.flatMap(([k, v]) => {
    const dt = document.createElement("dt");
    dt.textContent = k;
    const dd = document.createElement("dd");
    dd.textContent = v;
    dd.id = "tree-" + k.replace(/ /g, "-");
    return [dt, dd];
  }));
  showPicture("tree-picture", state.search, "tree", 0);
  $("tree-view").hidden = false;
}

// ---------- tabs ----------

function showTab(id) {
  for (const tab of document.querySelectorAll(".tab")) tab.classList.toggle("active", tab.dataset.tab === id);
  for (const page of document.querySelectorAll(".tab-page")) page.hidden = page.id !== id;
}

// ---------- drawing polyforms: squares, triangles, hexagons, cubes ----------
//
// The painter holds the board and the piece being drawn as layers of rows
// of cells ("" none, "#" plain, or a colour letter): one layer on the plane
// lattices, one per height on cubes. A cell's place in its row is its
// column on squares and cubes, its hexagon along the line on hexagons
// (art column 2x + y), and its character column on triangles (pointing
// down when x + y is even, as in the file's art).

const PENTOMINOES = {
  F: [".##", "##.", ".#."], I: ["#####"], L: ["####", "#..."], N: ["##..", ".###"],
  P: ["##", "##", "#."], T: ["###", ".#.", ".#."], U: ["#.#", "###"], V: ["#..", "#..", "###"],
  W: ["#..", "##.", ".##"], X: [".#.", "###", ".#."], Y: ["####", ".#.."], Z: ["##.", ".#.", ".##"],
};

const drawing = {
  lattice: "square",
  board: [],    // layers of rows of cells
  piece: [],
  pieces: [],   // {name, copies, art}: art is rows of text, or layers of them on cubes
  painting: null,
  written: "",  // the text the painter wrote last (not read back again)
  tilesWritten: "", // the same for the tile table
};

function emptyCells(rows, cols, fill) {
  return Array.from({ length: rows }, () => Array(cols).fill(fill));
}

function brushValue(erase) {
  if (erase || $("brush").value === "erase") return "";
  const c = $("brush-colour").value.trim();
  return /^[A-Za-z0-9]$/.test(c) && c !== "." ? c : "#";
}

// Where cell (x, y) sits in the painter's CSS grid, and its shape.
function cellPlace(lattice, x, y) {
  if (lattice === "hexagon") return { column: `${2 * x + y + 1} / span 2`, shape: "hex" };
  if (lattice === "triangle") return { column: `${x + 1} / span 2`, shape: (x + y) % 2 === 0 ? "down" : "up" };
  return { column: `${x + 1}`, shape: "" };
}

function paintLayers(element, layers, onChange) {
  element.textContent = "";
  const lattice = drawing.lattice;
  layers.forEach((cells, z) => {
    const grid = document.createElement("div");
    grid.className = `paint ${lattice}`;
    const cols = Math.max(0, ...cells.map((r) => r.length));
    const columns = lattice === "hexagon" ? 2 * cols + cells.length : lattice === "triangle" ? cols + 1 : cols;
    const width = lattice === "square" || lattice === "cube" ? 1.4 : 0.75;
    grid.style.gridTemplateColumns = `repeat(${columns}, ${width}em)`;
    cells.forEach((row, y) => row.forEach((value, x) => {
      const cell = document.createElement("div");
      const place = cellPlace(lattice, x, y);
      const show = (v) => {
        cell.className = `cell ${place.shape}` + (lattice === "hexagon" && y > 0 ? " below" : "") + (v ? " on" : "");
        cell.textContent = v && v !== "#" ? v : "";
      };
      show(value);
      cell.style.gridColumn = place.column;
      cell.style.gridRow = `${y + 1}`;
      cell.dataset.x = x;
      cell.dataset.y = y;
      cell.dataset.z = z;
      const paint = (erase) => {
        const v = drawing.painting !== null ? drawing.painting : brushValue(erase);
        cells[y][x] = v;
        show(v);
        onChange();
      };
      cell.addEventListener("mousedown", (e) => {
        e.preventDefault();
        const erase = e.button === 2 || (cells[y][x] !== "" && $("brush").value !== "erase" && cells[y][x] === brushValue(false));
        drawing.painting = null;
        paint(erase);
        drawing.painting = cells[y][x];
      });
      cell.addEventListener("mouseenter", () => { if (drawing.painting !== null) paint(false); });
      cell.addEventListener("contextmenu", (e) => e.preventDefault());
      grid.append(cell);
    }));
    if (layers.length > 1) {
      const box = document.createElement("div");
      box.className = "layer";
      box.append(`layer z = ${z}`, grid);
      element.append(box);
    } else {
      element.append(grid);
    }
  });
}

document.addEventListener("mouseup", () => { drawing.painting = null; });

// The cells as the file's art: the smallest box around them, rows of text
// (layers of them on cubes). Triangles keep the parity of x + y, which
// decides their directions; hexagons shift each line one column.
function art(layers) {
  const lattice = drawing.lattice;
  const on = [];
  layers.forEach((cells, z) => cells.forEach((row, y) => row.forEach((v, x) => { if (v) on.push([x, y, z]); })));
  if (!on.length) return [];
  const lo = (i) => Math.min(...on.map((c) => c[i]));
  const hi = (i) => Math.max(...on.map((c) => c[i]));
  let [x0, y0, z0] = [lo(0), lo(1), lo(2)];
  const [x1, y1, z1] = [hi(0), hi(1), hi(2)];
  const at = (z, y, x) => (layers[z] && layers[z][y] && layers[z][y][x]) || "";
  if (lattice === "triangle" && (x0 + y0) % 2 !== 0) x0 -= 1;
  const plane = (z) => {
    const rows = [];
    for (let y = y0; y <= y1; y++) {
      let line = "";
      if (lattice === "hexagon") {
        line = " ".repeat(y - y0);
        for (let x = x0; x <= x1; x++) line += (x > x0 ? " " : "") + (at(z, y, x) || ".");
      } else {
        for (let x = x0; x <= x1; x++) line += at(z, y, x) || ".";
      }
      rows.push(line);
    }
    return rows;
  };
  if (lattice === "cube") {
    const out = [];
    for (let z = z0; z <= z1; z++) out.push(plane(z));
    return out;
  }
  return plane(0);
}

function artToml(key, rows) {
  if (drawing.lattice !== "cube") return [`${key} = """`, ...rows, "\"\"\""];
  const layers = rows.map((layer) => ["\"\"\"", ...layer, "\"\"\""].join("\n"));
  return [`${key} = [${layers.join(", ")}]`];
}

function gridToml() {
  const board = art(drawing.board);
  const colours = new Set();
  const note = (rows) => rows.flat().join("").replace(/[.# ]/g, "").split("").forEach((c) => colours.add(c));
  note(board);
  drawing.pieces.forEach((p) => note(p.art));
  const lines = ["family = \"grid\"", "name = \"drawn\""];
  if (drawing.lattice !== "square") lines.push(`lattice = "${drawing.lattice}"`);
  lines.push(`sides = "${$("grid-sides").value}"`);
  if (colours.size) lines.push(`colours = [${[...colours].sort().map((c) => `"${c}"`).join(", ")}]`);
  lines.push(...artToml("board", board));
  for (const p of drawing.pieces) {
    lines.push("", "[[piece]]", `name = ${JSON.stringify(p.name)}`);
    if (p.copies > 1) lines.push(`copies = ${p.copies}`);
    lines.push(...artToml("shape", p.art));
  }
  return lines.join("\n") + "\n";
}

function drawingChanged() {
  $("label").value = "drawn.toml";
  state.catalogName = "";
  $("catalog").value = "";
  drawing.written = gridToml();
  $("text").value = drawing.written;
  textChanged();
}

function sizeOf(id, most) {
  return Math.max(1, Math.min(most, +$(id).value || 1));
}

// A full board of `rows` lines: rectangles on squares, parallelograms of
// `cols` hexagons or `cols` rhombi (two triangles each) on the others, and
// boxes of `layers` layers on cubes.
function fullBoard(rows, cols, layers) {
  if (drawing.lattice === "triangle") {
    return [Array.from({ length: rows }, (_, y) => Array.from({ length: 2 * cols + rows }, (_, x) => (x >= y && x < y + 2 * cols ? "#" : "")))];
  }
  return Array.from({ length: drawing.lattice === "cube" ? layers : 1 }, () => emptyCells(rows, cols, "#"));
}

function newBoard() {
  drawing.board = fullBoard(sizeOf("grid-rows", 40), sizeOf("grid-cols", 40), sizeOf("grid-layers", 12));
  paintLayers($("board-grid"), drawing.board, drawingChanged);
  drawingChanged();
}

function newPieceGrid() {
  const lattice = drawing.lattice;
  const [layers, rows, cols] = lattice === "cube" ? [3, 3, 3] : lattice === "triangle" ? [1, 4, 9] : [1, 5, 5];
  drawing.piece = Array.from({ length: layers }, () => emptyCells(rows, cols, ""));
  paintLayers($("piece-grid"), drawing.piece, () => {});
}

function showLattice() {
  $("grid-lattice").value = drawing.lattice;
  $("grid-layers-label").hidden = drawing.lattice !== "cube";
  $("add-pentominoes").hidden = drawing.lattice !== "square";
}

// Another lattice: a new board and no pieces (pieces of one lattice are
// not pieces of another).
function latticeChanged() {
  drawing.lattice = $("grid-lattice").value;
  if (drawing.lattice === "cube") $("grid-sides").value = "one";
  drawing.pieces = [];
  showLattice();
  listPieces();
  newPieceGrid();
  newBoard();
}

function listPieces() {
  const list = $("piece-list");
  list.textContent = "";
  drawing.pieces.forEach((p, i) => {
    const li = document.createElement("li");
    const pre = document.createElement("pre");
    pre.textContent = drawing.lattice === "cube" ? p.art.map((l) => l.join("\n")).join("\n\n") : p.art.join("\n");
    const remove = document.createElement("button");
    remove.type = "button";
    remove.textContent = "remove";
    remove.onclick = () => { drawing.pieces.splice(i, 1); listPieces(); drawingChanged(); };
    li.append(`${p.name}${p.copies > 1 ? " ×" + p.copies : ""}`, pre, remove);
    list.append(li);
  });
}

function addPiece() {
  const shape = art(drawing.piece);
  if (!shape.length) return;
  const name = $("piece-name").value.trim() || String(drawing.pieces.length + 1);
  const copies = Math.max(1, +$("piece-copies").value || 1);
  drawing.pieces.push({ name, copies, art: shape });
  const next = name.length === 1 && /[A-Y]/i.test(name) ? String.fromCharCode(name.charCodeAt(0) + 1) : "";
  $("piece-name").value = next;
  newPieceGrid();
  listPieces();
  drawingChanged();
}

function addPentominoes() {
  for (const [name, rows] of Object.entries(PENTOMINOES)) drawing.pieces.push({ name, copies: 1, art: rows });
  listPieces();
  drawingChanged();
}

// ---------- reading the file back into the painter ----------
//
// When the text is edited (or opened, or chosen from the catalog) and reads
// without error as a polyform puzzle, the painter shows it: the lattice,
// the board and the pieces drawn as art or given as a whole box. What the
// painter cannot draw (cells listed by coordinates, pins, optional pieces,
// ...) is named, since painting writes the file anew without it.

// A small reader of the TOML the polyform files use: strings (basic,
// literal, multi-line), numbers, booleans, arrays and inline tables. The
// server has already read the file; this only takes its values apart.
function tomlValue(src, i) {
  const skip = () => {
    for (;;) {
      while (i < src.length && /\s/.test(src[i])) i++;
      if (src[i] === "#") { while (i < src.length && src[i] !== "\n") i++; } else return;
    }
  };
  skip();
  const c = src[i];
  if (src.startsWith('"""', i) || src.startsWith("'''", i)) {
    const q = src.slice(i, i + 3);
    const end = src.indexOf(q, i + 3);
    let s = src.slice(i + 3, end);
    if (s.startsWith("\n")) s = s.slice(1); else if (s.startsWith("\r\n")) s = s.slice(2);
    return [s, end + 3];
  }
  if (c === '"') {
    let j = i + 1;
    while (src[j] !== '"') j += src[j] === "\\" ? 2 : 1;
    return [JSON.parse(src.slice(i, j + 1)), j + 1];
  }
  if (c === "'") {
    const end = src.indexOf("'", i + 1);
    return [src.slice(i + 1, end), end + 1];
  }
  if (c === "[" || c === "{") {
    const close = c === "[" ? "]" : "}";
    const out = c === "[" ? [] : {};
    i++;
    for (;;) {
      skip();
      if (src[i] === close) return [out, i + 1];
      if (src[i] === ",") { i++; continue; }
      if (c === "[") {
        const [v, j] = tomlValue(src, i);
        out.push(v);
        i = j;
      } else {
        const m = /^([A-Za-z0-9_-]+)\s*=/.exec(src.slice(i));
        if (!m) throw new Error("an inline table the painter cannot read");
        const [v, j] = tomlValue(src, i + m[0].length);
        out[m[1]] = v;
        i = j;
      }
    }
  }
  const m = /^[^\s,\]}#]+/.exec(src.slice(i));
  if (!m) throw new Error("a value the painter cannot read");
  const word = m[0];
  const v = word === "true" ? true : word === "false" ? false : Number(word.replace(/_/g, ""));
  return [v, i + word.length];
}

// The file's top table and its [[piece]] tables, as plain objects; other
// tables ([expected], ...) are listed by name.
function tomlTables(src) {
  const top = {}, pieces = [], others = [], arrays = {};
  let table = top, i = 0;
  while (i < src.length) {
    const rest = src.slice(i);
    const blank = /^(\s+|#[^\n]*)/.exec(rest);
    if (blank) { i += blank[0].length; continue; }
    const header = /^\[\[?\s*([A-Za-z0-9_.-]+)\s*\]\]?/.exec(rest);
    if (header) {
      if (header[0].startsWith("[[") && header[1] === "piece") {
        table = {};
        pieces.push(table);
      } else {
        table = {};
        others.push(header[1]);
        if (header[0].startsWith("[[")) (arrays[header[1]] ||= []).push(table);
      }
      i += header[0].length;
      continue;
    }
    const key = /^([A-Za-z0-9_-]+)\s*=/.exec(rest);
    if (!key) throw new Error("a line the painter cannot read");
    const [v, j] = tomlValue(src, i + key[0].length);
    table[key[1]] = v;
    i = j;
  }
  return { top, pieces, others, arrays };
}

// Art text to the painter's rows of cells; `colours` keeps colour letters,
// any other character is a plain cell.
function cellsOfArt(text, lattice, colours) {
  const lines = text.replace(/\r/g, "").split("\n");
  while (lines.length && lines[lines.length - 1].trim() === "") lines.pop();
  const cellOf = (ch) => (ch === "." || ch === " " ? "" : colours.includes(ch) ? ch : "#");
  if (lattice !== "hexagon") return lines.map((l) => [...l].map(cellOf));
  // Hexagons: the first cell drawn sets the column parity; x counts
  // hexagons along the line from the leftmost one of the whole art.
  const found = [];
  let parity = null;
  lines.forEach((l, y) => [...l].forEach((ch, c) => {
    if (ch === " ") return;
    if (parity === null) parity = (c - y) & 1;
    found.push([(c - y - parity) / 2, y, cellOf(ch)]);
  }));
  const x0 = Math.min(0, ...found.map((f) => f[0]));
  const rows = lines.map(() => []);
  for (const [x, y, v] of found) rows[y][x - x0] = v;
  return rows.map((r) => Array.from(r, (v) => v || ""));
}

function layersOf(value, lattice, colours, what) {
  if (typeof value === "string") {
    if (lattice === "cube") throw new Error(`${what} is one layer of art, not a list of layers`);
    return [cellsOfArt(value, lattice, colours)];
  }
  if (Array.isArray(value) && lattice === "cube" && value.every((v) => typeof v === "string")) {
    return value.map((v) => cellsOfArt(v, lattice, colours));
  }
  if (value && typeof value === "object" && !Array.isArray(value) && Array.isArray(value.size) && Object.keys(value).length === 1) {
    const [w, h, d] = value.size;
    if (lattice === "triangle") return fullBoardOf(lattice, h, w, 1);
    return Array.from({ length: lattice === "cube" ? d || 1 : 1 }, () => emptyCells(h, w, "#"));
  }
  throw new Error(`${what} is given by coordinates or holes, which the painter does not draw`);
}

function fullBoardOf(lattice, rows, cols, layers) {
  const was = drawing.lattice;
  drawing.lattice = lattice;
  const board = fullBoard(rows, cols, layers);
  drawing.lattice = was;
  return board;
}

function artOfLayers(layers) {
  // A piece read back is kept as the painter would write it.
  return art(layers);
}

// Reads `text` into the painter; a note says what it could not draw.
function readBackDrawing(text) {
  let note = "";
  try {
    const { top, pieces, others } = tomlTables(text);
    const lattice = top.lattice || "square";
    if (!["square", "triangle", "hexagon", "cube"].includes(lattice)) throw new Error(`the lattice ${lattice} is not one the painter draws`);
    const colours = Array.isArray(top.colours) ? top.colours.filter((c) => typeof c === "string" && c.length === 1) : [];
    const drawn = ["family", "name", "title", "about", "source", "lattice", "sides", "colours", "board"];
    const extra = Object.keys(top).filter((k) => !drawn.includes(k));
    const board = layersOf(top.board, lattice, colours, "the board");
    const was = drawing.lattice;
    drawing.lattice = lattice;
    let read;
    try {
      read = pieces.map((p, i) => {
        const shape = p.shape;
        if (shape === undefined || (typeof shape !== "string" && lattice !== "cube")) {
          throw new Error(`piece ${p.name || i + 1} is given by coordinates, which the painter does not draw`);
        }
        for (const k of Object.keys(p)) if (!["name", "copies", "shape"].includes(k)) extra.push(`${k} (piece ${p.name || i + 1})`);
        return { name: String(p.name || i + 1), copies: Number(p.copies) || 1, art: artOfLayers(layersOf(shape, lattice, colours, "a piece")) };
      });
    } finally {
      drawing.lattice = was;
    }
    drawing.lattice = lattice;
    drawing.board = board;
    drawing.pieces = read;
    $("grid-sides").value = top.sides === "one" || (top.sides === undefined && lattice === "cube") ? "one" : "two";
    showLattice();
    paintLayers($("board-grid"), drawing.board, drawingChanged);
    newPieceGrid();
    listPieces();
    const lost = [...extra, ...others.map((t) => `[${t}]`)];
    note = lost.length ? `The painter shows this file; painting rewrites it without ${lost.join(", ")}.` : "";
  } catch (e) {
    note = `The painter cannot show this file (${e.message}); painting starts a new drawing.`;
  }
  $("draw-note").textContent = note;
  $("draw-note").hidden = !note;
}

// Called when the text has been read without error as `family`.
function textReadAs(family, text) {
  if (family === "grid" && text !== drawing.written) {
    drawing.written = text;
    readBackDrawing(text);
  }
  // The table's own text is not read back: that would rebuild the table
  // under the input being typed in.
  if (family === "edge" && text !== drawing.tilesWritten) {
    drawing.tilesWritten = text;
    readBackTiles(text);
  }
}

// ---------- drawing edge-matching tiles ----------

function tileRows() {
  return [...$("tile-table").tBodies[0].rows];
}

function newTileTable() {
  const n = Math.max(1, Math.min(16, +$("edge-rows").value || 1)) * Math.max(1, Math.min(16, +$("edge-cols").value || 1));
  const body = $("tile-table").tBodies[0];
  const old = tileRows().map((r) => [...r.querySelectorAll("input")].map((i) => i.value));
  body.textContent = "";
  for (let t = 0; t < n; t++) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.textContent = t + 1;
    tr.append(th);
    for (let side = 0; side < 4; side++) {
      const td = document.createElement("td");
      const input = document.createElement("input");
      input.size = 6;
      input.value = old[t] ? old[t][side] : "";
      input.addEventListener("input", edgeChanged);
      td.append(input);
      tr.append(td);
    }
    body.append(tr);
  }
}

function addHint() {
  hintRow([1, 1, 1, 0]);
  edgeChanged();
}

// A row of the hint table: tile, row, column and turns.
function hintRow(values) {
  const tr = document.createElement("tr");
  for (let i = 0; i < 4; i++) {
    const td = document.createElement("td");
    const input = document.createElement("input");
    input.type = "number";
    input.min = i === 3 ? 0 : 1;
    input.value = values[i];
    input.addEventListener("input", edgeChanged);
    td.append(input);
    tr.append(td);
  }
  const remove = document.createElement("button");
  remove.type = "button";
  remove.textContent = "remove";
  remove.onclick = () => { tr.remove(); edgeChanged(); };
  const td = document.createElement("td");
  td.append(remove);
  tr.append(td);
  $("hint-table").tBodies[0].append(tr);
}

// Reads an edge-matching file in the TOML format into the tile table; a
// note says what the table cannot hold (formats from the wild, other keys).
function readBackTiles(text) {
  let note = "";
  try {
    const { top, arrays, others } = tomlTables(text);
    const rows = Number(top.rows), cols = Number(top.cols);
    if (!Array.isArray(top.tiles)) throw new Error("it has no list of tiles");
    if (!(rows >= 1 && rows <= 16 && cols >= 1 && cols <= 16)) throw new Error(`its ${rows} x ${cols} board is larger than the table's 16 x 16`);
    const tiles = top.tiles.map((t, i) => {
      const marks = String(t).trim().split(/\s+/);
      if (marks.length !== 4) throw new Error(`tile ${i + 1} does not list four marks`);
      return marks;
    });
    const hints = (arrays.hints || []).map((h) => [h.tile, h.row, h.col, h.rotation || 0].map(Number));
    $("edge-rows").value = rows;
    $("edge-cols").value = cols;
    $("edge-matching").value = top.matching === "equal" ? "equal" : "complementary";
    $("edge-border").value = top.border === undefined ? "" : String(top.border);
    $("tile-table").tBodies[0].textContent = "";
    newTileTable();
    tileRows().forEach((tr, t) => [...tr.querySelectorAll("input")].forEach((input, side) => {
      input.value = tiles[t] ? tiles[t][side] : "";
    }));
    $("hint-table").tBodies[0].textContent = "";
    hints.forEach(hintRow);
    const kept = ["family", "name", "rows", "cols", "matching", "border", "tiles"];
    const lost = [...Object.keys(top).filter((k) => !kept.includes(k)), ...others.filter((t) => t !== "hints").map((t) => `[${t}]`)];
    note = lost.length ? `The table shows this file; editing it rewrites the file without ${lost.join(", ")}.` : "";
  } catch (e) {
    note = `The table cannot show this file (${e.message}); editing it starts a new puzzle.`;
  }
  $("edge-note").textContent = note;
  $("edge-note").hidden = !note;
}

function edgeToml() {
  const q = JSON.stringify;
  const lines = ["family = \"edge\"", "name = \"drawn\"", `rows = ${+$("edge-rows").value}`, `cols = ${+$("edge-cols").value}`,
    `matching = ${q($("edge-matching").value)}`];
  const border = $("edge-border").value.trim();
  if (border) lines.push(`border = ${q(border)}`);
  lines.push("tiles = [");
  for (const tr of tileRows()) {
    const marks = [...tr.querySelectorAll("input")].map((i) => i.value.trim()).join(" ");
    lines.push(`  ${q(marks)},`);
  }
  lines.push("]");
  for (const tr of $("hint-table").tBodies[0].rows) {
    const [tile, row, col, rotation] = [...tr.querySelectorAll("input")].map((i) => +i.value);
    lines.push("", "[[hints]]", `tile = ${tile}`, `row = ${row}`, `col = ${col}`, `rotation = ${rotation}`);
  }
  return lines.join("\n") + "\n";
}

function edgeChanged() {
  $("label").value = "drawn.toml";
  state.catalogName = "";
  $("catalog").value = "";
  $("text").value = edgeToml();
  drawing.tilesWritten = $("text").value;
  $("edge-note").hidden = true;
  textChanged();
}

// ---------- pictures and downloads of a search ----------

// Shows picture `kind` (solution, best or tree) number `n` of `search` in
// the image `id`, unless another was asked for meanwhile.
async function showPicture(id, search, kind, n) {
  if (!search || !search.run) return;
  const img = $(id);
  const asked = `${kind} ${n}`;
  img.dataset.asked = asked;
  try {
    const url = await search.run.picture(kind, n);
    if (img.dataset.asked === asked && state.search === search) img.src = url;
  } catch (e) {
    searchError(`the picture could not be drawn: ${e.message}`);
  }
}

// A download link of the search's files: saved when clicked.
function downloads(id, what) {
  $(id).href = "#";
  $(id).addEventListener("click", async (e) => {
    e.preventDefault();
    const search = state.search;
    if (!search || !search.run) return;
    try {
      const { blob, name } = await what(search);
      saveBlob(blob, name);
    } catch (error) {
      searchError(`the file could not be made: ${error.message}`);
    }
  });
}

// ---------- where searches run ----------

async function showServer() {
  const line = await backend.status();
  if (line) $("server").textContent = line;
  limitThreads(backend.most());
}

// ---------- wiring ----------

window.addEventListener("DOMContentLoaded", async () => {
  backend = makeBackend();
  $("text").addEventListener("input", textChanged);
  $("label").addEventListener("change", textChanged);
  $("catalog").addEventListener("change", (e) => chooseCatalog(e.target.value));
  $("file").addEventListener("change", (e) => openFile(e.target.files[0]));
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
  $("solve").onclick = () => startSearch("solve");
  $("count").onclick = () => startSearch("count");
  $("best").onclick = () => startSearch("best");
  $("tree").onclick = () => startSearch("tree");
  $("by-open").onclick = () => startSearch("by-open");
  $("tree-fit").onchange = () => $("tree-picture").parentElement.classList.toggle("fit", $("tree-fit").checked);
  $("stop").onclick = async () => {
    if (state.search && state.search.run) await state.search.run.stop();
  };
  for (const format of ["svg", "png", "json"]) {
    downloads(`dl-${format}`, (search) => search.run.file("solution", state.index, format));
    downloads(`best-${format}`, (search) => search.run.file("best", 0, format));
    downloads(`tree-${format}`, (search) => search.run.file("tree", 0, format));
  }
  downloads("dl-all", (search) => search.run.allSolutions());
  $("prev").onclick = () => showSolution(state.index - 1);
  $("next").onclick = () => showSolution(state.index + 1);
  $("go").onclick = () => showSolution(+$("jump").value);
  $("jump").addEventListener("keydown", (e) => { if (e.key === "Enter") showSolution(+$("jump").value); });
  $("download-puzzle").onclick = () => saveBlob(new Blob([$("text").value], { type: "text/plain" }), stem() + ".toml");
  $("download-puzzle-png").onclick = async () => {
    const { ok, data } = await backend.puzzlePng($("text").value, label());
    if (ok) saveBlob(data, stem() + ".png");
    else showError(data.error, data.line);
  };
  $("share").onclick = async () => {
    await updateAddress();
    $("share-link").value = location.href;
    $("share-link").select();
  };
  $("grid-resize").onclick = newBoard;
  $("grid-lattice").onchange = latticeChanged;
  $("grid-sides").onchange = drawingChanged;
  $("add-piece").onclick = addPiece;
  $("add-pentominoes").onclick = addPentominoes;
  $("clear-pieces").onclick = () => { drawing.pieces = []; listPieces(); drawingChanged(); };
  $("edge-resize").onclick = () => { newTileTable(); edgeChanged(); };
  $("edge-matching").onchange = edgeChanged;
  $("edge-border").oninput = edgeChanged;
  $("add-hint").onclick = addHint;
  window.addEventListener("hashchange", async () => {
    if (location.hash !== (await addressOf())) readAddress();
  });
  drawing.board = fullBoard(sizeOf("grid-rows", 40), sizeOf("grid-cols", 40), 1);
  paintLayers($("board-grid"), drawing.board, drawingChanged);
  showLattice();
  newPieceGrid();
  newTileTable();
  await loadCatalogList();
  await readAddress();
  showServer();
  if (backend.kind === "server") setInterval(showServer, 2000);
  familyChanged();
  document.body.dataset.ready = "yes";
});
