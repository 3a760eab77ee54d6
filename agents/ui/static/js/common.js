// Shared helpers of the dashboard pages: DOM building (text only, never HTML from run data), the JSON API,
// the action token, number formatting and small tables.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export async function getJSON(url) {
  const response = await fetch(url, { headers: tokenHeader() });
  const data = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
  return data;
}

const TOKEN_KEY = "agentkiln-token";

export function token() { return sessionStorage.getItem(TOKEN_KEY) || ""; }
export function setToken(value) { sessionStorage.setItem(TOKEN_KEY, value.trim()); }
function tokenHeader() { return token() ? { "X-Agentkiln-Token": token() } : {}; }

export async function postAction(runId, action, body = {}) {
  const response = await fetch(`/api/runs/${encodeURIComponent(runId)}/${action}`, {
    method: "POST", headers: { "Content-Type": "application/json", ...tokenHeader() }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  if (!response.ok) throw new Error(data.error || `${response.status}`);
  return data;
}

// One formatter for every integer: Number.toLocaleString builds a new one on each call, which was most of the
// time the runs list took to draw 200 rows.
const INTEGERS = new Intl.NumberFormat("en-US");

export function num(value, digits = 4) {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value !== "number") return String(value);
  if (Number.isInteger(value)) return INTEGERS.format(value);
  return Number(value.toPrecision(digits)).toString();
}

export function cost(value, known = true) {
  if (!known) return "unknown";
  return value === null || value === undefined ? "—" : `$${Number(value).toFixed(4)}`;
}

export function when(epoch) {
  if (!epoch) return "—";
  const date = new Date(epoch * 1000);
  const ago = (Date.now() - date.getTime()) / 1000;
  const stamp = date.toISOString().replace("T", " ").slice(0, 19);
  if (ago < 0 || ago > 86400) return stamp;
  if (ago < 60) return `${Math.round(ago)} s ago`;
  if (ago < 3600) return `${Math.round(ago / 60)} min ago`;
  return `${Math.round(ago / 3600)} h ago`;
}

export function seconds(value) {
  if (value === null || value === undefined) return "—";
  return value < 1 ? `${(value * 1000).toFixed(1)} ms` : `${value.toFixed(2)} s`;
}

export function text(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "object") return JSON.stringify(value);
  return typeof value === "number" ? num(value) : String(value);
}

export function badge(value) {
  const label = value === true ? "yes" : value === false ? "no" : String(value ?? "—");
  return el("span", { class: `badge ${label}`, text: label });
}

// A table: columns are [title, key or function(row), {num: true}] triples.
export function table(columns, rows, options = {}) {
  const head = el("tr", {}, columns.map(([title, , opts]) => el("th", { class: opts?.num ? "num" : null, text: title })));
  const body = rows.map((row) => {
    const tr = el("tr", { class: options.onRow ? "clickable" : null, onclick: options.onRow && (() => options.onRow(row, tr)) },
      columns.map(([, key, opts]) => {
        const value = typeof key === "function" ? key(row) : row[key];
        return el("td", { class: opts?.num ? "num" : null }, value instanceof Node ? value : text(value));
      }));
    return tr;
  });
  return el("table", {}, el("thead", {}, head), el("tbody", {}, body));
}

export function keyValues(object, keys = null) {
  const grid = el("div", { class: "kv" });
  for (const key of keys || Object.keys(object || {})) {
    const value = object[key];
    if (value === undefined) continue;
    grid.append(el("div", { class: "k", text: key }), el("div", {}, value instanceof Node ? value : text(value)));
  }
  return grid;
}

export function panel(title, ...children) {
  return el("section", { class: "panel" }, title ? el("h2", { text: title }) : null, ...children);
}

export function empty(message) { return el("div", { class: "empty", text: message }); }

export function codeBlock(source, className = "") { return el("pre", { class: className }, source ?? ""); }

export function diffBlock(diff) {
  const block = el("pre", { class: "diff" });
  for (const line of diff.split("\n")) {
    const kind = line.startsWith("+") && !line.startsWith("+++") ? "add"
      : line.startsWith("-") && !line.startsWith("---") ? "del" : line.startsWith("@@") ? "hunk" : null;
    block.append(el("span", { class: kind }, line), kind ? "" : "\n");
  }
  return block;
}

export function showError(container, error) {
  container.replaceChildren(el("div", { class: "message error", text: String(error.message || error) }));
}
