// A layered drawing of a directed graph as SVG: layers by longest path from the roots (cycles broken by dropping
// back edges from the layering; back edges are drawn curving round the right), order by predecessors' mean.

import { svg } from "./charts.js";

const ROW = 78, GAP = 26, CHAR = 7.2, HEIGHT = 36;

function backEdges(ids, edges) {
  const out = new Map(ids.map((id) => [id, []]));
  edges.forEach((e, index) => out.get(e.source)?.push([e.target, index]));
  const state = new Map(), back = new Set();
  const visit = (id) => {
    state.set(id, 1);
    for (const [next, index] of out.get(id) || []) {
      if (state.get(next) === 1) back.add(index);
      else if (!state.has(next)) visit(next);
    }
    state.set(id, 2);
  };
  const incoming = new Set(edges.map((e) => e.target));
  [...ids.filter((id) => !incoming.has(id)), ...ids].forEach((id) => { if (!state.has(id)) visit(id); });
  return back;
}

function layers(ids, edges, back) {
  const layer = new Map(ids.map((id) => [id, 0]));
  const forward = edges.filter((e, i) => !back.has(i) && layer.has(e.source) && layer.has(e.target));
  for (let round = 0; round < ids.length; round++) {
    let changed = false;
    for (const e of forward) if (layer.get(e.target) < layer.get(e.source) + 1) {
      layer.set(e.target, layer.get(e.source) + 1); changed = true;
    }
    if (!changed) break;
  }
  return { layer, forward };
}

function order(ids, layer, forward) {
  const rows = [];
  ids.forEach((id) => (rows[layer.get(id)] ||= []).push(id));
  const position = new Map();
  rows.forEach((row) => row.forEach((id, i) => position.set(id, i)));
  for (let sweep = 0; sweep < 2; sweep++) rows.forEach((row, depth) => {
    if (depth === 0) return;
    const mean = (id) => {
      const parents = forward.filter((e) => e.target === id).map((e) => position.get(e.source));
      return parents.length ? parents.reduce((a, b) => a + b, 0) / parents.length : position.get(id);
    };
    row.sort((a, b) => mean(a) - mean(b)).forEach((id, i) => position.set(id, i));
  });
  return rows.filter(Boolean);
}

// nodes: [{id, label, sub, classes, title, onClick}], edges: [{source, target, dashed, observed}]
export function drawDag(nodes, edges) {
  const ids = nodes.map((n) => n.id);
  const back = backEdges(ids, edges);
  const { layer, forward } = layers(ids, edges, back);
  const rows = order(ids, layer, forward);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const width = (n) => Math.min(240, Math.max(70, Math.max(n.label.length, (n.sub || "").length) * CHAR + 20));
  const rowWidth = (row) => row.reduce((sum, id) => sum + width(byId.get(id)) + GAP, -GAP);
  const total = Math.max(...rows.map(rowWidth), 200) + 80;
  const place = new Map();
  rows.forEach((row, depth) => {
    let x = (total - rowWidth(row)) / 2;
    row.forEach((id) => { const w = width(byId.get(id)); place.set(id, { x, y: 16 + depth * ROW, w }); x += w + GAP; });
  });
  const height = 16 + rows.length * ROW;
  const root = svg("svg", { width: total, height, viewBox: `0 0 ${total} ${height}`, class: "dag" });
  root.append(svg("defs", {}, svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7,
    markerHeight: 7, orient: "auto-start-reverse" }, svg("path", { d: "M0,0L10,5L0,10z", fill: "#98a2b3" }))));
  edges.forEach((e, index) => {
    const a = place.get(e.source), b = place.get(e.target);
    if (!a || !b) return;
    let d;
    if (back.has(index) || layer.get(e.target) <= layer.get(e.source)) {
      const ax = a.x + a.w, ay = a.y + HEIGHT / 2, bx = b.x + b.w, by = b.y + HEIGHT / 2, bend = Math.max(ax, bx) + 40;
      d = `M${ax},${ay}C${bend},${ay} ${bend},${by} ${bx + 2},${by}`;
    } else if (layer.get(e.target) - layer.get(e.source) > 1) {  // a long edge bends round the left of the layers between
      const ax = a.x, ay = a.y + HEIGHT / 2, bx = b.x, by = b.y + HEIGHT / 2, bend = Math.min(ax, bx) - 40;
      d = `M${ax},${ay}C${bend},${ay} ${bend},${by} ${bx - 2},${by}`;
    } else {
      const ax = a.x + a.w / 2, ay = a.y + HEIGHT, bx = b.x + b.w / 2, by = b.y - 2, mid = (ay + by) / 2;
      d = `M${ax},${ay}C${ax},${mid} ${bx},${mid} ${bx},${by}`;
    }
    root.append(svg("path", { d, class: `edge${e.observed ? " observed" : e.dashed ? " dashed" : ""}`, "marker-end": "url(#arrow)",
      "data-source": e.source, "data-target": e.target }));
  });
  for (const node of nodes) {
    const p = place.get(node.id);
    const group = svg("g", { class: `node ${node.classes || ""} ${node.onClick ? "clickable" : ""}`, "data-id": node.id,
      transform: `translate(${p.x},${p.y})` });
    group.append(svg("rect", { width: p.w, height: HEIGHT, rx: 8 }));
    const main = svg("text", { x: p.w / 2, y: node.sub ? 15 : 22, "text-anchor": "middle" });
    main.textContent = node.label;
    group.append(main);
    if (node.sub) {
      const sub = svg("text", { x: p.w / 2, y: 29, "text-anchor": "middle", "font-size": 11, fill: "#667085" });
      sub.textContent = node.sub;
      group.append(sub);
    }
    if (node.title) { const t = svg("title"); t.textContent = node.title; group.append(t); }
    if (node.onClick) group.addEventListener("click", () => node.onClick(node));
    root.append(group);
  }
  return root;
}
