// The RPG panel: a browser over the repository planning graph (functional hierarchy, files, classes, functions,
// their dependencies both ways) and the localisation's ranked results.

import { codeBlock, el, empty, keyValues, panel, table } from "./common.js";

const state = { node: null, query: "" };

function matches(node, query) {
  if (!query) return false;
  return [node.id, node.name, ...(node.features || [])].join(" ").toLowerCase().includes(query);
}

function anyMatch(node, query) { return matches(node, query) || node.children.some((c) => anyMatch(c, query)); }

function ancestors(node, id, trail = []) {
  if (node.id === id) return trail;
  for (const child of node.children) { const found = ancestors(child, id, [...trail, node.id]); if (found) return found; }
  return null;
}

function branch(node, depth, view, select, opened) {
  const query = state.query;
  const span = node.path && node.kind !== "file" ? ` ${node.start}–${node.end}` : "";
  const label = el("span", { class: "name", "data-id": node.id, onclick: (e) => { e.preventDefault(); select(node.id); } },
    node.name + span);
  const line = [el("span", { class: "kind", text: node.kind }), label];
  const item = el("li", { class: [matches(node, query) ? "hit" : "", node.id === state.node ? "chosen" : ""].join(" ") });
  if (!node.children.length) { item.append(...line); return item; }
  const open = query ? anyMatch(node, query) : depth < 2 || opened.has(node.id);
  const children = node.children.filter((c) => !query || anyMatch(c, query));
  item.append(el("details", { open: open || null }, el("summary", {}, ...line),
    el("ul", {}, children.map((c) => branch(c, depth + 1, view, select, opened)))));
  return item;
}

function find(node, id) {
  if (node.id === id) return node;
  for (const child of node.children) { const found = find(child, id); if (found) return found; }
  return null;
}

function links(ids, select) {
  return el("span", {}, ...ids.flatMap((id, i) => [i ? ", " : "", el("a", { href: "#", onclick: (e) => { e.preventDefault(); select(id); }, text: id })]));
}

function detail(view, select) {
  const node = state.node && view.tree ? find(view.tree, state.node) : null;
  if (!node) return el("div", { id: "rpg-detail", class: "empty", text: "click a node to see its features and dependencies" });
  const deps = view.nodes[node.id] || { uses: {}, used_by: {} };
  const relation = (group) => Object.keys(group).length
    ? el("div", {}, ...Object.entries(group).map(([kind, ids]) => el("div", {}, el("span", { class: "muted", text: `${kind}: ` }), links(ids, select))))
    : "—";
  return el("div", { id: "rpg-detail" }, el("h3", { text: node.id }),
    keyValues({ kind: node.kind, path: node.path || "—", lines: node.path && node.end ? `${node.start}–${node.end}` : "—",
      features: (node.features || []).join("; ") || "—", summary: node.summary || "—", uses: relation(deps.uses),
      "used by": relation(deps.used_by) }),
    node.signature ? codeBlock(node.signature) : null);
}

export function renderRpg(container, view) {
  const redraw = () => renderRpg(container, view);
  const select = (id) => { state.node = id; redraw(); };
  if (state.node === null && view.locations.length) state.node = view.locations[0].entity || view.locations[0].file;
  const opened = new Set(view.tree && state.node ? ancestors(view.tree, state.node) || [] : []);
  const search = el("input", { type: "text", id: "rpg-search", placeholder: "search names, paths, features…", value: state.query,
    size: 30, onchange: (e) => { state.query = e.target.value.trim().toLowerCase(); redraw(); } });
  const tree = view.tree ? el("div", { class: "tree scroll", id: "rpg-tree" }, el("ul", {}, branch(view.tree, 0, view, select, opened)))
    : empty("no graph saved yet");
  const located = view.locations.length ? table([["rank", "rank", { num: 1 }], ["file", "file"], ["entity", "entity"],
    ["lines", "lines"], ["reason", (r) => (r.reason || "").slice(0, 160)]], view.locations,
  { onRow: (r) => select(r.entity || r.file) }) : empty(view.issue ? "no location found" : "no issue was given to localise");
  located.id = "rpg-locations";
  const stats = Object.entries(view.stats || {}).map(([k, v]) => `${k} ${v}`).join(" · ");
  container.replaceChildren(panel(`Repository planning graph${view.name ? `: ${view.name}` : ""}`,
    el("div", { class: "muted", text: stats }),
    view.issue ? el("div", {}, el("h3", { text: "Issue" }), codeBlock(view.issue)) : null,
    el("h3", { text: "Localisation, ranked" }), located,
    el("div", { class: "split" }, el("div", {}, el("h3", { text: "Browse" }), search, tree),
      el("div", {}, detail(view, select)))));
}
