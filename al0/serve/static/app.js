// al0 serve: the page. Every chess fact comes from the server's JSON API
// (legal moves, positions after a move, plans, verdicts); this file only
// draws and sends clicks.
"use strict";

const $ = (id) => document.getElementById(id);
const FILES = "abcdefgh";
const page = {
  table: null, mode: "plan", flipped: false, pieces: {},
  view: null,          // what the board shows: {fen, legal, sans, last}
  playable: false,     // whether a move on the board is sent
  selected: null,      // the square picked by a click or by Enter
  focus: null,         // the square the keyboard is on (the board's one tab stop)
  arrow: null,         // the hinted move drawn as an arrow: "e2e4"
  boxes: null,         // {before: [...], after: [...]} squares shaded
  line: [], lineAt: 0, // plan mode: the positions explored, and the one shown
  session: null, game: null, gameAt: null,  // practice mode
  grades: [],          // practice mode: the verdict of each ply played (ours), for its ?/?? mark
  games: [], review: 0, reviewAt: 0,         // review mode: the PGN's games, the ply shown
  reviewBranch: null,  // the variation shown: {at: the main line's ply it replaces, index}, or null
  marks: null,         // a reviewed ply's arrows and squares: {arrows: [...], squares: [...]}
};

async function api(route, body) {
  const options = body === undefined ? {} :
    {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const response = await fetch("/api/" + route, options);
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || response.statusText);
  $("error").textContent = "";
  return answer;
}

function report(error) { $("error").textContent = error.message; }

// ------------------------------------------------------------------ board

function squaresOf(fen) {
  const placement = {};
  fen.split(" ")[0].split("/").forEach((row, index) => {
    let file = 0;
    for (const c of row) {
      if (/\d/.test(c)) file += Number(c);
      else placement[FILES[file++] + (8 - index)] = c;
    }
  });
  return placement;
}

function drawBoard() {
  const board = $("board");
  const hadFocus = board.contains(document.activeElement);
  board.textContent = "";
  drawArrow();
  if (!page.view) return;
  const placement = squaresOf(page.view.fen);
  const last = page.view.last ? [page.view.last.slice(0, 2), page.view.last.slice(2, 4)] : [];
  const targets = page.selected ? page.view.legal.filter((m) => m.startsWith(page.selected))
    .map((m) => m.slice(2, 4)) : [];
  const focus = page.focus || page.selected || (page.flipped ? "h8" : "a1");
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const file = page.flipped ? 7 - col : col, rank = page.flipped ? row + 1 : 8 - row;
      const name = FILES[file] + rank;
      const square = document.createElement("div");
      square.className = "sq " + ((file + rank) % 2 ? "dark" : "light");
      square.dataset.square = name;
      square.setAttribute("role", "gridcell");
      square.tabIndex = name === focus ? 0 : -1;  // one tab stop; arrow keys move within
      square.setAttribute("aria-label", name + (placement[name] ? " " + pieceName(placement[name]) : ""));
      if (last.includes(name)) square.classList.add("last");
      if (name === page.selected) square.classList.add("selected");
      if (targets.includes(name)) square.classList.add("target");
      if (page.boxes && page.boxes.before.includes(name)) square.classList.add("box-before");
      if (page.boxes && page.boxes.after.includes(name)) square.classList.add("box-after");
      if (placement[name]) {
        square.insertAdjacentHTML("beforeend", page.pieces[placement[name]] || placement[name]);
        square.dataset.piece = placement[name];
      }
      if (col === 0) square.insertAdjacentHTML("beforeend", `<span class="coord rank">${rank}</span>`);
      if (row === 7) square.insertAdjacentHTML("beforeend", `<span class="coord file">${FILES[file]}</span>`);
      board.appendChild(square);
    }
  }
  if (hadFocus) board.querySelector(`[data-square="${focus}"]`).focus();
  $("legend").hidden = !page.boxes;
  $("fen").value = page.view.fen;
}

const PIECE_NAMES = {k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn"};

function pieceName(symbol) {
  return (symbol === symbol.toUpperCase() ? "white " : "black ") + PIECE_NAMES[symbol.toLowerCase()];
}

const COLOURS = {green: "21,120,27", blue: "0,80,170", red: "190,30,30", yellow: "230,180,0"};
// The colours of a PGN's [%cal] and [%csl] (G, B, R, Y), as lichess draws them.

function centre(name) {
  // A square's centre in board coordinates (one unit a square), as the board is shown.
  const file = FILES.indexOf(name[0]), rank = Number(name[1]);
  const col = page.flipped ? 7 - file : file, row = page.flipped ? rank - 1 : 8 - rank;
  return [col + 0.5, row + 0.5];
}

function arrowSvg(from, to, colour, kind) {
  const [x1, y1] = centre(from), [x2, y2] = centre(to);
  const length = Math.hypot(x2 - x1, y2 - y1), ux = (x2 - x1) / length, uy = (y2 - y1) / length;
  const bx = x2 - ux * 0.45, by = y2 - uy * 0.45;  // the head's base
  const head = [[x2 - ux * 0.1, y2 - uy * 0.1], [bx - uy * 0.25, by + ux * 0.25],
                [bx + uy * 0.25, by - ux * 0.25]];
  const fill = `rgba(${colour},.8)`;
  return `<line class="${kind}" data-move="${from}${to}" x1="${x1}" y1="${y1}" x2="${bx}" y2="${by}" ` +
    `style="stroke:${fill}"/><polygon points="${head.map((p) => p.join(",")).join(" ")}" style="fill:${fill}"/>`;
}

function drawArrow() {
  // The hinted move as an arrow over the board; a reviewed move's arrows and squares.
  const svg = $("arrows");
  svg.textContent = "";
  if (!page.view) return;
  let drawn = "";
  if (page.marks) {
    for (const {square, color} of page.marks.squares) {
      const [x, y] = centre(square);
      drawn += `<rect class="pgn-square" data-square="${square}" x="${x - 0.5}" y="${y - 0.5}" ` +
        `width="1" height="1" style="fill:rgba(${COLOURS[color] || COLOURS.green},.35)"/>`;
    }
    for (const {from, to, color} of page.marks.arrows) {
      drawn += arrowSvg(from, to, COLOURS[color] || COLOURS.green, "pgn-arrow");
    }
  }
  if (page.arrow) drawn += arrowSvg(page.arrow.slice(0, 2), page.arrow.slice(2, 4), COLOURS.blue, "hint-arrow");
  svg.innerHTML = drawn;
}

function squareFromKey(name, key) {
  // The square an arrow key leads to from ``name``, as the board is shown (flipped or not).
  const step = {ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0]}[key];
  const sign = page.flipped ? -1 : 1;
  const file = FILES.indexOf(name[0]) + sign * step[0], rank = Number(name[1]) + sign * step[1];
  return file >= 0 && file < 8 && rank >= 1 && rank <= 8 ? FILES[file] + rank : name;
}

function squareChosen(name) {
  // A square clicked or chosen by Enter: pick its piece up, or put the piece picked up down there.
  if (page.selected && page.selected !== name) { tryMove(page.selected, name); return false; }
  if (!movesFrom(name).length) { page.selected = null; drawBoard(); return false; }
  page.selected = name;
  drawBoard();
  return true;
}

function moveTyped(text) {
  // A move typed in SAN or UCI (checks and marks optional), as the legal moves name it.
  const view = page.view;
  if (!view || !page.playable) return null;
  const plain = (t) => t.replace(/[+#!?]/g, "").replace(/\s/g, "");
  const typed = plain(text);
  if (view.legal.includes(typed.toLowerCase())) return typed.toLowerCase();
  const sans = view.sans || [];
  let index = sans.findIndex((san) => plain(san) === typed);
  if (index < 0) {
    const loose = sans.map((san, i) => [plain(san).toLowerCase(), i]).filter(([san]) => san === typed.toLowerCase());
    if (loose.length === 1) index = loose[0][1];
  }
  return index < 0 ? null : view.legal[index];
}

async function moveBox(event) {
  event.preventDefault();
  const input = $("move-input");
  const text = input.value.trim();
  if (!text) return;
  const word = text.toLowerCase();
  const commands = {hint: () => hint(), retry: () => takeBack("retry"), undo: () => takeBack("undo"),
                    flip: async () => { page.flipped = !page.flipped; drawBoard(); }};
  if (commands[word] && (page.mode === "practice" || word === "flip")) {
    input.value = "";
    await commands[word]();
    return;
  }
  const move = moveTyped(text);
  if (!move) {
    const legal = page.view && page.playable ? (page.view.sans || []).join(", ") : "none here";
    throw new Error(`${JSON.stringify(text)} is not a legal move here (legal: ${legal})`);
  }
  input.value = "";
  page.selected = null;
  await sendMove(move);
}

function movesFrom(square) {
  return page.playable && page.view ? page.view.legal.filter((m) => m.startsWith(square)) : [];
}

function tryMove(from, to) {
  // A pawn reaching its last rank has four moves there: the player chooses the piece.
  const moves = page.view.legal.filter((m) => m.slice(0, 4) === from + to);
  page.selected = null;
  if (moves.length > 1) choosePromotion(moves);
  else if (moves.length) sendMove(moves[0]).catch(report);
  else drawBoard();
}

function choosePromotion(moves) {
  // Buttons for the pieces the pawn may become (queen first, focused): a click or
  // Enter plays it, Escape puts the pawn back.
  const chooser = $("promotion");
  const white = page.view.fen.split(" ")[1] === "w";
  chooser.textContent = "";
  const close = () => { chooser.hidden = true; drawBoard(); };
  for (const symbol of ["q", "r", "b", "n"]) {
    const move = moves.find((m) => m[4] === symbol);
    if (!move) continue;
    const button = document.createElement("button");
    const piece = white ? symbol.toUpperCase() : symbol;
    button.type = "button";
    button.dataset.move = move;
    button.setAttribute("aria-label", PIECE_NAMES[symbol]);
    button.title = PIECE_NAMES[symbol];
    button.innerHTML = page.pieces[piece] || piece;
    button.addEventListener("click", () => { chooser.hidden = true; sendMove(move).catch(report); });
    chooser.appendChild(button);
  }
  chooser.onkeydown = (event) => { if (event.key === "Escape") { event.preventDefault(); close(); } };
  chooser.hidden = false;
  chooser.querySelector("button").focus();
}

function squareAt(x, y) {
  const element = document.elementFromPoint(x, y);
  const square = element && element.closest(".sq");
  return square ? square.dataset.square : null;
}

function setUpBoard() {
  const board = $("board");
  let drag = null;
  board.addEventListener("pointerdown", (event) => {
    const name = squareAt(event.clientX, event.clientY);
    if (!name) return;
    page.focus = name;
    if (!squareChosen(name)) return;
    const ghost = document.createElement("div");
    ghost.className = "dragging";
    const size = board.querySelector(".sq").getBoundingClientRect().width;
    ghost.style.width = ghost.style.height = size + "px";
    ghost.innerHTML = page.pieces[squaresOf(page.view.fen)[name]] || "";
    drag = {from: name, ghost, moved: false, size};
  });
  board.addEventListener("keydown", (event) => {
    const square = event.target.closest(".sq");
    if (!square) return;
    const name = square.dataset.square;
    if (event.key.startsWith("Arrow")) {
      page.focus = squareFromKey(name, event.key);
      board.querySelector(`[data-square="${page.focus}"]`).focus();
      for (const other of board.querySelectorAll(".sq")) other.tabIndex = other.dataset.square === page.focus ? 0 : -1;
    } else if (event.key === "Enter" || event.key === " ") {
      page.focus = name;
      squareChosen(name);
    } else if (event.key === "Escape") {
      page.selected = null;
      drawBoard();
    } else {
      return;
    }
    event.preventDefault();
  });
  window.addEventListener("pointermove", (event) => {
    if (!drag) return;
    if (!drag.moved) { document.body.appendChild(drag.ghost); drag.moved = true; }
    drag.ghost.style.left = event.clientX - drag.size / 2 + "px";
    drag.ghost.style.top = event.clientY - drag.size / 2 + "px";
  });
  window.addEventListener("pointerup", (event) => {
    if (!drag) return;
    const {from, ghost, moved} = drag;
    drag = null;
    if (!moved) return;  // a click: the piece stays picked, the next click moves it
    ghost.remove();
    const to = squareAt(event.clientX, event.clientY);
    if (to && to !== from) tryMove(from, to);
  });
}

function show(view, playable, marks = null) {
  if (!page.view || page.view.fen !== view.fen) page.arrow = null;  // a hint is for its position only
  $("promotion").hidden = true;  // a choice of piece is for the position it was offered in
  page.marks = marks;
  page.view = view;
  page.playable = playable;
  page.selected = null;
  drawBoard();
}

// -------------------------------------------------------------- plan mode

function lineList() {
  const list = $("line");
  list.textContent = "";
  const blackFirst = page.line.length && page.line[0].turn === "black";
  page.line.slice(1).forEach((step, index) => {
    const ply = index + (blackFirst ? 1 : 0);
    if (ply % 2 === 0 || index === 0) {
      list.appendChild(document.createElement("li"));
      if (ply % 2) list.lastChild.appendChild(document.createTextNode("… "));
    }
    const span = document.createElement("span");
    span.textContent = step.san;
    if (index + 1 === page.lineAt) span.className = "current";
    span.addEventListener("click", () => { page.lineAt = index + 1; showLine(); });
    list.lastChild.appendChild(span);
  });
}

function showLine() {
  page.boxes = null;
  show(page.line[page.lineAt], true);
  lineList();
}

async function setPosition(fen) {
  const view = await api("position", {fen, table: page.table});
  page.line = [view];
  page.lineAt = 0;
  $("tree").textContent = "";
  $("plan-caption").textContent = "";
  $("caption").textContent = "";
  showLine();
}

async function sendMove(move) {
  if (page.mode === "practice") return practiceMove(move);
  const here = page.line[page.lineAt];
  const after = await api("play", {fen: here.fen, move});
  page.line = page.line.slice(0, page.lineAt + 1).concat([after]);
  page.lineAt += 1;
  showLine();
}

function treeList(tree, depth) {
  const list = document.createElement("ul");
  for (const branch of tree.moves) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.className = "node " + tree.side;
    button.textContent = branch.san;
    button.dataset.fen = branch.tree.fen;
    button.dataset.uci = branch.uci;
    button.title = tree.side === "us" ? "our move (the one the plan keeps)" :
      "their reply (every reply is answered)";
    item.appendChild(button);
    if (branch.tree.moves.length) {
      const sub = treeList(branch.tree, depth + 1);
      sub.hidden = depth >= 1;  // the first two plies open; a click opens the rest
      item.appendChild(sub);
    } else {
      // The last leaf says what it is: a mate, or the goal reached.
      item.appendChild(document.createTextNode(branch.san.endsWith("#") ? " checkmate" : " goal"));
    }
    list.appendChild(item);
  }
  return list;
}

async function planHere() {
  const here = page.view;  // the position shown: the line's, or a tree node's
  $("plan-status").textContent = "searching…";
  $("plan-status").hidden = false;
  try {
    const plan = await api("plan", {table: page.table, fen: here.fen});
    // The search's figures are for the author; a class sees them when asked.
    $("plan-status").textContent = `${plan.nodes} nodes, ${plan.ms} ms`;
    $("plan-status").hidden = !$("show-figures").checked;
    const caption = plan.advice ? (plan.advice_description || plan.advice) :
      "no plan: " + plan.failure;
    $("plan-caption").textContent = caption;
    $("caption").textContent = caption;
    const tree = $("tree");
    tree.textContent = "";
    if (plan.tree) {
      const root = document.createElement("button");
      root.className = "node current";
      root.textContent = "start";
      root.dataset.fen = plan.tree.fen;
      tree.appendChild(root);
      tree.appendChild(treeList(plan.tree, 0));
    }
  } finally {
    if ($("plan-status").textContent === "searching…") $("plan-status").textContent = "";
  }
}

function treeClick(event) {
  const button = event.target.closest(".node");
  if (!button) return;
  for (const other of $("tree").querySelectorAll(".node.current")) other.classList.remove("current");
  button.classList.add("current");
  const sub = button.parentElement.querySelector(":scope > ul");
  if (sub) sub.hidden = false;
  api("position", {fen: button.dataset.fen}).then((view) => {
    view.last = button.dataset.uci || null;
    page.boxes = null;
    show(view, false);
  }).catch(report);
}

// ---------------------------------------------------------- practice mode

function gameView(state, at) {
  const step = state.positions[at];
  const now = at === state.positions.length - 1;
  return {fen: step.fen, legal: now ? state.legal : [], sans: now ? state.sans : [], last: step.last};
}

function drawGame() {
  const state = page.game;
  if (!state) return;
  const at = page.gameAt === null ? state.positions.length - 1 : page.gameAt;
  show(gameView(state, at), page.gameAt === null && !state.over);
  const list = $("moves");
  list.textContent = "";
  page.grades.length = Math.min(page.grades.length, state.moves.length);  // moves taken back
  state.moves.forEach((san, index) => {
    if (index % 2 === 0) list.appendChild(document.createElement("li"));
    const span = document.createElement("span");
    const grade = page.grades[index] || "";
    span.textContent = san + ({mistake: "?", blunder: "??"}[grade] || "");
    if (grade) span.classList.add(grade);
    if (index + 1 === at) span.classList.add("current");
    span.addEventListener("click", () => {
      page.gameAt = index + 1 === state.positions.length - 1 ? null : index + 1;
      page.boxes = null;
      drawGame();
    });
    list.lastChild.appendChild(span);
  });
  const toMate = state.distance === null ? "no forced mate" :
    state.distance === 0 ? "mated" : `mate in ${state.distance}`;
  $("status").textContent = state.over ? `Game over: ${state.over}` + (state.solved ?
    ` — you mated in ${state.played} (the fastest: ${state.optimal})` : "") :
    `Your move (${state.us}); ${toMate}.`;
}

async function startPractice() {
  const body = {table: page.table};
  const level = $("level").value.trim();
  if (level) { body.level = level; body.seed = Number($("seed").value) || 0; }
  else if (page.view && page.mode === "practice" && $("fen").value.trim() &&
           $("fen").dataset.asked === "yes") body.fen = $("fen").value.trim();
  $("fen").dataset.asked = "";
  await leave();
  const state = await api("practice/start", body);
  page.session = state.session;
  page.grades = [];
  page.game = state;
  page.gameAt = null;
  page.boxes = null;
  for (const id of ["hint-text", "verdict", "explanation", "caption"]) $(id).textContent = "";
  $("verdict").className = "";
  drawGame();
}

async function leave() {
  // The exercise left counts in the progress record, as al0 practice counts it.
  if (page.session) await api("practice/leave", {session: page.session}).catch(() => null);
  page.session = null;
}

async function showProgress() {
  const {lines} = await api("progress");
  const list = $("progress");
  list.textContent = "";
  for (const line of lines) {
    const item = document.createElement("li");
    item.textContent = line;
    list.appendChild(item);
  }
}

async function practiceMove(move) {
  const answer = await api("practice/move", {session: page.session, move});
  page.game = answer.state;
  page.gameAt = null;
  const turn = answer.turn, verdict = turn.verdict;
  page.grades[answer.state.moves.length - (turn.reply ? 2 : 1)] = verdict.grade;
  $("hint-text").textContent = "";
  const box = $("verdict");
  box.className = verdict.grade;
  box.textContent = `${turn.san}${turn.reply ? " " + turn.reply : ""}: ${verdict.grade} — ` +
    verdict.reason + (verdict.grade === "blunder" ? " (press Retry to take it back)" : "");
  const list = $("explanation");
  list.textContent = "";
  const explanation = turn.explanation;
  if (explanation) {
    // A table a capture or a promotion handed the game to is named.
    $("caption").textContent = (turn.handed_on ? turn.table + ": " : "") + explanation.goal;
    const said = new Set();
    // The measures (one line for those with the same numbers), then what else holds.
    const measures = new Set(explanation.changes.map((c) => c.words));
    const holding = explanation.parts.filter((p) => p.holds)
      .flatMap((p) => p.words.split("; ")).filter((words) => !measures.has(words));
    for (const words of explanation.said.concat(holding)) {
      if (words && !said.has(words)) {
        said.add(words);
        const item = document.createElement("li");
        item.textContent = words;
        list.appendChild(item);
      }
    }
    page.boxes = explanation.squares.before ? explanation.squares : null;
  } else {
    page.boxes = null;
  }
  drawGame();
}

async function hint() {
  const answer = await api("practice/hint", {session: page.session});
  $("hint-text").textContent = "Hint: " + answer.words;
  $("hint-text").dataset.move = answer.move || "";
  if (answer.goal) $("caption").textContent = answer.goal;
  page.arrow = answer.move || null;  // drawn as an arrow, as lichess draws a hint
  drawBoard();
}

async function takeBack(route) {
  const answer = await api("practice/" + route, {session: page.session});
  page.game = answer.state;
  page.gameAt = null;
  page.boxes = null;
  $("verdict").className = "";
  $("verdict").textContent = answer.taken_back ?
    (route === "retry" ? "Taken back: your move again." : "Taken back.") : "Nothing to take back.";
  $("explanation").textContent = "";
  drawGame();
}

// ------------------------------------------------ an EPD file's positions

async function showPositions() {
  const {name, table, fens} = await api("positions");
  $("positions-panel").hidden = !fens.length;
  $("positions-name").textContent = name || "";
  const list = $("positions");
  fens.forEach((fen, index) => {
    const item = document.createElement("li");
    const span = document.createElement("span");
    span.textContent = `position ${index + 1}`;
    span.title = fen;
    span.dataset.fen = fen;
    span.addEventListener("click", () => goTo(table, fen, span).catch(report));
    item.appendChild(span);
    list.appendChild(item);
  });
}

async function goTo(table, fen, span) {
  for (const other of $("positions").querySelectorAll(".current")) other.className = "";
  span.className = "current";
  if (page.table !== table) { $("table").value = table; await chooseTable(table); }
  if (page.mode === "practice") {
    $("fen").value = fen;
    $("fen").dataset.asked = "yes";
    $("level").value = "";
    await startPractice();
  } else {
    await setPosition(fen);
    await planHere();
  }
}

// ------------------------------------------------------------ review mode

async function loadGames() {
  const {name, games} = await api("games");
  page.games = games;
  $("tab-review").hidden = !games.length;
  $("review-name").textContent = name || "";
  const select = $("game");
  games.forEach((game, index) => {
    const h = game.headers;
    select.add(new Option(`${index + 1}. ${h.Event || "game"} ${h.Round || ""} ${h.Result || ""}`,
                          String(index)));
  });
  select.addEventListener("change", () => { page.review = Number(select.value); page.reviewAt = 0;
                                            page.reviewBranch = null; drawReview(); });
}

function reviewLine() {
  // The plies shown: the main line, or the main line up to a variation and then the variation.
  const game = page.games[page.review];
  const branch = page.reviewBranch;
  if (!branch) return game.plies;
  return game.plies.slice(0, branch.at).concat(game.plies[branch.at].variations[branch.index]);
}

function drawGraph(plies) {
  // The distance to mate at every ply of the main line, the start first: from [%eval #N],
  // else the tablebase's; above the axis the side that mates at the start, below the other.
  const svg = $("graph");
  const [, , width, height] = svg.getAttribute("viewBox").split(" ").map(Number);
  const sign = Math.sign(plies.find((ply) => ply.mate)?.mate || 1);
  const values = plies.map((ply) => ply.mate === null ? null : ply.mate * sign);
  const known = values.filter((value) => value !== null);
  const top = Math.max(1, ...known.map(Math.abs));
  const below = known.some((value) => value < 0);
  const zero = below ? height / 2 : height - 15;
  const x = (index) => 24 + index * (width - 34) / Math.max(1, plies.length - 1);
  const y = (value) => zero - value * (zero - 12) / top;
  const current = page.reviewBranch ? -1 : page.reviewAt;
  const marks = plies.map((ply, index) => {
    const value = values[index];
    const grade = value === null ? "none" : ply.grade || "";
    const what = value === null ? "not known" : value === 0 ? "mate" :
      `${value > 0 ? "" : "the other side: "}mate in ${Math.abs(value)}`;
    const label = index === 0 ? "start" : ply.san + ply.mark;
    return `<circle cx="${x(index)}" cy="${y(value || 0)}" r="4" data-ply="${index}" ` +
      `class="${grade}${index === current ? " current" : ""}"><title>${label}: ${what}</title></circle>`;
  }).join("");
  const points = values.map((value, index) => [index, value]).filter(([, value]) => value !== null);
  svg.innerHTML = `<text x="2" y="12">mate in ${top}</text>` +
    `<text x="2" y="${zero - 3}">mate</text>` +
    `<line class="axis" x1="24" y1="${zero}" x2="${width - 10}" y2="${zero}"/>` +
    `<polyline points="${points.map(([i, v]) => x(i) + "," + y(v)).join(" ")}"/>` + marks;
}

function plyNumber(fen) {
  // "3." before White's move, "3…" before Black's, from the position the move is played at.
  const [, turn, , , , number] = fen.split(" ");
  return turn === "w" ? `${number}.` : `${number}…`;
}

function moveSpan(ply, current, onClick) {
  const span = document.createElement("span");
  span.textContent = ply.san + (ply.mark || "");
  span.className = [ply.grade || "", current ? "current" : ""].join(" ").trim();
  span.title = ply.comment || "";
  span.addEventListener("click", onClick);
  return span;
}

function drawReview() {
  const game = page.games[page.review];
  if (!game) return;
  const line = reviewLine();
  const ply = line[page.reviewAt];
  page.boxes = null;
  show({fen: ply.fen, legal: [], last: ply.last}, false, {arrows: ply.arrows || [], squares: ply.squares || []});
  $("review-comment").textContent = ply.comment || "";
  $("caption").textContent = ply.comment || "";
  drawGraph(game.plies);
  const list = $("review-moves");
  list.textContent = "";
  const item = document.createElement("li");
  list.appendChild(item);
  game.plies.slice(1).forEach((step, index) => {
    const at = index + 1, before = game.plies[index];
    const white = before.fen.split(" ")[1] === "w";
    if (white || index === 0) item.appendChild(document.createTextNode(" " + plyNumber(before.fen) + " "));
    const current = !page.reviewBranch && at === page.reviewAt;
    item.appendChild(moveSpan(step, current, () => {
      page.reviewBranch = null; page.reviewAt = at; drawReview();
    }));
    step.variations.forEach((variation, number) => {
      // A move taken back, kept beside the one played: clickable, with its own verdict.
      const aside = document.createElement("span");
      aside.className = "variation";
      aside.appendChild(document.createTextNode(" ("));
      let fen = before.fen;
      variation.forEach((move, offset) => {
        if (offset) aside.appendChild(document.createTextNode(" "));
        if (offset === 0 || fen.split(" ")[1] === "w") aside.appendChild(document.createTextNode(plyNumber(fen) + " "));
        const shown = page.reviewBranch && page.reviewBranch.at === at && page.reviewBranch.index === number &&
          page.reviewAt === at + offset;
        aside.appendChild(moveSpan(move, shown, () => {
          page.reviewBranch = {at, index: number}; page.reviewAt = at + offset; drawReview();
        }));
        fen = move.fen;
      });
      aside.appendChild(document.createTextNode(") "));
      item.appendChild(aside);
    });
  });
}

// ------------------------------------------------------------------- page

function setMode(mode) {
  page.mode = mode;
  for (const tab of document.querySelectorAll(".tab")) {
    tab.setAttribute("aria-pressed", String(tab.dataset.mode === mode));
  }
  $("plan-panel").hidden = mode !== "plan";
  $("practice-panel").hidden = mode !== "practice";
  $("review-panel").hidden = mode !== "review";
  page.boxes = null;
  if (mode === "review") {
    drawReview();
  } else if (mode === "practice") {
    if (page.game && page.game.table === page.table) drawGame();
    else startPractice().catch(report);
  } else if (page.line.length) {
    showLine();
  }
}

async function chooseTable(name) {
  page.table = name;
  page.game = null;
  const table = await api("table", {table: name});
  if (table.start) await setPosition(table.start);
  if (page.mode === "practice") await startPractice();
}

async function main() {
  setUpBoard();
  page.pieces = await api("pieces");
  const {first, tables} = await api("tables");
  const select = $("table");
  for (const name of tables) select.add(new Option(name, name));
  select.value = first || (tables.includes("kqk") ? "kqk" : tables[0]);
  select.addEventListener("change", () => chooseTable(select.value).catch(report));
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => setMode(tab.dataset.mode));
  }
  $("flip").addEventListener("click", () => { page.flipped = !page.flipped; drawBoard(); });
  $("plan-status").hidden = true;
  $("set-fen").addEventListener("click", () => {
    const fen = $("fen").value.trim();
    if (page.mode === "practice") {
      $("fen").dataset.asked = "yes";
      $("level").value = "";
      startPractice().catch(report);
    } else {
      setPosition(fen).catch(report);
    }
  });
  $("plan-here").addEventListener("click", () => planHere().catch(report));
  $("show-figures").addEventListener("change", () => {
    if ($("plan-status").textContent !== "searching…") $("plan-status").hidden = !$("show-figures").checked;
  });
  $("move-form").addEventListener("submit", (event) => moveBox(event).catch(report));
  $("tree").addEventListener("click", treeClick);
  $("start").addEventListener("click", () => startPractice().catch(report));
  $("next").addEventListener("click", () => {
    if (!$("level").value.trim()) $("level").value = "1..5";
    $("seed").value = (Number($("seed").value) || 0) + 1;
    startPractice().catch(report);
  });
  $("hint").addEventListener("click", () => hint().catch(report));
  $("show-progress").addEventListener("click", () => showProgress().catch(report));
  window.addEventListener("pagehide", () => {  // the page closed: the exercise is left
    if (page.session) navigator.sendBeacon("/api/practice/leave",
                                           JSON.stringify({session: page.session}));
  });
  $("retry").addEventListener("click", () => takeBack("retry").catch(report));
  $("undo").addEventListener("click", () => takeBack("undo").catch(report));
  setMode("plan");
  await chooseTable(select.value);
  await showPositions();
  await loadGames();
  $("graph").addEventListener("click", (event) => {
    const ply = event.target.dataset && event.target.dataset.ply;
    if (ply !== undefined) { page.reviewBranch = null; page.reviewAt = Number(ply); drawReview(); }
  });
  document.addEventListener("keydown", (event) => {  // arrows step through a game reviewed
    if (page.mode !== "review" || event.target.tagName === "INPUT" || event.target.closest("#board")) return;
    const game = page.games[page.review];
    if (!game) return;
    if (event.key === "ArrowRight") page.reviewAt = Math.min(page.reviewAt + 1, reviewLine().length - 1);
    else if (event.key === "ArrowLeft") page.reviewAt = Math.max(page.reviewAt - 1, 0);
    else return;
    drawReview();
  });
}

main().catch(report);
