// The step-through page's player: draws the board from the layout once, then shows frame by
// frame the seeds, the marks of the move and its laps, and the words. No network, no library.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("game").textContent);
  const L = data.layout;
  const frames = data.frames;
  const NS = "http://www.w3.org/2000/svg";
  // Lap colours and dashes, dots and path offsets, as the diagrams draw them.
  const COLOURS = data.colours;
  const DASHES = data.dashes;
  const MOST_DOTS = data.most_dots;
  const holes = frames[0].board.length;
  const ring = data.ring;

  function el(name, attrs, parent, text) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }

  // The board, drawn once.
  const svg = el("svg", { viewBox: `0 0 ${L.width} ${L.height}`, width: L.width, height: L.height,
    "font-family": "DejaVu Sans, Verdana, sans-serif", role: "img" });
  document.getElementById("board").appendChild(svg);
  const title = el("text", { x: 12, y: L.title_y, "font-size": 18, "font-weight": "bold",
    "dominant-baseline": "middle", id: "title" }, svg);
  const [fl, ft, fr, fb] = L.frame;
  el("rect", { x: fl, y: ft, width: fr - fl, height: fb - ft, fill: "#efe4cf", stroke: "#282828" }, svg);
  const rowLabels = {};
  for (const row of L.rows) {
    rowLabels[row.side] = el("text", { x: 78 - 14, y: row.y, "font-size": 15, "text-anchor": "end",
      "dominant-baseline": "middle" }, svg, row.side);
  }
  const storeCounts = {};
  ["south", "north"].forEach((side, i) => {
    const s = L.spots[holes + i];
    const [hw, hh] = L.store;
    el("rect", { x: s.x - hw, y: s.y - hh, width: 2 * hw, height: 2 * hh, fill: "#fffbf2", stroke: "#282828" }, svg);
    storeCounts[side] = el("text", { x: s.x, y: s.y, "font-size": 20, "font-weight": "bold",
      "text-anchor": "middle", "dominant-baseline": "middle", class: "store-count", "data-side": side }, svg);
    el("text", { x: s.x, y: s.y + hh - 10, "font-size": 11, "text-anchor": "middle",
      "dominant-baseline": "middle" }, svg, side[0].toUpperCase() + " " + data.store_label);
  });
  const pits = [];
  for (let h = 0; h < holes; h++) {
    const s = L.spots[h];
    const g = el("g", { class: "pit", "data-hole": h }, svg);
    const house = el("rect", { x: s.x - L.pit - 5, y: s.y - L.pit - 5, width: 2 * L.pit + 10,
      height: 2 * L.pit + 10, fill: "none", stroke: "#282828", "stroke-width": 2, visibility: "hidden" }, g);
    const circle = el("circle", { cx: s.x, cy: s.y, r: L.pit }, g);
    const dots = el("g", {}, g);
    const count = el("text", { x: s.x, y: s.y, "font-size": 16, "font-weight": "bold", "text-anchor": "middle",
      "dominant-baseline": "middle", class: "count" }, g);
    el("text", { x: s.x, y: s.number_y, "font-size": 11, fill: "#969696", "text-anchor": "middle",
      "dominant-baseline": "middle" }, g, String(h));
    const owner = el("text", { x: s.x + L.pit - 2, y: s.y - L.pit + 4, "font-size": 12, "font-weight": "bold",
      fill: "#00498c", "text-anchor": "middle", "dominant-baseline": "middle" }, g);
    pits.push({ house, circle, dots, count, owner, spot: s });
  }
  const paths = el("g", { class: "paths" }, svg);
  const status = el("text", { x: 12, y: L.status_y, "font-size": 14, "dominant-baseline": "middle", id: "status" }, svg);

  function track(p, off) {
    const s = L.spots[p];
    return [s.track_x, s.track + s.inward * off];
  }

  function offset(lap, drop) {
    return ((lap + Math.floor(drop / Math.max(ring, 1))) % data.offset_cycle) * data.offset_step;
  }

  // The laps of the move shown at frame `i`: its own and those of the frames before it in
  // the same move.
  // A move's frames share a key; a round's start has one of its own.
  function key(f) {
    return f.turn === 0 ? "start " + f.round : "move " + f.index;
  }

  function lapsAt(i) {
    const f = frames[i];
    if (f.turn === 0) return [];
    let j = i;
    while (j > 0 && key(frames[j - 1]) === key(f)) j--;
    const laps = [];
    for (let k = j; k <= i; k++) laps.push(...frames[k].laps);
    return laps;
  }

  function drawPaths(laps) {
    paths.replaceChildren();
    laps.forEach((lap, k) => {
      const points = [track(lap.from, offset(k, 0))];
      lap.drops.forEach((p, d) => points.push(track(p, offset(k, d))));
      const colour = COLOURS[k % COLOURS.length];
      el("polyline", { points: points.map(p => p.join(",")).join(" "), fill: "none", stroke: colour,
        "stroke-width": 2, "stroke-dasharray": DASHES[k % DASHES.length] }, paths);
      el("circle", { cx: points[0][0], cy: points[0][1], r: 3, fill: colour }, paths);
      if (points.length > 1) {
        const [a, b] = points.slice(-2);
        const dx = b[0] - a[0], dy = b[1] - a[1];
        const len = Math.max(Math.hypot(dx, dy), 1), ux = dx / len, uy = dy / len;
        const pt = (along, across) => [b[0] + ux * along - uy * across, b[1] + uy * along + ux * across];
        el("polygon", { points: [pt(4, 0), pt(-7, 5), pt(-7, -5)].map(p => p.join(",")).join(" "), fill: colour }, paths);
      }
      if (laps.length > 1) {
        el("text", { x: points[0][0] - 8, y: points[0][1], "font-size": 11, "font-weight": "bold", fill: colour,
          "text-anchor": "end", "dominant-baseline": "middle" }, paths, String(k + 1));
      }
    });
  }

  function drawPit(h, f) {
    const p = pits[h];
    const closed = f.closed.includes(h), captured = f.captured.includes(h), played = f.played === h;
    p.house.setAttribute("visibility", f.houses.includes(h) ? "visible" : "hidden");
    p.circle.setAttribute("fill", closed ? "#bebebe" : captured ? "#fadecc" : "#fffbf2");
    p.circle.setAttribute("stroke", played ? "#00498c" : captured ? "#d55e00" : "#282828");
    p.circle.setAttribute("stroke-width", played ? 4 : captured ? 3 : 1);
    p.dots.replaceChildren();
    const seeds = f.board[h];
    if (closed) {
      p.count.textContent = "×";
      p.count.dataset.seeds = "closed";
    } else {
      p.count.textContent = String(seeds);
      p.count.dataset.seeds = String(seeds);
      p.count.setAttribute("fill", seeds === 0 ? "#969696" : "#282828");
      if (seeds <= MOST_DOTS) {
        const r = L.pit - 8;
        for (let i = 0; i < seeds; i++) {
          const a = 2 * Math.PI * i / seeds;
          el("circle", { cx: p.spot.x + Math.round(r * Math.sin(a)), cy: p.spot.y - Math.round(r * Math.cos(a)),
            r: 3, fill: "#282828", "fill-opacity": 0.75 }, p.dots);
        }
      }
    }
    const foreign = f.foreign.find(([hole]) => hole === h);
    p.owner.textContent = foreign ? foreign[1][0].toUpperCase() : "";
  }

  const slider = document.getElementById("slider");
  slider.max = String(frames.length - 1);
  const moves = document.getElementById("moves");
  const moveItems = [];
  frames.forEach((f, i) => {
    // A move's entry jumps to its last frame.
    if (f.turn > 0 && (i + 1 === frames.length || key(frames[i + 1]) !== key(f))) {
      const li = document.createElement("li");
      li.value = f.index;
      li.textContent = f.title.replace(/^(round \d+, )?move \d+: (\w+) plays hole /, "$2 ");
      li.addEventListener("click", () => show(i));
      moves.appendChild(li);
      moveItems[f.index] = li;
    }
  });
  const totalMoves = frames[frames.length - 1].index;
  let current = 0;

  function show(i) {
    current = Math.max(0, Math.min(frames.length - 1, i));
    const f = frames[current];
    title.textContent = f.title;
    for (let h = 0; h < holes; h++) drawPit(h, f);
    storeCounts.south.textContent = String(f.stores[0]);
    storeCounts.north.textContent = String(f.stores[1]);
    for (const side in rowLabels) {
      const moving = f.to_move === side;
      rowLabels[side].textContent = moving ? side + " ▸" : side;
      rowLabels[side].setAttribute("font-weight", moving ? "bold" : "normal");
    }
    drawPaths(lapsAt(current));
    status.textContent = f.status.trim();
    slider.value = String(current);
    const round = f.round > 1 ? `round ${f.round} · ` : "";
    const lap = f.turn > 0 && f.laps_in_move > 1 ? ` · lap ${f.lap} of ${f.laps_in_move}` : "";
    document.getElementById("where").textContent =
      `${round}move ${f.index} of ${totalMoves}${lap} · step ${current + 1} of ${frames.length}`;
    document.getElementById("heading").textContent = f.title;
    const words = document.getElementById("words");
    words.replaceChildren();
    for (const w of f.words) {
      const li = document.createElement("li");
      li.textContent = w;
      words.appendChild(li);
    }
    moveItems.forEach(li => li && li.classList.remove("current"));
    const item = moveItems[f.index];
    if (item) {
      item.classList.add("current");
      if (item.scrollIntoView && item.offsetParent) item.scrollIntoView({ block: "nearest" });
    }
    document.body.dataset.frame = String(current);
  }

  // The last frame of the move (or round start) that frame `i` belongs to.
  function endOf(i) {
    while (i < frames.length - 1 && key(frames[i + 1]) === key(frames[i])) i++;
    return i;
  }
  // A move on: the end of this move if not there yet, else the end of the next.
  function nextMove() {
    const e = endOf(current);
    return e > current ? e : endOf(Math.min(e + 1, frames.length - 1));
  }
  // A move back: the end of the move before this one.
  function prevMove() {
    let i = current;
    while (i > 0 && key(frames[i]) === key(frames[current])) i--;
    return i;
  }

  document.getElementById("first").addEventListener("click", () => show(0));
  document.getElementById("prev-move").addEventListener("click", () => show(prevMove()));
  document.getElementById("prev").addEventListener("click", () => show(current - 1));
  document.getElementById("next").addEventListener("click", () => show(current + 1));
  document.getElementById("next-move").addEventListener("click", () => show(nextMove()));
  document.getElementById("last").addEventListener("click", () => show(frames.length - 1));
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", e => {
    if (e.target === slider && (e.key === "ArrowLeft" || e.key === "ArrowRight")) return;
    const keys = { ArrowRight: () => current + 1, ArrowLeft: () => current - 1, ArrowDown: nextMove,
      PageDown: nextMove, ArrowUp: prevMove, PageUp: prevMove, Home: () => 0, End: () => frames.length - 1 };
    if (keys[e.key]) {
      e.preventDefault();
      show(keys[e.key]());
    }
  });
  // `page.html#step-12` opens at step 12.
  const asked = /^#step-(\d+)$/.exec(window.location.hash);
  show(asked ? Number(asked[1]) - 1 : 0);
})();
