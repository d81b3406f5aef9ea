// Battlemap's player page: the map as the party sees it, live over a WebSocket. No build
// step, no library: it draws what the server sends (docs/sharing.md) and decides no rule —
// a drag's path and cost, the ruler's distance and every move come from the GM's machine.
"use strict";

const TILE = 8; // cells per map-image tile (desktop/share/tiles.py)
const KEYED = ["terrain", "walls", "hazards", "tokens"]; // desktop/share/view.py
const MASKS = ["explored", "visible"];
const ANIMATION_MS_PER_CELL = 140;
// The GM's map's colours (desktop/map/style.py), so the table sees one map.
const FLOOR = [0xd8, 0xd0, 0xc0, 255];
const GRID = "rgba(120, 110, 95, 0.55)";
const TOKEN_FILL = "#f4efe6";
const SIDE_COLOURS = { party: "#2f7fd1", opposition: "#c8322d" };
const HAZARD_COLOURS = { fire: "rgba(230, 90, 20, 0.59)", pit: "rgba(20, 20, 20, 0.67)",
  cliff: "rgba(90, 60, 40, 0.59)", spell: "rgba(150, 70, 210, 0.51)",
  custom: "rgba(200, 180, 30, 0.55)" };
const TERRAIN_COLOURS = { d: [139, 101, 60, 120], s: [90, 170, 220, 120], u: [70, 140, 55, 130] };
const UNSEEN = [0, 0, 0, 255];
const REMEMBERED = [0, 0, 0, 150];
const WALL_COLOURS = { wall: "#1e1b18", door: "#8a4b16", window: "#3d7ebf", object: "#6d6256" };

const state = {
  view: null, visible: null, explored: null, me: null, session: null, players: [],
  scale: 40, panX: 0, panY: 0, following: true, fitted: false,
  drag: null, ruler: null, measuring: false, preview: null, animations: new Map(),
  images: new Map(), socket: null, retryMs: 500, ended: false, moveSeq: 0,
  sentMoves: new Map(), waiting: new Map(), lastView: null, labels: [],
};
const CLOSE_STOPPED = 1001; // desktop/share/server.py: the GM stopped sharing
const MY_TOKEN_PX = 32; // a token given to the player is shown at least this big
const canvas = document.getElementById("map");
const ctx = canvas.getContext("2d");
const secret = location.pathname.split("/")[2];
const storeKey = "battlemap-session-" + secret;

// --- the connection ------------------------------------------------------------------------
function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(scheme + "//" + location.host + location.pathname + "ws");
  state.socket = socket;
  socket.onopen = () => {
    state.retryMs = 500;
    const session = localStorage.getItem(storeKey);
    if (session) send({ type: "hello", session });
    else showJoin("");
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (event.code === CLOSE_STOPPED && !state.ended) {
      showEnd("The GM stopped sharing.", "Ask the GM for the new address or code to join again.");
    }
    setStatus(false);
    if (state.ended) return;
    setTimeout(connect, state.retryMs); // reconnect; the server sends the whole view again
    state.retryMs = Math.min(state.retryMs * 2, 5000);
  };
}

function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) {
    state.socket.send(JSON.stringify(message));
  }
}

const handlers = {
  welcome(m) {
    state.me = m.player; state.session = m.session;
    localStorage.setItem(storeKey, m.session);
    document.getElementById("join").hidden = true;
    document.getElementById("me").textContent = m.player.name;
    setStatus(true);
    setTimeout(() => {
      if (!myTokens().length) say("Tap your character on the map to ask to play it", false);
    }, 800);
  },
  state(m) { takeView(m.view); },
  delta(m) {
    for (const [id, walk] of Object.entries(m.walks || {})) startWalk(id, walk);
    applyDelta(m.changes);
  },
  players(m) { state.players = m.players; showPlayers(); draw(); },
  preview(m) {
    const drag = state.drag;
    if (drag && drag.token === m.token && drag.cell[0] === m.to[0] && drag.cell[1] === m.to[1]) {
      state.preview = m; draw();
    }
  },
  measure(m) { if (state.ruler) { state.ruler.label = m.label; draw(); } },
  move(m) { answerMove(m); },
  claim(m) {
    say(m.text, m.status === "refused");
    if (m.status === "granted") showMine(m.token);
  },
  view(m) {
    state.lastView = [m.x, m.y, m.width, m.height];
    if (state.following) fit(...state.lastView);
  },
  settings() {},
  error(m) { say(m.text, true); },
  ended(m) { localStorage.removeItem(storeKey); showJoin(m.text); },
  kicked(m) {
    localStorage.removeItem(storeKey);
    showEnd(m.text, "Scan the GM's code again to join with another name.");
  },
  pong() {},
};

function receive(message) {
  const handler = handlers[message.type];
  if (handler) handler(message);
}

// A move asked for waits for the GM (its ghost stays on the map) or is answered at once;
// the GM's later OK or no comes without a number.
function answerMove(m) {
  const sent = state.sentMoves.get(m.seq);
  state.sentMoves.delete(m.seq);
  if (m.status === "queued" && sent) state.waiting.set(m.token, sent);
  else state.waiting.delete(m.token);
  say(m.text, m.status === "refused");
  draw();
}

// The page's end: the GM stopped sharing or removed this player. The map goes (it would
// only grow stale) and the page stops trying to reconnect.
function showEnd(title, text) {
  state.ended = true; state.view = null; state.drag = null; state.waiting.clear();
  document.getElementById("end-title").textContent = title;
  document.getElementById("end-text").textContent = text;
  document.getElementById("end").hidden = false;
  setStatus(false); draw();
}

// A token just given to this player: on the screen, big enough to drag.
function showMine(tokenId) {
  const token = state.view?.tokens[tokenId];
  if (!token) return;
  setFollowing(false);
  state.scale = Math.max(state.scale, MY_TOKEN_PX);
  const middle = [canvas.clientWidth / 2, (canvas.clientHeight + 44 - 24) / 2];
  state.panX = middle[0] - (token.x + token.size / 2) * state.scale;
  state.panY = middle[1] - (token.y + token.size / 2) * state.scale;
  draw();
}

function setStatus(online) {
  const status = document.getElementById("status");
  status.textContent = online ? "live" : (state.ended ? "ended" : "reconnecting…");
  status.className = online ? "" : "offline";
}

// --- the view ------------------------------------------------------------------------------
function takeView(view) {
  state.view = view;
  decodeFog();
  if (!state.fitted) {
    state.lastView = state.lastView || exploredArea();
    fit(...state.lastView); state.fitted = true;
  }
  draw();
}

// What the party has explored, a cell around it: the first view when the GM has pushed
// none (the whole of a 300-cell map would draw each cell about a pixel wide on a phone).
function exploredArea() {
  const { width, height } = state.view.map;
  let left = width; let top = height; let right = -1; let bottom = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (state.explored[y * width + x] !== 1) continue;
      left = Math.min(left, x); right = Math.max(right, x);
      top = Math.min(top, y); bottom = Math.max(bottom, y);
    }
  }
  if (right < 0) return [0, 0, width, height];
  left = Math.max(0, left - 1); top = Math.max(0, top - 1);
  return [left, top, Math.min(width, right + 2) - left, Math.min(height, bottom + 2) - top];
}

function applyDelta(changes) {
  const view = state.view;
  if (!view) return;
  for (const [section, value] of Object.entries(changes)) {
    if (KEYED.includes(section)) {
      for (const key of value.gone) delete view[section][key];
      Object.assign(view[section], value.put);
    } else if (!section.endsWith("_flip")) {
      view[section] = value;
    }
  }
  if (changes.visible_flip) flip(state.visible, changes.visible_flip);
  if (changes.explored_flip) flip(state.explored, changes.explored_flip);
  if (changes.map || changes.fog || MASKS.some((m) => changes[m] || changes[m + "_flip"])) {
    decodeFog();
  } else if (changes.terrain) {
    drawTerrain();
  }
  draw();
}

// The masks are the page's own: they arrive whole (a joining or reconnecting page, a new
// map) or as the cells that flipped since the last message.
function decodeFog() {
  const { width, height } = state.view.map;
  for (const mask of MASKS) {
    if (state.view[mask] || !state[mask] || state[mask].length !== width * height) {
      state[mask] = unrun(state.view[mask] || [], width * height);
      delete state.view[mask]; // the mask is the truth from here on
    }
  }
  state.fogImage = cellImage((x, y) => (!seen(state.explored, x, y) ? UNSEEN
    : !seen(state.visible, x, y) ? REMEMBERED : null));
  drawTerrain();
}

function drawTerrain() {
  const codes = state.view.terrain; // "x,y" → code, explored cells only
  state.floorImage = cellImage((x, y) => (seen(state.explored, x, y) ? FLOOR : null));
  state.terrainImage = cellImage((x, y) => TERRAIN_COLOURS[codes[`${x},${y}`]] || null);
}

function unrun(runs, size) {
  const mask = new Uint8Array(size);
  let at = 0; let set = false;
  for (const length of runs) {
    if (set) mask.fill(1, at, at + length);
    at += length; set = !set;
  }
  return mask;
}

function flip(mask, runs) {
  let at = 0; let set = false;
  for (const length of runs) {
    if (set) for (let i = at; i < at + length; i++) mask[i] ^= 1;
    at += length; set = !set;
  }
}

function seen(mask, x, y) {
  const { width, height } = state.view.map;
  return x >= 0 && y >= 0 && x < width && y < height && mask[y * width + x] === 1;
}

// --- where things are on the screen -----------------------------------------------------------
function toScreen(x, y) { return [x * state.scale + state.panX, y * state.scale + state.panY]; }
function toCell(px, py) {
  return [Math.floor((px - state.panX) / state.scale), Math.floor((py - state.panY) / state.scale)];
}

function fit(x, y, width, height) {
  const w = canvas.clientWidth; const h = canvas.clientHeight - 44 - 24; // the bars
  state.scale = Math.max(4, Math.min(w / width, h / height, 160));
  state.panX = (w - width * state.scale) / 2 - x * state.scale;
  state.panY = 44 + (h - height * state.scale) / 2 - y * state.scale;
  draw();
}

function resize() {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(canvas.clientWidth * ratio);
  canvas.height = Math.round(canvas.clientHeight * ratio);
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  if (state.following && state.lastView) fit(...state.lastView); // a phone turned sideways
  draw();
}

// --- drawing ---------------------------------------------------------------------------------
let drawPending = false;
function draw() {
  if (drawPending) return;
  drawPending = true;
  requestAnimationFrame(() => { drawPending = false; paint(performance.now()); });
}

function paint(now) {
  ctx.fillStyle = "#000";
  ctx.fillRect(0, 0, canvas.clientWidth, canvas.clientHeight);
  if (!state.view) return;
  paintFloor(); paintImage(); paintTerrain(); paintHazards(); paintGrid(); paintWalls();
  // Over the fog: the player's own drag (a step into the unexplored must not vanish), the
  // moves waiting for the GM, the tokens' badges (they hang below the token, maybe over a
  // fogged cell), the ruler and the labels.
  const dragged = state.drag?.moved ? state.drag.token : null;
  const tokens = Object.values(state.view.tokens);
  tokens.filter((t) => t.id !== dragged).forEach((t) => paintToken(t, now));
  paintFog();
  paintWaiting(); paintPreview();
  tokens.filter((t) => t.id === dragged).forEach((t) => paintToken(t, now));
  tokens.forEach((t) => paintBadges(t, now));
  paintRuler();
  state.labels.forEach((l) => label(...l)); state.labels = [];
  showTurn();
  if (state.animations.size) draw();
}

function paintFloor() { paintCells(state.floorImage); }

function paintImage() {
  const background = state.view.map.background;
  if (!background) return;
  const { width, height } = state.view.map;
  const [x0, y0] = toCell(0, 0);
  const [x1, y1] = toCell(canvas.clientWidth, canvas.clientHeight);
  for (let ty = Math.max(0, Math.floor(y0 / TILE)); ty <= Math.min(y1, height - 1) / TILE; ty++) {
    for (let tx = Math.max(0, Math.floor(x0 / TILE)); tx <= Math.min(x1, width - 1) / TILE; tx++) {
      const bits = tileBits(tx, ty);
      if (bits === "0".repeat(16)) continue;
      const image = tileImage(background.key, tx, ty, bits);
      if (image.complete && image.naturalWidth) {
        const [sx, sy] = toScreen(tx * TILE, ty * TILE);
        ctx.drawImage(image, sx, sy, TILE * state.scale, TILE * state.scale);
      }
    }
  }
}

function tileBits(tx, ty) {
  let hex = "";
  for (let row = 0; row < TILE; row++) {
    let byte = 0;
    for (let col = 0; col < TILE; col++) {
      if (seen(state.explored, tx * TILE + col, ty * TILE + row)) byte |= 1 << col;
    }
    hex += byte.toString(16).padStart(2, "0");
  }
  return hex;
}

function tileImage(key, tx, ty, bits) {
  const url = `tile/${key}/${tx}/${ty}/${bits}.png?s=${encodeURIComponent(state.session)}`;
  let image = state.images.get(url);
  if (!image) {
    image = new Image();
    image.onload = draw;
    image.src = url;
    state.images.set(url, image);
  }
  return image;
}

function paintTerrain() { paintCells(state.terrainImage); }

function fillCell(x, y) {
  const [sx, sy] = toScreen(x, y);
  ctx.fillRect(sx, sy, state.scale + 0.5, state.scale + 0.5);
}

function paintHazards() {
  ctx.font = `${Math.max(10, state.scale * 0.28)}px system-ui, sans-serif`;
  const hazards = Object.values(state.view.hazards);
  for (const hazard of hazards) {
    ctx.fillStyle = HAZARD_COLOURS[hazard.kind] || HAZARD_COLOURS.custom;
    for (const [x, y] of hazard.cells) fillCell(x, y);
  }
  for (const hazard of hazards) {
    if (!hazard.cells.length) continue;
    const [sx, sy] = toScreen(hazard.cells[0][0], hazard.cells[0][1]);
    const w = ctx.measureText(hazard.name).width + 6;
    ctx.fillStyle = "rgba(255, 255, 255, 0.85)"; ctx.fillRect(sx, sy - 16, w, 15);
    ctx.fillStyle = "#3a2a1a"; ctx.fillText(hazard.name, sx + 3, sy - 4);
  }
}

function paintGrid() {
  const { width, height } = state.view.map;
  if (state.scale < 8) return;
  clipToMap();
  ctx.strokeStyle = GRID;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let x = 0; x <= width; x++) {
    const [sx, sy] = toScreen(x, 0); const [, ey] = toScreen(x, height);
    ctx.moveTo(sx, sy); ctx.lineTo(sx, ey);
  }
  for (let y = 0; y <= height; y++) {
    const [sx, sy] = toScreen(0, y); const [ex] = toScreen(width, y);
    ctx.moveTo(sx, sy); ctx.lineTo(ex, sy);
  }
  ctx.stroke();
  ctx.restore();
}

function clipToMap() {
  const { width, height } = state.view.map;
  const [left, top] = toScreen(0, 0);
  ctx.save();
  ctx.beginPath(); ctx.rect(left, top, width * state.scale, height * state.scale); ctx.clip();
}

function paintWalls() {
  clipToMap();
  ctx.lineCap = "round";
  for (const [x1, y1, x2, y2, kind, open] of Object.values(state.view.walls)) {
    ctx.strokeStyle = WALL_COLOURS[kind] || "#eee";
    ctx.lineWidth = Math.max(2, state.scale * (kind === "wall" ? 0.12 : 0.09));
    ctx.setLineDash(kind === "door" && open ? [state.scale * 0.15, state.scale * 0.15] : []);
    const [ax, ay] = toScreen(x1, y1); const [bx, by] = toScreen(x2, y2);
    ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx, by); ctx.stroke();
  }
  ctx.restore();
}

function tokenPlace(token, now) {
  const walk = state.animations.get(token.id);
  if (walk && walk.cells.length > 1) {
    const step = (now - walk.start) / ANIMATION_MS_PER_CELL;
    if (step < walk.cells.length - 1) {
      const i = Math.floor(step); const f = step - i;
      const [ax, ay] = walk.cells[i]; const [bx, by] = walk.cells[i + 1];
      return [ax + (bx - ax) * f, ay + (by - ay) * f];
    }
    state.animations.delete(token.id);
  }
  const drag = state.drag;
  if (drag && drag.token === token.id && drag.moved) return drag.at;
  return [token.x, token.y];
}

function tokenCircle(token, at) {
  const [sx, sy] = toScreen(at[0], at[1]);
  const side = token.size * state.scale;
  return { cx: sx + side / 2, cy: sy + side / 2, bottom: sy + side,
    r: side / 2 - Math.max(1, state.scale * 0.06) };
}

function paintToken(token, now) {
  const { cx, cy, r } = tokenCircle(token, tokenPlace(token, now));
  const colour = SIDE_COLOURS[token.side] || "#777";
  const ring = Math.max(3, state.scale * 0.08);
  if (state.view.turn.acting.includes(token.id)) { // acting in this segment
    ctx.beginPath(); ctx.arc(cx, cy, r + 2 * ring, 0, 2 * Math.PI);
    ctx.lineWidth = ring; ctx.strokeStyle = "#fff"; ctx.setLineDash([ring * 1.5, ring]);
    ctx.stroke(); ctx.setLineDash([]);
  }
  if (myTokens().includes(token.id)) {
    ctx.beginPath(); ctx.arc(cx, cy, r + ring, 0, 2 * Math.PI);
    ctx.fillStyle = "#ffc20e"; ctx.fill();
  }
  ctx.beginPath(); ctx.arc(cx, cy, r, 0, 2 * Math.PI);
  ctx.fillStyle = TOKEN_FILL; ctx.fill();
  ctx.lineWidth = Math.max(2, r * 0.16); ctx.strokeStyle = colour; ctx.stroke();
  paintPortrait(token, cx, cy, r);
  ctx.fillStyle = colour; ctx.textAlign = "center"; ctx.textBaseline = "middle";
  ctx.font = `bold ${Math.max(9, r * 0.7)}px system-ui, sans-serif`;
  if (!token.portrait) fitText(initials(token.name), cx, cy, 1.7 * r);
  ctx.textAlign = "start"; ctx.textBaseline = "alphabetic";
}

// Text no wider than ``room``: a smaller font, down to 7 px (three initials on a small token).
function fitText(text, x, y, room) {
  const size = parseFloat(ctx.font.match(/([\d.]+)px/)[1]);
  const wide = ctx.measureText(text).width;
  if (wide > room) ctx.font = ctx.font.replace(/[\d.]+px/, `${Math.max(7, size * room / wide)}px`);
  ctx.fillText(text, x, y);
}

// The moves waiting for the GM: a dashed ring where the token would go.
function paintWaiting() {
  ctx.setLineDash([6, 4]); ctx.lineWidth = 3; ctx.strokeStyle = "#ffc20e";
  for (const [tokenId, to] of state.waiting) {
    const token = state.view.tokens[tokenId];
    if (!token) continue;
    const { cx, cy, r } = tokenCircle(token, to);
    ctx.beginPath(); ctx.arc(cx, cy, r, 0, 2 * Math.PI); ctx.stroke();
    state.labels.push(["waiting for the GM", ...toScreen(to[0], to[1]), "ask"]);
  }
  ctx.setLineDash([]);
}

function paintPortrait(token, cx, cy, r) {
  if (!token.portrait) return;
  const url = `portrait/${token.portrait}?s=${encodeURIComponent(state.session)}`;
  let image = state.images.get(url);
  if (!image) { image = new Image(); image.onload = draw; image.src = url; state.images.set(url, image); }
  if (!image.complete || !image.naturalWidth) return;
  ctx.save(); ctx.beginPath(); ctx.arc(cx, cy, r * 0.9, 0, 2 * Math.PI); ctx.clip();
  ctx.drawImage(image, cx - r, cy - r, 2 * r, 2 * r); ctx.restore();
}

function paintBadges(token, now) {
  const { cx, bottom } = tokenCircle(token, tokenPlace(token, now));
  const lines = [];
  if (token.hp !== undefined) lines.push(`${token.hp}/${token.max_hp} HP`);
  if (token.health) lines.push(token.health);
  if (token.conditions.length) lines.push(token.conditions.join(", "));
  if (state.scale < 18 || !lines.length) return;
  ctx.font = `${Math.max(9, state.scale * 0.22)}px system-ui, sans-serif`;
  ctx.textAlign = "center"; ctx.textBaseline = "middle";
  lines.forEach((line, i) => {
    const y = bottom + (i + 0.6) * Math.max(10, state.scale * 0.26);
    const w = ctx.measureText(line).width + 6;
    ctx.fillStyle = "rgba(0, 0, 0, 0.7)"; ctx.fillRect(cx - w / 2, y - 7, w, 14);
    ctx.fillStyle = i === 0 && token.hp !== undefined && token.hp <= 0 ? "#f88" : "#fff";
    ctx.fillText(line, cx, y);
  });
  ctx.textAlign = "start"; ctx.textBaseline = "alphabetic";
}

function initials(name) {
  const words = name.split(/\s+/).filter(Boolean);
  const last = words.length > 1 && /^\d+$/.test(words[words.length - 1]) ? words.pop() : "";
  return words.slice(0, 2).map((w) => w[0]).join("").toUpperCase() + last;
}

function paintFog() {
  if (!state.view.fog.on) return;
  paintCells(state.fogImage);
}

// One pixel per cell, drawn scaled up without smoothing: hard cell edges, one call a frame.
function cellImage(colourOf) {
  const { width, height } = state.view.map;
  const image = document.createElement("canvas");
  image.width = width; image.height = height;
  const pixels = new ImageData(width, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const colour = colourOf(x, y);
      if (colour) pixels.data.set(colour, (y * width + x) * 4);
    }
  }
  image.getContext("2d").putImageData(pixels, 0, 0);
  return image;
}

function paintCells(image) {
  const [sx, sy] = toScreen(0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(image, sx, sy, image.width * state.scale, image.height * state.scale);
  ctx.imageSmoothingEnabled = true;
}

function paintPreview() {
  const preview = state.preview; const drag = state.drag;
  if (!preview || !drag || !drag.moved) return;
  const half = state.scale * (state.view.tokens[drag.token]?.size || 1) / 2;
  const tone = !preview.legal ? "bad" : preview.needs_gm ? "ask" : "good";
  ctx.strokeStyle = { good: "#4caf50", ask: "#ffb300", bad: "#e53935" }[tone];
  ctx.lineWidth = Math.max(3, state.scale * 0.1);
  ctx.beginPath();
  preview.path.forEach(([x, y], i) => {
    const [sx, sy] = toScreen(x, y);
    if (i === 0) ctx.moveTo(sx + half, sy + half); else ctx.lineTo(sx + half, sy + half);
  });
  ctx.stroke();
  state.labels.push([preview.label, ...toScreen(preview.to[0], preview.to[1]), tone]);
}

function paintRuler() {
  const ruler = state.ruler;
  if (!ruler) return;
  const [ax, ay] = toScreen(ruler.from[0] + 0.5, ruler.from[1] + 0.5);
  const [bx, by] = toScreen(ruler.to[0] + 0.5, ruler.to[1] + 0.5);
  ctx.strokeStyle = "#ffd54a"; ctx.lineWidth = 3; ctx.setLineDash([8, 6]);
  ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx, by); ctx.stroke(); ctx.setLineDash([]);
  if (ruler.label) state.labels.push([ruler.label, bx, by, "good"]);
}

const LABEL_COLOURS = { good: "rgba(20, 60, 20, 0.9)", ask: "rgba(120, 80, 0, 0.92)",
  bad: "rgba(110, 20, 20, 0.92)" };

// A label over everything, kept whole on the screen (a long text is cut with "…").
function label(text, x, y, tone) {
  ctx.font = "bold 14px system-ui, sans-serif";
  const room = canvas.clientWidth - 12;
  while (text.length > 4 && ctx.measureText(text).width + 12 > room) {
    text = text.slice(0, -2) + "…";
  }
  const w = ctx.measureText(text).width + 12;
  x = Math.max(0, Math.min(x, canvas.clientWidth - w));
  y = Math.max(44 + 26, Math.min(y, canvas.clientHeight - 24));
  ctx.fillStyle = LABEL_COLOURS[tone]; ctx.fillRect(x, y - 26, w, 22);
  ctx.fillStyle = "#fff"; ctx.fillText(text, x + 6, y - 10);
}

// --- players and claims ----------------------------------------------------------------------
function myTokens() {
  const me = state.me && state.players.find((p) => p.id === state.me.id);
  return me ? me.tokens : [];
}

function ownerOf(tokenId) { return state.players.find((p) => p.tokens.includes(tokenId)); }

function showPlayers() {
  const names = state.players.map((p) => {
    const tokens = p.tokens.map((id) => state.view?.tokens[id]?.name || id).join(", ");
    return `${p.online ? "●" : "○"} ${p.name}${tokens ? ": " + tokens : ""}` +
      (p.asking ? " (asking)" : "");
  });
  document.getElementById("players").textContent = names.join("   ");
}

// A drag that began on a token this player does not play pans the map, and says why.
function tellWhosePlays(token) {
  const owner = ownerOf(token.id);
  if (owner && owner.id !== state.me?.id) say(`${owner.name} plays ${token.name}`, false);
  else if (token.side === "party") say(`Tap ${token.name} to ask to play it`, false);
}

function offerClaim(token) {
  const owner = ownerOf(token.id);
  const sheet = document.getElementById("sheet");
  document.getElementById("sheet-text").textContent = owner
    ? `${owner.name} plays ${token.name}.` : `Nobody plays ${token.name} yet.`;
  const yes = document.getElementById("sheet-yes");
  yes.hidden = Boolean(owner) || token.side !== "party";
  yes.textContent = `Play ${token.name}`;
  yes.onclick = () => { send({ type: "claim", token: token.id }); sheet.hidden = true; };
  sheet.hidden = false;
}

document.getElementById("sheet-no").onclick = () => { document.getElementById("sheet").hidden = true; };

// --- the pointer: pan, pinch, drag a token, the ruler ---------------------------------------
const pointers = new Map();
let pinch = null;

function tokenAt(cx, cy) {
  return Object.values(state.view?.tokens || {}).find((t) =>
    cx >= t.x && cx < t.x + t.size && cy >= t.y && cy < t.y + t.size);
}

canvas.addEventListener("pointerdown", (event) => {
  canvas.setPointerCapture(event.pointerId);
  pointers.set(event.pointerId, [event.offsetX, event.offsetY]);
  if (pointers.size === 2) { startPinch(); state.drag = null; state.ruler = null; return; }
  if (!state.view) return;
  const [cx, cy] = toCell(event.offsetX, event.offsetY);
  if (state.measuring) {
    state.ruler = { from: [cx, cy], to: [cx, cy], label: "" }; return;
  }
  const token = tokenAt(cx, cy);
  if (token && myTokens().includes(token.id)) {
    const grab = [(event.offsetX - state.panX) / state.scale - token.x,
      (event.offsetY - state.panY) / state.scale - token.y]; // where on the token, in cells
    state.drag = { token: token.id, grab, cell: [token.x, token.y],
      at: [token.x, token.y], moved: false };
    state.preview = null;
  } else {
    state.drag = { pan: [event.offsetX, event.offsetY], tapped: token || null, moved: false };
  }
});

canvas.addEventListener("pointermove", (event) => {
  if (!pointers.has(event.pointerId)) return;
  pointers.set(event.pointerId, [event.offsetX, event.offsetY]);
  if (pinch) { movePinch(); return; }
  if (state.ruler && state.measuring) { moveRuler(event); return; }
  const drag = state.drag;
  if (!drag) return;
  if (drag.pan) {
    const dx = event.offsetX - drag.pan[0]; const dy = event.offsetY - drag.pan[1];
    if (Math.abs(dx) + Math.abs(dy) > 4 || drag.moved) {
      if (!drag.moved && drag.tapped) tellWhosePlays(drag.tapped);
      drag.moved = true; setFollowing(false);
      state.panX += dx; state.panY += dy; drag.pan = [event.offsetX, event.offsetY]; draw();
    }
    return;
  }
  const px = (event.offsetX - state.panX) / state.scale - drag.grab[0];
  const py = (event.offsetY - state.panY) / state.scale - drag.grab[1];
  drag.at = [px, py]; drag.moved = true;
  const cell = [Math.round(px), Math.round(py)];
  if (cell[0] !== drag.cell[0] || cell[1] !== drag.cell[1]) {
    drag.cell = cell; state.preview = null;
    send({ type: "preview", token: drag.token, to: cell });
  }
  draw();
});

function moveRuler(event) {
  const cell = toCell(event.offsetX, event.offsetY);
  const ruler = state.ruler;
  if (cell[0] !== ruler.to[0] || cell[1] !== ruler.to[1]) {
    ruler.to = cell; ruler.label = "";
    send({ type: "measure", points: [ruler.from, ruler.to] });
    draw();
  }
}

function endPointer(event) {
  pointers.delete(event.pointerId);
  if (pinch) { if (pointers.size < 2) pinch = null; return; }
  const drag = state.drag;
  state.drag = null;
  if (!drag) return;
  if (drag.token) {
    const token = state.view.tokens[drag.token];
    if (drag.moved && token && (drag.cell[0] !== token.x || drag.cell[1] !== token.y)) {
      state.moveSeq += 1;
      state.sentMoves.set(state.moveSeq, drag.cell);
      send({ type: "move", token: drag.token, to: drag.cell, seq: state.moveSeq });
    }
    state.preview = null; draw();
  } else if (!drag.moved && drag.tapped) {
    offerClaim(drag.tapped);
  }
}
canvas.addEventListener("pointerup", endPointer);
canvas.addEventListener("pointercancel", endPointer);

function startPinch() {
  const [a, b] = [...pointers.values()];
  pinch = { distance: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1,
    middle: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] };
  setFollowing(false);
}

function movePinch() {
  const [a, b] = [...pointers.values()];
  const distance = Math.hypot(a[0] - b[0], a[1] - b[1]) || 1;
  const middle = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  zoomAt(pinch.middle[0], pinch.middle[1], distance / pinch.distance);
  state.panX += middle[0] - pinch.middle[0]; state.panY += middle[1] - pinch.middle[1];
  pinch = { distance, middle };
  draw();
}

function zoomAt(x, y, factor) {
  const scale = Math.max(4, Math.min(state.scale * factor, 200));
  const real = scale / state.scale;
  state.panX = x - (x - state.panX) * real; state.panY = y - (y - state.panY) * real;
  state.scale = scale;
}

canvas.addEventListener("wheel", (event) => {
  event.preventDefault(); setFollowing(false);
  zoomAt(event.offsetX, event.offsetY, Math.exp(-event.deltaY * 0.0015)); draw();
}, { passive: false });

// --- the bar, the join form, messages --------------------------------------------------------
function setFollowing(on) {
  state.following = on;
  document.getElementById("follow").setAttribute("aria-pressed", String(on));
}
document.getElementById("follow").onclick = () => {
  setFollowing(!state.following);
  if (state.following && state.view) {
    fit(...(state.lastView || exploredArea()));
  }
};
document.getElementById("ruler").onclick = (event) => {
  state.measuring = !state.measuring; state.ruler = null;
  event.target.setAttribute("aria-pressed", String(state.measuring)); draw();
};

function showJoin(problem) {
  document.getElementById("join").hidden = false;
  document.getElementById("join-problem").textContent = problem || "";
}
document.getElementById("join").addEventListener("submit", (event) => {
  event.preventDefault();
  const name = document.getElementById("name").value.trim();
  if (name) send({ type: "hello", name });
});

let tipTimer = 0;
function say(text, bad) {
  const tip = document.getElementById("tip");
  tip.textContent = text; tip.className = bad ? "bad" : ""; tip.hidden = false;
  clearTimeout(tipTimer);
  tipTimer = setTimeout(() => { tip.hidden = true; }, 4000);
}

function startWalk(id, cells) {
  if (cells.length > 1) state.animations.set(id, { cells, start: performance.now() });
}

function showTurn() {
  const turn = state.view?.turn;
  const element = document.getElementById("turn");
  if (!turn || turn.segment === null) { element.textContent = "No round yet"; return; }
  const acting = turn.acting.map((id) => state.view.tokens[id]?.name).filter(Boolean);
  element.textContent = `Round ${turn.round} · segment ${turn.segment}` +
    (acting.length ? ` · ${acting.join(", ")} acting` : "");
}

window.addEventListener("resize", resize);
resize();
connect();
