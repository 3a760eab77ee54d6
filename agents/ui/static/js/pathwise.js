// PathWise's panel: the entailment graph (click a heuristic for its code, derivation and score) and the gap over
// evaluations.

import { lineChart } from "./charts.js";
import { codeBlock, el, empty, keyValues, num, panel } from "./common.js";
import { drawDag } from "./dag.js";

const state = { node: null };

function gap(node) { return node.score === null || node.score === undefined ? "failed" : `${num(node.score)} %`; }

function nodeDetail(node) {
  if (!node) return el("div", { id: "heuristic-detail", class: "empty", text: "click a heuristic in the graph" });
  return el("div", { id: "heuristic-detail" }, el("h3", { text: `${node.id}: ${gap(node)}` }),
    keyValues({ description: node.description, rationale: node.rationale || "—", origin: node.origin, round: node.round,
      step: node.step, parents: (node.parents || []).map((p) => `${p.id} (${p.score === null ? "failed" : num(p.score) + " %"})`).join(", ") || "—",
      failure: node.failure || undefined }),
    el("h3", { text: "Heuristic code" }), codeBlock(node.code));
}

export function renderPathwise(container, view) {
  const byId = new Map(view.nodes.map((n) => [n.id, n]));
  if (!byId.has(state.node)) state.node = view.best_id || view.nodes[0]?.id || null;
  const redraw = () => renderPathwise(container, view);
  const nodes = view.nodes.map((n) => ({ id: n.id, label: n.id, sub: gap(n), title: n.description,
    classes: [n.id === view.best_id ? "best" : "", n.score === null ? "failed" : "", n.id === state.node ? "active" : ""].join(" "),
    onClick: () => { state.node = n.id; redraw(); } }));
  const graph = view.nodes.length ? drawDag(nodes, view.edges.map((e) => ({ source: e.source, target: e.target })))
    : empty("no heuristic evaluated yet");
  const points = view.gaps;
  const chart = lineChart({ title: "Gap over evaluations", xLabel: "evaluations", yLabel: "train gap %", series: [
    { name: "each evaluated heuristic", points: points.map((p) => [p.evaluation, p.gap]), line: false, color: "#9aa3b2" },
    { name: "best so far", points: points.map((p) => [p.evaluation, p.best]), step: true }] });
  container.replaceChildren(panel(`PathWise: ${view.problem} (${view.method})`,
    el("div", { class: "split" },
      el("div", {}, el("h3", { text: `Entailment graph (${view.nodes.length} heuristics; green: best)` }),
        el("div", { class: "scroll", id: "entailment-graph" }, graph)),
      el("div", {}, el("div", { id: "gap-chart" }, chart || empty("no evaluation yet")), nodeDetail(byId.get(state.node))))));
}
