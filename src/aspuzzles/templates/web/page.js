"use strict";
// The web board's page: it asks the JSON API (POST /api/ACTION) and draws its answers.
// What an input means (a click, a key, on this puzzle's board) is read here, then made
// a change of the progress (entries as atoms, or capture's moves); the server answers
// for the progress as a whole, so undo and redo are the progress before and after.
const $ = (role) => document.querySelector(`[data-role="${role}"]`);
const button = (action) => document.querySelector(`[data-action="${action}"]`);

const state = {
  puzzles: [], puzzle: "", instance: "",
  skeleton: "",        // what Generate starts from: the instance opened, not a generated one
  progress: [], pencil: {}, past: [], future: [],
  cells: {}, moves: {}, play: {}, solved: false,
  selected: null,      // capture: the tile pointed at
  cursor: null,        // the place the keys act on
  cursorShown: false,  // drawn once an arrow key moved it
  chosen: null,        // a piece chosen in the tray or the legend
  orientation: {},     // a legend piece's orientation, by its id
  pencilMode: false,
  walk: null,          // a walkthrough shown: its frames and the one shown ({frames, at})
  fix: null,           // the entries Fix offers to take back (atoms), while its board is shown
  sent: 0,             // the number of the newest request: older answers are dropped
  running: new Set(),  // the requests under way, each with its AbortController
};

function say(text, failed) {
  const box = $("message");
  box.textContent = text;
  box.className = failed ? "error" : "";
}

// An answer that a newer request has overtaken: dropped without a word.
class Stale extends Error {}

// -- asking the server: one answer at a time, the newest one ----------------------
async function ask(action, fields, about) {
  const board = about || { puzzle: state.puzzle, instance: state.instance, progress: state.progress };
  const body = JSON.stringify(Object.assign({}, board, fields || {}));
  const number = ++state.sent;
  for (const request of state.running) { request.abort(); }  // the newest answer wins
  const request = new AbortController();
  state.running.add(request);
  showBusy();
  try {
    const response = await fetch(`/api/${action}`, { method: "POST", headers: { "Content-Type": "application/json" }, body, signal: request.signal });
    const data = await response.json();
    if (number !== state.sent) { throw new Stale(); }
    if (!response.ok) { throw new Error(data.error || response.statusText); }
    return data;
  } catch (error) {
    if (number !== state.sent && !(error instanceof Stale)) { throw new Stale(); }
    throw error;
  } finally {
    state.running.delete(request);
    showBusy();
  }
}

function showBusy() {
  clearTimeout(showBusy.timer);
  if (!state.running.size) { $("busy").hidden = true; return; }
  showBusy.timer = setTimeout(() => { $("busy").hidden = !state.running.size; }, 150);
}

function cancel() {
  const running = [...state.running];
  state.sent++;  // whatever is still to come is not wanted
  for (const request of running) { request.abort(); }
  state.running.clear();
  showBusy();
  say(running.length ? "cancelled" : "nothing to cancel");
}

// Work that asks the server: its error is said once, the board left as it was.
async function guarded(work) {
  try { await work(); } catch (error) {
    if (error instanceof Stale) { return; }
    if (error.name === "AbortError") { say("cancelled"); return; }
    say(error.message, true);
  }
}

// -- the board ------------------------------------------------------------------
function draw(svg) {
  if (!svg) { return; }
  endWalk();  // the player's board again
  endFix();
  drawBoard(svg);
  decorate();
}

function drawBoard(svg) {
  $("board").innerHTML = svg;
  const drawing = $("board").querySelector("svg");
  if (drawing && !drawing.getAttribute("viewBox")) {
    drawing.setAttribute("viewBox", `0 0 ${drawing.getAttribute("width")} ${drawing.getAttribute("height")}`);
  }
}

// -- a walkthrough: the board after each step, stepped through forward and back -----
// Its frames come drawn (the step's entries highlighted, its reason marked); the
// player's progress stays as it was until "Play from here" makes the frame's entries it.
function showWalk() {
  const walk = state.walk;
  const frame = walk.frames[walk.at];
  const steps = walk.frames.length - 1;
  drawBoard(frame.svg);
  $("walk").hidden = false;
  for (const legend of document.querySelectorAll("[data-role=walk-legend]")) {
    legend.hidden = legend.dataset.for !== (walk.plan ? "plan" : "entries");
  }
  $("walk-count").textContent = walk.at ? `step ${walk.at} of ${steps}` : `the start (${steps} step${steps === 1 ? "" : "s"})`;
  $("walk-text").textContent = walk.at ? frame.text : `${frame.text}${steps ? ": Forward (or the right arrow) for step 1" : ""}`;
  button("walk-back").disabled = walk.at === 0;
  button("walk-forward").disabled = walk.at === steps;
}

function walkBy(by) {
  const walk = state.walk;
  if (!walk) { return; }
  const next = Math.max(0, Math.min(walk.frames.length - 1, walk.at + by));
  if (next !== walk.at) { walk.at = next; showWalk(); }
}

function endWalk() {
  state.walk = null;
  $("walk").hidden = true;
}

// -- Fix: the fewest entries to take back, marked on the board, taken back on request --
function endFix() {
  state.fix = null;
  $("fix").hidden = true;
}

// What the page adds to a drawing: the cursor, pencil marks, the numbers of the pieces.
function decorate() {
  const drawing = $("board").querySelector("svg");
  if (!drawing) { return; }
  for (const element of drawing.querySelectorAll(".pencil, .piece-number, .piece-disc")) { element.remove(); }
  for (const [key, marks] of Object.entries(state.pencil)) {
    const place = placeElement(key);
    if (!place || entryAt(key) || !marks.length) { continue; }
    const box = place.getBBox();
    addText(drawing, box.x + 3, box.y + box.height - 3, marks.join(""), "pencil").setAttribute("data-pencil", key);
  }
  const tray = state.play.tray || [];
  for (const place of drawing.querySelectorAll("[data-cell][data-value]")) {
    const piece = tray.find((item) => place.dataset.value.startsWith(item.prefix));
    if (!piece) { continue; }
    const box = place.getBBox();
    const disc = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    disc.setAttribute("cx", box.x + box.width / 2); disc.setAttribute("cy", box.y + box.height / 2);
    disc.setAttribute("r", 9); disc.setAttribute("class", "piece-disc");
    drawing.appendChild(disc);
    addText(drawing, box.x + box.width / 2, box.y + box.height / 2 + 4, piece.id, "piece-number").setAttribute("text-anchor", "middle");
  }
  showCursor();
}

function addText(drawing, x, y, text, kind) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", "text");
  element.setAttribute("x", x); element.setAttribute("y", y);
  element.setAttribute("class", kind);
  element.textContent = text;
  drawing.appendChild(element);
  return element;
}

function placeElement(key) {
  const kind = key.includes("|") ? "data-side" : "data-cell";
  const found = $("board").querySelectorAll(`[${kind}="${key}"]`);
  return found.length ? found[found.length - 1] : null;  // capture: the board as it stands
}

// The cursor is drawn once the keys move it (as Tatham's): a click moves it unseen.
function showCursor() {
  for (const element of $("board").querySelectorAll("[data-cursor]")) { element.removeAttribute("data-cursor"); }
  const place = state.cursor && state.cursorShown && placeElement(state.cursor);
  if (place) { place.setAttribute("data-cursor", "true"); }
}

function showPanel() {
  const play = state.play || {};
  $("notes").replaceChildren(...(play.notes || []).map((note) => Object.assign(document.createElement("span"), { textContent: note })));
  $("counts").replaceChildren(...(play.counts || []).map((count) => {
    const item = document.createElement("span");
    item.textContent = `${count.label} ${count.placed}/${count.total}`;
    item.className = count.placed > count.total ? "over" : count.placed === count.total ? "full" : "";
    return item;
  }));
  $("tray").replaceChildren(...(play.tray || []).map((piece) => pieceItem(piece, piece.svg, piece.label, piece.placed)));
  $("legend").replaceChildren(...(play.legend || []).map((piece) => {
    const turned = piece.orientations[(state.orientation[piece.id] || 0) % piece.orientations.length];
    const count = piece.count > 1 ? ` x${piece.count}` : "";
    return pieceItem(piece, turned.svg, `${piece.letter} ${piece.label}${count}`, piece.placed >= piece.count);
  }));
  button("pencil").hidden = !(play.pencil || []).length;
  const solved = $("solved");
  if (state.solved && solved.hidden) {  // just finished: a short flash
    const board = $("board");
    board.classList.remove("flash"); void board.offsetWidth; board.classList.add("flash");
  }
  solved.hidden = !state.solved;
  showLinks();
}

function pieceItem(piece, svg, label, placed) {
  const item = document.createElement("div");
  item.dataset.piece = piece.id;
  item.draggable = true;
  item.title = `${piece.label}: click to choose${state.play.legend ? " (again: turn it)" : ""}, then click a place`;
  if (state.chosen === piece.id) { item.dataset.chosen = "true"; }
  if (placed) { item.dataset.placed = "true"; }
  item.innerHTML = svg;
  item.appendChild(Object.assign(document.createElement("span"), { textContent: label }));
  return item;
}

// The link that reopens this board with its progress (and pencil marks), and the
// puzzle elsewhere (Haunted: Tatham's own page).
function showLinks() {
  const query = new URLSearchParams({ puzzle: state.puzzle, instance: state.instance });
  if (state.progress.length) { query.set("progress", JSON.stringify(state.progress)); }
  const pencil = Object.fromEntries(Object.entries(state.pencil).filter(([, marks]) => marks.length));
  if (Object.keys(pencil).length) { query.set("pencil", JSON.stringify(pencil)); }
  $("link").href = `/?${query}`;
  let elsewhere = document.querySelector('[data-role="elsewhere"]');
  const link = (state.play || {}).link;
  if (!link) { if (elsewhere) { elsewhere.remove(); } return; }
  if (!elsewhere) {
    elsewhere = Object.assign(document.createElement("a"), { target: "_blank", rel: "noopener" });
    elsewhere.dataset.role = "elsewhere";
    $("links").appendChild(elsewhere);
  }
  elsewhere.href = link.href;
  elsewhere.textContent = link.label;
}

function answered(data) {
  state.cells = data.cells || {};
  state.moves = data.moves || {};
  state.play = data.play || {};
  state.solved = Boolean(data.solved);
  state.selected = null;
  draw(data.svg);
  showPanel();
}

async function redraw() {
  const data = await ask("board");
  answered(data);
  if (data.message) { say(data.message); } else if (state.solved) { say("solved!"); }
}

function playing() {
  if (Object.keys(state.moves).length) { return "click a tile, then a neighbour, to swap them"; }
  if (state.play.tray) { return "click a cell (or a side) to set it; choose a tile in the tray, then a place; a click on a placed tile turns it"; }
  if (state.play.legend) { return "click a cell (or a side) to set it; choose a piece in the legend, then a cell to lay it"; }
  if (Object.keys(state.cells).length) { return "click a cell (or a side) to set it"; }
  return "shown (entries are set by Hint and Solve)";
}

// A board opened: its state is the page's only once the server has answered for it,
// so a bad instance (a failed paste) leaves the board open as it was.
async function open(puzzle, instance, options) {
  const settings = options || {};
  const progress = settings.progress || [];
  say("loading ...");
  let data;
  try { data = await ask("board", {}, { puzzle, instance, progress }); } catch (error) {
    $("puzzle").value = state.puzzle;  // the choices as they were: the board stays open
    if (state.puzzle) { fillInstances(state.puzzles.find((p) => p.name === state.puzzle), state.instance, false); }
    throw error;
  }
  const changed = puzzle !== state.puzzle;
  Object.assign(state, { puzzle, instance, progress, pencil: settings.pencil || {}, past: [], future: [], cursor: null, chosen: null, orientation: {} });
  if (!settings.generated) { state.skeleton = instance; }
  fillInstances(state.puzzles.find((p) => p.name === puzzle), instance, changed);
  answered(data);
  say(`${puzzle}: ${playing()}`);
}

// -- entries --------------------------------------------------------------------
function entryAt(key) {
  const atoms = (state.cells[key] || []).map((option) => option.atom);
  return state.progress.find((atom) => atoms.includes(atom));
}

function valueAt(key) {
  const atom = entryAt(key);
  const option = (state.cells[key] || []).find((o) => o.atom === atom);
  return option ? option.value : null;
}

function record() {
  state.past.push({ progress: state.progress.slice(), pencil: JSON.stringify(state.pencil) });
  state.future = [];
}

// The progress with the places' entries replaced: {key: atom or null}.
async function change(settings) {
  record();
  for (const [key, atom] of Object.entries(settings)) {
    const current = entryAt(key);
    state.progress = state.progress.filter((a) => a !== current);
    if (atom) { state.progress.push(atom); }
  }
  await guarded(redraw);
}

// The option after (or before) the current one at a place, empty after the last.
function stepped(key, forward) {
  const options = state.cells[key];
  const index = options.findIndex((option) => option.atom === entryAt(key));
  const next = forward ? index + 1 : (index < 0 ? options.length - 1 : index - 1);
  return next >= 0 && next < options.length ? options[next].atom : null;
}

// A click (forward) or a right click (backward) on a place, or Space/Enter on the cursor.
async function activate(key, forward) {
  state.cursor = key;
  if (Object.keys(state.moves).length) { showCursor(); await pointAt(key); return; }
  if (!state.cells[key]) { showCursor(); return; }
  if (state.pencilMode) { showCursor(); say("pencil: type a monster's letter to mark it here"); return; }
  const play = state.play;
  if (play.tray) { await trayMove(key, forward); return; }
  if (play.legend && state.chosen && forward) { await lay(key); return; }
  if (play.legend && !forward && entryAt(key)) { await takeBack(key); return; }
  await change({ [key]: stepped(key, forward) });
}

// Tiles: a chosen tile put on the place; a placed tile turned; a right click takes it back.
async function trayMove(key, forward) {
  const options = state.cells[key];
  const current = valueAt(key);
  const held = current && state.play.tray.find((piece) => current.startsWith(piece.prefix));
  const chosen = state.chosen && state.play.tray.find((piece) => piece.id === state.chosen);
  if (!forward && !chosen) { await change({ [key]: null }); return; }
  let piece = chosen || held;
  if (!piece) {  // nothing chosen, an empty place: the first tile not yet placed
    piece = state.play.tray.find((p) => !p.placed && options.some((o) => o.value.startsWith(p.prefix)));
  }
  if (!piece) { say("every tile is placed: a right click (or Backspace) takes one back"); return; }
  if (held !== piece) {  // put it here (taken from where it was)
    const option = options.find((o) => o.value.startsWith(piece.prefix));
    if (!option) { say(`${piece.label} cannot go there`); return; }
    const moved = { [key]: option.atom };
    for (const [place] of Object.entries(state.cells)) {
      const value = place !== key && valueAt(place);
      if (value && value.startsWith(piece.prefix)) { moved[place] = null; }
    }
    state.chosen = null;
    await change(moved);
    return;
  }
  await turn(key, forward);
}

async function turn(key, forward) {
  const current = valueAt(key);
  const piece = current && (state.play.tray || []).find((p) => current.startsWith(p.prefix));
  if (!piece) { say("no tile here to turn"); return; }
  const turns = state.cells[key].filter((o) => o.value.startsWith(piece.prefix));
  const index = turns.findIndex((o) => o.value === current);
  const next = turns[(index + (forward ? 1 : turns.length - 1)) % turns.length];
  await change({ [key]: next.atom });
}

// The dice puzzles: the chosen piece laid in its orientation with its anchor at the place
// (or, where it does not fit so, the first way of that orientation that covers the place).
async function lay(key) {
  const piece = state.play.legend.find((p) => p.id === state.chosen);
  const orientation = piece.orientations[(state.orientation[piece.id] || 0) % piece.orientations.length];
  const cells = orientation.at[key] || Object.values(orientation.at).find((places) => places.includes(key));
  if (!cells) { say(`the ${piece.label} turned so does not fit there: o turns it`); return; }
  const settings = {};
  for (const place of cells) {
    const option = (state.cells[place] || []).find((o) => o.value === piece.id);
    if (!option) { say(`the ${piece.label} cannot cover ${place}`); return; }
    settings[place] = option.atom;
  }
  await change(settings);
}

// A laid piece taken back: the cells of the way to lay it that covers the place and whose
// cells all hold it; the place alone where none does.
async function takeBack(key) {
  const value = valueAt(key);
  const piece = (state.play.legend || []).find((p) => p.id === value);
  let cells = [key];
  if (piece) {
    for (const orientation of piece.orientations) {
      const found = Object.values(orientation.at).find((places) => places.includes(key) && places.every((place) => valueAt(place) === value));
      if (found) { cells = found; break; }
    }
  }
  await change(Object.fromEntries(cells.map((place) => [place, null])));
}

function choose(id) {
  const legend = state.play.legend;
  if (legend && state.chosen === id) { rotate(true); return; }
  state.chosen = state.chosen === id ? null : id;
  showPanel();
  if (state.chosen) { say(`${state.chosen} chosen: click a place${legend ? " (o turns it)" : ""}`); }
}

function rotate(forward) {
  const piece = (state.play.legend || []).find((p) => p.id === state.chosen);
  if (!piece) { say("choose a piece in the legend first"); return; }
  const count = piece.orientations.length;
  state.orientation[piece.id] = ((state.orientation[piece.id] || 0) + (forward ? 1 : count - 1)) % count;
  showPanel();
  say(`${piece.label}: orientation ${state.orientation[piece.id] + 1} of ${count}`);
}

function togglePencil(key, value) {
  if (!state.cells[key] || entryAt(key)) { return; }
  record();
  const marks = new Set(state.pencil[key] || []);
  if (marks.has(value)) { marks.delete(value); } else { marks.add(value); }
  state.pencil[key] = (state.play.pencil || []).filter((v) => marks.has(v));
  decorate();
  showLinks();
}

// A planning puzzle's move: a tile pointed at, then a neighbour it may swap with.
async function pointAt(key) {
  const chosen = state.selected && (state.moves[state.selected] || []).find((option) => option.to === key);
  const marked = document.querySelector("[data-role='board'] [data-selected]");
  if (marked) { marked.removeAttribute("data-selected"); }
  if (chosen) {
    record();
    state.progress = state.progress.concat([chosen.move]);
    await guarded(redraw);
    return;
  }
  state.selected = state.moves[key] ? key : null;
  if (state.selected) {
    placeElement(key).setAttribute("data-selected", "true");
    say(`swap ${key} with ${state.moves[key].map((option) => option.to).join(" or ")}`);
  } else { say("no swap from there makes a line of three"); }
}

// -- the controls ----------------------------------------------------------------
async function step(from, to) {
  if (!from.length) { return; }
  to.push({ progress: state.progress, pencil: JSON.stringify(state.pencil) });
  const back = from.pop();
  state.progress = back.progress;
  state.pencil = JSON.parse(back.pencil);
  await redraw();
}

const actions = {
  async check() { const data = await ask("check"); draw(data.svg); say(data.message); },
  async hint() { const data = await ask("hint"); draw(data.svg); say(data.message); },
  async explain() { const data = await ask("explain"); draw(data.svg); say(data.status === "solvable" ? "the puzzle has a solution" : data.message); },
  async grade() { const data = await ask("grade"); say(data.message); },
  async walkthrough() {
    const data = await ask("walkthrough");
    state.walk = { frames: data.frames, at: data.frames.length > 1 ? 1 : 0, plan: Boolean(data.plan) };
    showWalk();
    say(data.message);
  },
  async fix() {
    const data = await ask("fix");
    if (data.svg) { draw(data.svg); }
    for (const key of data.places || []) {
      const place = placeElement(key);
      if (place) { place.setAttribute("data-fix", "take-back"); }
    }
    if ((data.take_back || []).length) {
      state.fix = data.take_back;
      $("fix").hidden = false;
    }
    say(data.message);
  },
  async "fix-apply"() {  // the entries marked taken back: undo puts them back
    const taken = new Set(state.fix || []);
    if (!taken.size) { return; }
    record();
    state.progress = state.progress.filter((atom) => !taken.has(atom));
    await redraw();
    say(`took back ${taken.size} entr${taken.size === 1 ? "y" : "ies"}`);
  },
  async "walk-back"() { walkBy(-1); },
  async "walk-forward"() { walkBy(1); },
  async "walk-close"() { endWalk(); await redraw(); },
  async "walk-keep"() {  // the entries shown become the progress: undo takes them back
    const frame = state.walk && state.walk.frames[state.walk.at];
    if (!frame) { return; }
    const known = new Set(Object.values(state.cells).flat().map((option) => option.atom));
    record();
    // A plan's frames hold the moves made up to them; others, entries as atoms.
    state.progress = state.walk.plan ? frame.entries : frame.entries.filter((atom) => known.has(atom));
    await redraw();
  },
  async solve() {
    const data = await ask("solve");
    const known = new Set(Object.values(state.cells).flat().map((option) => option.atom));
    const entries = data.plan ? data.entries : (data.entries || []).filter((atom) => known.has(atom));
    if (entries.length) {  // the solution as entries: undo takes it back
      record();
      state.progress = entries;
      await redraw();
    } else { draw(data.svg); }
    say(data.message);
  },
  async generate() {
    const difficulty = $("difficulty").value || null;
    const data = await ask("generate", { instance: state.skeleton, difficulty, seed: Math.floor(Math.random() * 1000000000) });
    await open(state.puzzle, data.text, { generated: true });
    $("difficulty").value = difficulty || "";
    say(`a new puzzle${difficulty ? " (" + difficulty + ")" : ""}: ${playing()}`);
  },
  async undo() { await step(state.past, state.future); },
  async redo() { await step(state.future, state.past); },
  async "open-paste"() { await open(state.puzzle, $("paste").value); },
  async cancel() { cancel(); },
  async pencil() {
    state.pencilMode = !state.pencilMode;
    button("pencil").setAttribute("aria-pressed", String(state.pencilMode));
    say(state.pencilMode ? "pencil marks: a monster's letter marks the cursor's cell (p again: entries)" : `${state.puzzle}: ${playing()}`);
  },
};

const stem = (name) => name.replace(/\.[^.]*$/, "");

function fillInstances(puzzle, chosen, changed) {
  const select = $("instance");
  select.innerHTML = "";
  const named = puzzle.instances.find((name) => name === chosen || stem(name) === chosen);
  if (chosen && !named) { select.add(new Option("(pasted or generated)", chosen, false, true)); }
  for (const name of puzzle.instances) { select.add(new Option(name, name, false, name === named)); }
  $("puzzle").value = puzzle.name;
  const difficulty = $("difficulty");
  if (changed || !difficulty.options.length) {  // a difficulty chosen stays chosen
    difficulty.innerHTML = "";
    difficulty.add(new Option("any", ""));
    for (const level of puzzle.difficulties) { difficulty.add(new Option(level, level)); }
  }
  difficulty.disabled = !puzzle.difficulties.length;
  button("generate").disabled = !puzzle.generates;
  button("hint").disabled = !puzzle.hints;
  button("check").disabled = !puzzle.checks;
  for (const action of ["explain", "grade"]) { button(action).disabled = !puzzle.explains; }
  button("walkthrough").disabled = !puzzle.walks;
  button("fix").disabled = !puzzle.fixes;
}

function parsed(text, fallback) {
  try { return text ? JSON.parse(text) : fallback; } catch (error) { return fallback; }
}

async function start() {
  const listing = await (await fetch("/api/puzzles")).json();
  state.puzzles = listing.puzzles;
  const query = new URLSearchParams(location.search);
  const wanted = query.get("puzzle") || (state.puzzles[0] && state.puzzles[0].name);
  for (const puzzle of state.puzzles) { $("puzzle").add(new Option(puzzle.name, puzzle.name, false, puzzle.name === wanted)); }
  const chosen = state.puzzles.find((puzzle) => puzzle.name === wanted) || state.puzzles[0];
  const instance = query.get("instance") || chosen.default || "";
  fillInstances(chosen, instance, true);
  const progress = parsed(query.get("progress"), []);
  const marks = parsed(query.get("pencil"), {});
  const pencil = Object.fromEntries(Object.entries(marks && typeof marks === "object" ? marks : {})
    .filter(([, values]) => Array.isArray(values)).map(([key, values]) => [key, values.map(String)]));
  await open(chosen.name, instance, { progress: Array.isArray(progress) ? progress : [], pencil });
}

// -- input: mouse, keys, drag ------------------------------------------------------
function placeOf(target) {
  const place = target.closest("[data-role='board'] [data-cell], [data-role='board'] [data-side]");
  return place && (place.dataset.cell || place.dataset.side);
}

function board(event) { return event.target.closest("[data-role='board']"); }

document.addEventListener("click", (event) => {
  if (event.detail > 0 && state.cursorShown && board(event)) { state.cursorShown = false; }
  const control = event.target.closest("[data-action]");
  if (control) {
    if (event.detail > 0) { control.blur(); }  // clicked: Space and Enter stay the board's
    if (!control.disabled) { guarded(actions[control.dataset.action]); }
    return;
  }
  const piece = event.target.closest("[data-piece]");
  if (piece) { choose(piece.dataset.piece); return; }
  if (!board(event)) { return; }
  if (state.walk) { say("a walkthrough is shown: Close (Esc) to play on your board, or Play from here"); return; }
  const key = placeOf(event.target);
  if (key && (state.cells[key] || Object.keys(state.moves).length)) { guarded(() => activate(key, true)); return; }
  const mark = event.target.closest("[data-role='board'] [data-mark]");
  if (mark) {  // a clue pointed at: drawn marked (Haunted: its line of sight)
    guarded(async () => { const data = await ask("board", { marked: [mark.dataset.mark] }); draw(data.svg); say(data.message || ""); });
  }
});

document.addEventListener("contextmenu", (event) => {
  if (!board(event) || state.walk) { return; }
  const key = placeOf(event.target);
  if (key && state.cells[key]) { event.preventDefault(); guarded(() => activate(key, false)); }
});

document.addEventListener("dragstart", (event) => {
  const piece = event.target.closest && event.target.closest("[data-piece]");
  if (!piece) { return; }
  state.chosen = piece.dataset.piece;
  event.dataTransfer.setData("text/plain", piece.dataset.piece);
});
$("board").addEventListener("dragover", (event) => { if (state.chosen) { event.preventDefault(); } });
$("board").addEventListener("drop", (event) => {
  event.preventDefault();
  const key = placeOf(document.elementFromPoint(event.clientX, event.clientY) || event.target);
  if (key && state.chosen) { guarded(() => activate(key, true)); }
});

// The places the cursor visits, each with its middle on the screen: every cell of the
// board (as Tatham's cursor, over givens and mirrors too), or the sides where a player
// sets sides (the cake). Capture's: the cells of the board as it stands.
function places() {
  const sides = Object.keys(state.cells).some((key) => key.includes("|"));
  const found = new Map();
  for (const element of $("board").querySelectorAll(sides ? "[data-side]" : "[data-cell]")) {
    const key = element.dataset.cell || element.dataset.side;
    const box = element.getBoundingClientRect();
    found.set(key, { key, x: box.left + box.width / 2, y: box.top + box.height / 2 });
  }
  return [...found.values()];
}

function moveCursor(dx, dy) {
  const all = places();
  if (!all.length) { return; }
  const here = all.filter((p) => p.key === state.cursor).pop();
  if (!here || !state.cursorShown) {  // the first arrow shows the cursor where it is
    state.cursorShown = true;
    if (!here) { state.cursor = all[0].key; }
    showCursor();
    return;
  }
  let best = null, bestScore = Infinity;
  for (const place of all) {
    const along = (place.x - here.x) * dx + (place.y - here.y) * dy;
    const across = Math.abs((place.x - here.x) * dy - (place.y - here.y) * dx);
    if (along < 2) { continue; }
    const score = along + 2 * across;
    if (score < bestScore) { best = place; bestScore = score; }
  }
  if (best) { state.cursor = best.key; showCursor(); }
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

document.addEventListener("keydown", (event) => {
  const typing = event.target.closest("textarea, input, select");
  if (typing || event.altKey || event.metaKey) { return; }
  const key = event.key;
  const ctrl = event.ctrlKey;
  const done = () => event.preventDefault();
  if (ctrl && (key === "z" || key === "Z")) { done(); guarded(event.shiftKey ? actions.redo : actions.undo); return; }
  if (ctrl && (key === "y" || key === "Y")) { done(); guarded(actions.redo); return; }
  if (ctrl) { return; }
  if (state.walk && (key === "ArrowLeft" || key === "ArrowRight")) { done(); walkBy(key === "ArrowLeft" ? -1 : 1); return; }
  if (state.walk && key === "Escape") { done(); guarded(actions["walk-close"]); return; }
  if (state.walk && key !== "u" && key !== "r") { return; }  // the board shown is the walkthrough's
  if (ARROWS[key]) { done(); moveCursor(...ARROWS[key]); return; }
  if (key === "Escape") { state.chosen = null; showPanel(); return; }
  const at = state.cursor;
  if (key === " " || key === "Enter") {
    if (at && !event.target.closest("button, a, summary")) { done(); guarded(() => activate(at, !event.shiftKey)); }
    return;
  }
  const options = (at && state.cells[at]) || [];
  const typed = options.find((o) => o.value.toLowerCase() === key.toLowerCase());
  const pencil = state.play.pencil || [];
  if (at && pencil.includes(key.toUpperCase()) && (state.pencilMode || (event.shiftKey && key.length === 1 && key !== key.toLowerCase()))) {
    done(); togglePencil(at, key.toUpperCase()); return;
  }
  if (typed) { done(); guarded(() => change({ [at]: typed.atom })); return; }
  if (at && options.length && ["Backspace", "Delete", "0"].includes(key)) {
    done();
    if (state.play.legend && entryAt(at)) { guarded(() => takeBack(at)); } else { guarded(() => change({ [at]: null })); }
    return;
  }
  if (key === "u") { done(); guarded(actions.undo); return; }
  if (key === "r") { done(); guarded(actions.redo); return; }
  if (key === "p" && pencil.length) { done(); guarded(actions.pencil); return; }
  if ((key === "t" || key === "T") && at && state.play.tray) { done(); guarded(() => turn(at, key === "t")); return; }
  if ((key === "o" || key === "O") && state.play.legend) { done(); rotate(key === "o"); return; }
});

$("puzzle").addEventListener("change", () => {
  const puzzle = state.puzzles.find((p) => p.name === $("puzzle").value);
  guarded(() => open(puzzle.name, puzzle.default || ""));
});
$("instance").addEventListener("change", () => guarded(() => open(state.puzzle, $("instance").value)));
start().catch((error) => say(error.message, true));
