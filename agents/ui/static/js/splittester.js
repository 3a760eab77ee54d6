// SplitTester's panel: per task, the candidate decks (suite verdict, which selector picked each) and every
// generated test layout drawn from its polygons, with the expected verdicts and each candidate's verdict on it.

import { color, svg } from "./charts.js";
import { badge, codeBlock, el, empty, num, panel, table } from "./common.js";

const SIZE = 280;

export function drawLayout(layout) {
  if (!layout || layout.error || !layout.bbox) return empty(layout?.error || "layout not readable");
  const [x0, y0, x1, y1] = layout.bbox, w = Math.max(x1 - x0, 1e-9), h = Math.max(y1 - y0, 1e-9);
  const scale = (SIZE - 20) / Math.max(w, h);
  const px = (x) => 10 + (x - x0) * scale, py = (y) => SIZE - 10 - (y - y0) * scale;
  const ring = (points) => points.map(([x, y], i) => `${i ? "L" : "M"}${px(x).toFixed(2)},${py(y).toFixed(2)}`).join("") + "Z";
  const root = svg("svg", { width: SIZE, height: SIZE, viewBox: `0 0 ${SIZE} ${SIZE}`, class: "layout" });
  layout.layers.forEach((layer, index) => {
    const group = svg("g", { "data-layer": layer.layer, fill: color(index), "fill-opacity": 0.45, stroke: color(index) });
    for (const polygon of layer.polygons) {
      group.append(svg("path", { d: ring(polygon.hull) + polygon.holes.map(ring).join(""), "fill-rule": "evenodd" }));
    }
    root.append(group);
  });
  const legend = el("div", { class: "legend" }, ...layout.layers.map((layer, index) =>
    el("span", {}, el("span", { class: "swatch", style: `background:${color(index)}` }), `${layer.layer} (${layer.total})`)),
  `${num(w)} × ${num(h)} µm`, layout.truncated ? "(first polygons only)" : "");
  return el("div", {}, root, legend);
}

function said(verdict, expected) {
  if (!verdict) return "—";
  if (verdict.said.includes("error")) return el("span", { title: verdict.error }, badge("error"));
  const wanted = Object.entries(expected).filter(([, bad]) => bad).map(([category]) => category).sort();
  const agrees = JSON.stringify([...verdict.said].sort()) === JSON.stringify(wanted);
  return el("span", { class: agrees ? "agrees" : "disagrees", title: agrees ? "as expected" : "not what the test expects" },
    verdict.said.length ? `violated: ${verdict.said.join(", ")}` : "clean");
}

function testCard(test, candidates) {
  const expected = Object.entries(test.expected).map(([category, bad]) => `${category}: ${bad ? "violated" : "clean"}`).join(" · ");
  return el("div", { class: "layout-card", "data-test": test.name }, el("div", { class: "mono", text: test.name }),
    drawLayout(test.layout), el("div", { class: "muted", text: `expected ${expected || "—"} (${test.origin})` }),
    table([["candidate", (r) => `#${r.index}`], ["its verdict", (r) => said(test.verdicts[r.index], test.expected)]], candidates));
}

function taskSection(task) {
  const row = task.row || {};
  const candidates = table([["#", "index", { num: 1 }], ["suite verdict", (c) => badge(c.success === null || c.success === undefined ? "—" : c.success ? "correct" : "incorrect")],
    ["reason", (c) => (c.reason || "").slice(0, 140)], ["picked by", (c) => c.picked_by.join(", ") || "—"],
    ["deck", (c) => el("details", {}, el("summary", { text: "show" }), codeBlock(c.deck))]], task.candidates);
  return el("div", { class: "splittester-task", "data-task": task.task },
    el("h3", { text: `${task.task}: pass@1 ${num(row["pass@1"])} · SplitTester's pick ${row.splittester === undefined ? "—" : row.splittester ? "correct" : "incorrect"} · ${task.tests.length} test layouts` }),
    candidates,
    task.tests.length ? el("div", { class: "layouts" }, task.tests.map((t) => testCard(t, task.candidates))) : empty("no test layout was generated"));
}

export function renderSplittester(container, view) {
  container.replaceChildren(panel("SplitTester: test layouts and verdicts",
    view.tasks.length ? view.tasks.map(taskSection) : empty("no task has finished yet")));
}
