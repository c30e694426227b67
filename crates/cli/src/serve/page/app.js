// The page of `jigsolve serve`: enter a puzzle (catalog, file, paste or
// drawing), see it drawn and its errors as the command line says them,
// run a search and watch it, browse the solutions. Everything the page
// knows of a puzzle is the file text in the text area: the drawing tools
// write that text, and the server reads it exactly as `jigsolve solve` does.
"use strict";

const $ = (id) => document.getElementById(id);

const state = {
  catalogName: "",     // the catalog puzzle loaded, while its text is unchanged
  catalogText: "",
  family: "",          // the family of the puzzle as last read without error
  search: null,        // {id, mode, events, done, kept, listed}
  index: 1,            // the solution shown
  readTimer: null,
};

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
  return { ok: response.ok, status: response.status, data };
}

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
  const { ok, data } = await api("/api/puzzle", { text, label: label() });
  if (text !== $("text").value) return; // edited again meanwhile
  if (ok) {
    showError(null);
    state.family = data.family;
    familyChanged();
    $("puzzle-info").textContent = `${data.name}: ${familyName(data.family)}`;
    $("puzzle-picture").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(data.svg);
  } else {
    // No picture of an older version: the error is what the text says now.
    $("puzzle-picture").removeAttribute("src");
    $("puzzle-info").textContent = "";
    showError(data.error || "the server could not read the puzzle", data.line);
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
  const { ok, data } = await api("/api/catalog");
  if (!ok) return;
  for (const entry of data) {
    const option = document.createElement("option");
    option.value = entry.name;
    option.textContent = `${entry.name} (${familyName(entry.family)})` + (entry.title ? ` — ${entry.title}` : "");
    $("catalog").append(option);
  }
}

async function chooseCatalog(name) {
  if (!name) return;
  const { ok, data } = await api("/api/catalog/" + encodeURIComponent(name));
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
    showError(`${file.name}: larger than 256 KiB, the most the server takes`);
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
  if (state.search && state.search.events) state.search.events.close();
  state.search = null;
}

async function startSearch(mode) {
  closeSearch();
  $("search-error").hidden = true;
  $("counts").hidden = true;
  $("browser").hidden = true;
  $("progress").textContent = "";
  $("fraction").hidden = true;
  $("best-view").hidden = true;
  const { ok, data } = await api("/api/search", { text: $("text").value, label: label(), mode, options: searchOptions(mode) });
  if (!ok) {
    if (data.line) showError(data.error, data.line);
    searchError(data.error || "the server refused the search");
    return;
  }
  const search = { id: data.id, mode, done: false, kept: 0, listed: 0 };
  state.search = search;
  state.index = 1;
  setStatus(`${modeWord(mode)}: starting`);
  $("stop").disabled = false;
  const events = new EventSource(`/api/search/${search.id}/events`);
  search.events = events;
  events.addEventListener("progress", (e) => {
    if (state.search !== search) return;
    showProgress(JSON.parse(e.data));
  });
  events.addEventListener("done", (e) => {
    if (state.search !== search) return;
    search.done = true;
    const outcome = JSON.parse(e.data);
    showProgress(outcome.progress);
    if (search.mode === "best") showBestOutcome(outcome);
    else showOutcome(outcome);
  });
  events.onerror = () => {
    if (state.search !== search) return;
    if (!search.done) {
      searchError("lost the connection to the server; the search is cancelled");
      setStatus("idle");
      $("stop").disabled = true;
    }
    events.close();
  };
}

function modeWord(mode) {
  return { solve: "solving", count: "counting", best: "searching for the best board" }[mode] || mode;
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

function showOutcome(outcome) {
  $("stop").disabled = true;
  const s = outcome.summary;
  if (outcome.error) searchError(outcome.error);
  if (!s) {
    setStatus("stopped");
    return;
  }
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
  const all = $("dl-all");
  all.href = `/api/search/${state.search.id}/solutions`;
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
  const base = `/api/search/${search.id}/solution/${n}`;
  $("solution-picture").src = `${base}?format=svg`;
  $("dl-svg").href = `${base}?format=svg&download`;
  $("dl-png").href = `${base}?format=png&download`;
  $("dl-json").href = `${base}?format=json&download`;
  $("dl-all").href = `/api/search/${search.id}/solutions`;
  updatePosition();
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
// threads for the best-board search.
function searchOptions(mode) {
  const threads = Math.max(1, Math.min(+$("opt-threads").max || 1, Math.floor(+$("opt-threads").value) || 1));
  const options = { threads };
  if (mode === "best") return options;
  if (!$("opt-symmetry").checked) options.symmetry = false;
  if (state.family === "edge" && $("opt-order").value !== "auto") options.order = $("opt-order").value;
  if (state.family === "grid" && $("opt-engine").value !== "auto") options.engine = $("opt-engine").value;
  if (state.family === "polygon" && $("opt-flip").value !== "file") options.flip = $("opt-flip").value;
  return options;
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
  const base = `/api/search/${search.id}/best`;
  // The number makes each improvement a new address, not a cached picture.
  $("best-picture").src = `${base}?format=svg&board=${best.improvements}`;
  $("best-svg").href = `${base}?format=svg&download`;
  $("best-png").href = `${base}?format=png&download`;
  $("best-json").href = `${base}?format=json&download`;
}

function showBestOutcome(outcome) {
  $("stop").disabled = true;
  const s = outcome.summary;
  if (outcome.error) searchError(outcome.error);
  if (!s) {
    setStatus("stopped");
    return;
  }
  const end = s.end === "full score" ? "full score" : s.end === "cancelled" ? "stopped" : s.end;
  const score = s.score === null ? "no board" : `best ${s.score} of ${s.max}`;
  setStatus(`done: ${end} — ${score}, ${grouped(s.nodes)} nodes at ${grouped(s.nodes_per_second)} nodes/s, ${grouped(s.restarts)} restart${s.restarts === 1 ? "" : "s"}, seed ${s.seed}`);
  if (outcome.progress) showBest(state.search, outcome.progress.best);
}

// ---------- tabs ----------

function showTab(id) {
  for (const tab of document.querySelectorAll(".tab")) tab.classList.toggle("active", tab.dataset.tab === id);
  for (const page of document.querySelectorAll(".tab-page")) page.hidden = page.id !== id;
}

// ---------- drawing polyforms on squares ----------

const PENTOMINOES = {
  F: [".##", "##.", ".#."], I: ["#####"], L: ["####", "#..."], N: ["##..", ".###"],
  P: ["##", "##", "#."], T: ["###", ".#.", ".#."], U: ["#.#", "###"], V: ["#..", "#..", "###"],
  W: ["#..", "##.", ".##"], X: [".#.", "###", ".#."], Y: ["####", ".#.."], Z: ["##.", ".#.", ".##"],
};

const drawing = {
  board: [],    // rows of cells: "" none, "#" plain, or a colour letter
  piece: [],
  pieces: [],   // {name, copies, rows: ["##.", ...]}
  painting: null,
};

function emptyCells(rows, cols, fill) {
  return Array.from({ length: rows }, () => Array(cols).fill(fill));
}

function brushValue(erase) {
  if (erase || $("brush").value === "erase") return "";
  const c = $("brush-colour").value.trim();
  return /^[A-Za-z0-9]$/.test(c) && c !== "." ? c : "#";
}

function paintGrid(element, cells, onChange) {
  element.textContent = "";
  element.style.gridTemplateColumns = `repeat(${cells[0] ? cells[0].length : 0}, 1.4em)`;
  cells.forEach((row, y) => row.forEach((value, x) => {
    const cell = document.createElement("div");
    cell.className = "cell" + (value ? " on" : "");
    cell.dataset.x = x;
    cell.dataset.y = y;
    cell.textContent = value && value !== "#" ? value : "";
    const paint = (erase) => {
      const v = drawing.painting !== null ? drawing.painting : brushValue(erase);
      cells[y][x] = v;
      cell.className = "cell" + (v ? " on" : "");
      cell.textContent = v && v !== "#" ? v : "";
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
    element.append(cell);
  }));
}

document.addEventListener("mouseup", () => { drawing.painting = null; });

function art(cells) {
  // The smallest box around the cells, as the file's ASCII art.
  const ys = [], xs = [];
  cells.forEach((row, y) => row.forEach((v, x) => { if (v) { ys.push(y); xs.push(x); } }));
  if (!ys.length) return [];
  const [y0, y1, x0, x1] = [Math.min(...ys), Math.max(...ys), Math.min(...xs), Math.max(...xs)];
  const rows = [];
  for (let y = y0; y <= y1; y++) rows.push(cells[y].slice(x0, x1 + 1).map((v) => v || ".").join(""));
  return rows;
}

function gridToml() {
  const board = art(drawing.board);
  const colours = new Set();
  const note = (rows) => rows.join("").replace(/[.#]/g, "").split("").forEach((c) => colours.add(c));
  note(board);
  drawing.pieces.forEach((p) => note(p.rows));
  const lines = ["family = \"grid\"", "name = \"drawn\"", `sides = "${$("grid-sides").value}"`];
  if (colours.size) lines.push(`colours = [${[...colours].sort().map((c) => `"${c}"`).join(", ")}]`);
  lines.push("board = \"\"\"", ...board, "\"\"\"");
  for (const p of drawing.pieces) {
    lines.push("", "[[piece]]", `name = ${JSON.stringify(p.name)}`);
    if (p.copies > 1) lines.push(`copies = ${p.copies}`);
    lines.push("shape = \"\"\"", ...p.rows, "\"\"\"");
  }
  return lines.join("\n") + "\n";
}

function drawingChanged() {
  $("label").value = "drawn.toml";
  state.catalogName = "";
  $("catalog").value = "";
  $("text").value = gridToml();
  textChanged();
}

function newBoard() {
  const rows = Math.max(1, Math.min(40, +$("grid-rows").value || 1));
  const cols = Math.max(1, Math.min(40, +$("grid-cols").value || 1));
  drawing.board = emptyCells(rows, cols, "#");
  paintGrid($("board-grid"), drawing.board, drawingChanged);
  drawingChanged();
}

function newPieceGrid() {
  drawing.piece = emptyCells(5, 5, "");
  paintGrid($("piece-grid"), drawing.piece, () => {});
}

function listPieces() {
  const list = $("piece-list");
  list.textContent = "";
  drawing.pieces.forEach((p, i) => {
    const li = document.createElement("li");
    const pre = document.createElement("pre");
    pre.textContent = p.rows.join("\n");
    const remove = document.createElement("button");
    remove.type = "button";
    remove.textContent = "remove";
    remove.onclick = () => { drawing.pieces.splice(i, 1); listPieces(); drawingChanged(); };
    li.append(`${p.name}${p.copies > 1 ? " ×" + p.copies : ""}`, pre, remove);
    list.append(li);
  });
}

function addPiece() {
  const rows = art(drawing.piece);
  if (!rows.length) return;
  const name = $("piece-name").value.trim() || String(drawing.pieces.length + 1);
  const copies = Math.max(1, +$("piece-copies").value || 1);
  drawing.pieces.push({ name, copies, rows });
  const next = name.length === 1 && /[A-Y]/i.test(name) ? String.fromCharCode(name.charCodeAt(0) + 1) : "";
  $("piece-name").value = next;
  newPieceGrid();
  listPieces();
  drawingChanged();
}

function addPentominoes() {
  for (const [name, rows] of Object.entries(PENTOMINOES)) drawing.pieces.push({ name, copies: 1, rows });
  listPieces();
  drawingChanged();
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
  const tr = document.createElement("tr");
  for (let i = 0; i < 4; i++) {
    const td = document.createElement("td");
    const input = document.createElement("input");
    input.type = "number";
    input.min = i === 3 ? 0 : 1;
    input.value = i === 3 ? 0 : 1;
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
  edgeChanged();
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
  textChanged();
}

// ---------- the server's load ----------

async function showServer() {
  const { ok, data } = await api("/api/status");
  if (ok) {
    $("server").textContent = `server: ${data.running} searches running on ${data.threads} threads, ${data.waiting} waiting (at most ${data.limits.threads} threads at once, ${data.limits.waiting} searches waiting)`;
    limitThreads(data.limits.threads);
  }
}

// ---------- wiring ----------

window.addEventListener("DOMContentLoaded", async () => {
  $("text").addEventListener("input", textChanged);
  $("label").addEventListener("change", textChanged);
  $("catalog").addEventListener("change", (e) => chooseCatalog(e.target.value));
  $("file").addEventListener("change", (e) => openFile(e.target.files[0]));
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
  $("solve").onclick = () => startSearch("solve");
  $("count").onclick = () => startSearch("count");
  $("best").onclick = () => startSearch("best");
  $("stop").onclick = async () => {
    if (state.search) await api(`/api/search/${state.search.id}/stop`, {});
  };
  $("prev").onclick = () => showSolution(state.index - 1);
  $("next").onclick = () => showSolution(state.index + 1);
  $("go").onclick = () => showSolution(+$("jump").value);
  $("jump").addEventListener("keydown", (e) => { if (e.key === "Enter") showSolution(+$("jump").value); });
  $("download-puzzle").onclick = () => saveBlob(new Blob([$("text").value], { type: "text/plain" }), stem() + ".toml");
  $("download-puzzle-png").onclick = async () => {
    const { ok, data } = await api("/api/puzzle/png", { text: $("text").value, label: label() });
    if (ok) saveBlob(data, stem() + ".png");
    else showError(data.error, data.line);
  };
  $("share").onclick = async () => {
    await updateAddress();
    $("share-link").value = location.href;
    $("share-link").select();
  };
  $("grid-resize").onclick = newBoard;
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
  drawing.board = emptyCells(+$("grid-rows").value, +$("grid-cols").value, "#");
  paintGrid($("board-grid"), drawing.board, drawingChanged);
  newPieceGrid();
  newTileTable();
  await loadCatalogList();
  await readAddress();
  showServer();
  setInterval(showServer, 2000);
  familyChanged();
  document.body.dataset.ready = "yes";
});
