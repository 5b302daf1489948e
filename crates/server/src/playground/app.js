// Menagerie playground: builds itself from /openapi.json. No dependencies.
"use strict";

const $ = (id) => document.getElementById(id);
let spec = null;
let current = null; // { path, op }

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c) e.append(c);
  return e;
}

// Text with `code` spans, built as nodes (never innerHTML).
function rich(text) {
  const frag = document.createDocumentFragment();
  String(text || "").split("`").forEach((part, i) => {
    if (i % 2) frag.append(el("code", { text: part }));
    else if (part) frag.append(part);
  });
  return frag;
}

function resolve(obj) {
  // Follows one local $ref ("#/components/...").
  if (obj && obj.$ref && obj.$ref.startsWith("#/")) {
    return obj.$ref.slice(2).split("/").reduce((o, k) => (o ? o[k] : undefined), spec);
  }
  return obj;
}

async function load() {
  try {
    const res = await fetch("/openapi.json");
    spec = await res.json();
  } catch (err) {
    $("endpoints").replaceChildren(el("p", { class: "error", text: "Could not load /openapi.json: " + err }));
    return;
  }
  $("version").textContent = "v" + spec.info.version;
  buildNav();
  buildGallery();
  $("filter").addEventListener("input", () => buildNav($("filter").value));
  const wanted = decodeURIComponent(location.hash.slice(1));
  if (wanted && spec.paths[wanted]) select(wanted);
}

function buildNav(filter = "") {
  const groups = new Map();
  const f = filter.trim().toLowerCase();
  for (const [path, item] of Object.entries(spec.paths)) {
    const op = item.get;
    if (!op) continue;
    if (f && !path.toLowerCase().includes(f) && !(op.summary || "").toLowerCase().includes(f)) continue;
    const tag = (op.tags && op.tags[0]) || "other";
    if (!groups.has(tag)) groups.set(tag, []);
    groups.get(tag).push([path, op]);
  }
  const list = $("endpoints");
  list.replaceChildren();
  const order = (spec.tags || []).map((t) => t.name);
  const rank = (t) => (order.includes(t) ? order.indexOf(t) : order.length);
  const sorted = [...groups].sort((a, b) => rank(a[0]) - rank(b[0]));
  for (const [tag, eps] of sorted) {
    const g = el("div", { class: "group" }, el("h3", { text: tag }));
    for (const [path, op] of eps) {
      const kind = responseKind(op);
      const b = el(
        "button",
        { type: "button", class: "endpoint", "data-path": path, title: op.summary || path },
        el("span", { class: "path", text: path }),
        el("span", { class: "kind kind-" + kind, text: kind })
      );
      if (current && current.path === path) b.classList.add("active");
      b.addEventListener("click", () => select(path));
      g.append(b);
    }
    list.append(g);
  }
  if (!groups.size) list.append(el("p", { class: "muted", text: "No endpoint matches." }));
}

// Every operation that names a preview (`x-preview`), grouped by tag in
// the document's tag order: a card with the image and the endpoint's path.
// An operation whose path parameters pick the image lists its previews in
// `x-previews` (the rank and welcome cards): one card each, under the
// entry's own heading, and a click fills those path parameters too.
function buildGallery() {
  const groups = new Map();
  const order = (spec.tags || []).map((t) => t.name);
  const rank = (t) => (order.includes(t) ? order.indexOf(t) : order.length);
  const add = (title, tag, wide, card) => {
    if (!groups.has(title)) groups.set(title, { rank: rank(tag), wide, cards: [] });
    groups.get(title).cards.push(card);
  };
  for (const [path, item] of Object.entries(spec.paths)) {
    const op = item.get;
    if (!op) continue;
    const tag = (op.tags && op.tags[0]) || "other";
    if (op["x-preview"]) {
      add(tag, tag, false, previewCard(path, op, op["x-preview"], path.split("/").pop(), path, {}));
    }
    for (const entry of op["x-previews"] || []) {
      const params = entry.parameters || {};
      const stem = String(entry.preview).split("/").pop().replace(/\.[a-z]+$/, "");
      const picked = Object.entries(params).find(([, v]) => v === stem);
      const name = picked ? picked[0] + " " + picked[1] : stem;
      add(entry.group || tag, tag, true, previewCard(path, op, entry.preview, name, entry.path || path, params));
    }
  }
  const gallery = $("gallery");
  gallery.replaceChildren();
  // Stable sort: within a tag, groups keep the document's order.
  for (const [title, group] of [...groups].sort((a, b) => a[1].rank - b[1].rank)) {
    const grid = el("div", { class: group.wide ? "gallery-grid wide" : "gallery-grid" }, ...group.cards);
    gallery.append(el("section", { class: "gallery-group" }, el("h3", { text: title }), grid));
  }
  if (!groups.size) gallery.append(el("p", { class: "muted", text: "No previews in this API description." }));
}

// One gallery card: the preview, a name and the image's path; a click
// opens the operation with `params` (path parameters) filled in.
function previewCard(path, op, preview, name, shown, params) {
  const card = el(
    "button",
    { type: "button", class: "preview", "data-path": path, "data-preview": preview, title: op.summary || path },
    el("span", { class: "preview-frame" }, el("img", { src: preview, alt: (op.summary || path) + " (" + name + ")", decoding: "async" })),
    el("span", { class: "preview-name", text: name }),
    el("span", { class: "preview-path", text: shown })
  );
  card.addEventListener("click", () => {
    select(path);
    for (const [k, v] of Object.entries(params)) {
      const input = $("param-" + k);
      if (input) input.value = v;
    }
    updateUrl();
    $("request").scrollIntoView({ behavior: "smooth", block: "start" });
  });
  return card;
}

function showGallery() {
  current = null;
  history.replaceState(null, "", location.pathname);
  for (const b of document.querySelectorAll(".endpoint")) b.classList.remove("active");
  $("request").hidden = true;
  $("response").hidden = true;
  $("welcome").hidden = false;
  $("gallery-card").hidden = false;
  $("gallery-card").scrollIntoView({ behavior: "smooth", block: "start" });
}

function responseKind(op) {
  const ok = resolve(op.responses && op.responses["200"]);
  const types = Object.keys((ok && ok.content) || {});
  if (types.some((t) => t.startsWith("image/"))) return "image";
  if (types.includes("application/json")) return "json";
  return "text";
}

function select(path) {
  const op = spec.paths[path].get;
  current = { path, op };
  history.replaceState(null, "", "#" + encodeURIComponent(path));
  for (const b of document.querySelectorAll(".endpoint")) b.classList.toggle("active", b.dataset.path === path);
  $("welcome").hidden = true;
  $("gallery-card").hidden = true;
  $("request").hidden = false;
  $("ep-path").textContent = path;
  $("ep-summary").replaceChildren(rich(op.summary));
  $("ep-description").replaceChildren(rich(op.description));
  const form = $("params");
  form.replaceChildren();
  const params = op.parameters || [];
  if (!params.length) form.append(el("p", { class: "muted small", text: "No parameters." }));
  for (const raw of params) {
    const p = resolve(raw);
    const schema = p.schema || {};
    const id = "param-" + p.name;
    let input;
    if (Array.isArray(schema.enum)) {
      input = el("select", { id, name: p.name, "data-in": p.in });
      if (!p.required) input.append(el("option", { value: "", text: "(default)" }));
      for (const v of schema.enum) input.append(el("option", { value: v, text: v }));
      input.value = p.example !== undefined ? p.example : schema.default || schema.enum[0];
    } else {
      input = el("input", {
        id,
        name: p.name,
        "data-in": p.in,
        type: schema.type === "number" || schema.type === "integer" ? "number" : "text",
        step: schema.type === "number" ? "any" : undefined,
        min: schema.minimum,
        max: schema.maximum,
        maxlength: schema.maxLength,
        placeholder: schema.default !== undefined ? "default " + schema.default : "",
      });
      input.value = p.example !== undefined ? p.example : "";
      // An avatar the server can always fetch when it is publicly reachable:
      // its own colour square.
      if (schema.format === "uri" && p.name === "avatar") {
        input.value = location.origin + "/canvas/colorviewer?hex=6246EA";
      }
    }
    input.addEventListener("input", updateUrl);
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); send(); }
    });
    const hints = [];
    if (schema.minimum !== undefined || schema.maximum !== undefined) hints.push(`range ${schema.minimum ?? "…"}–${schema.maximum ?? "…"}`);
    if (schema.maxLength) hints.push(`≤ ${schema.maxLength} chars`);
    if (schema.default !== undefined) hints.push(`default ${schema.default}`);
    form.append(
      el(
        "div",
        { class: "param" },
        el(
          "label",
          { for: id },
          el("span", { class: "name", text: p.name }),
          el("span", { class: p.required ? "req" : "opt", text: p.required ? "required" : "optional" }),
          el("span", { class: "where", text: p.in })
        ),
        input,
        el("p", { class: "hint" }, rich([p.description, hints.join(" · ")].filter(Boolean).join(" — ")))
      )
    );
  }
  updateUrl();
  $("response").hidden = true;
}

function buildUrl() {
  if (!current) return "";
  let path = current.path;
  const q = new URLSearchParams();
  for (const input of $("params").querySelectorAll("input, select")) {
    const v = input.value.trim();
    if (input.dataset.in === "path") path = path.replace("{" + input.name + "}", encodeURIComponent(v));
    else if (v !== "") q.append(input.name, v);
  }
  const qs = q.toString();
  return path + (qs ? "?" + qs : "");
}

function updateUrl() {
  $("url").value = location.origin + buildUrl();
}

async function copyUrl() {
  const url = $("url").value;
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    $("url").select();
    document.execCommand("copy");
  }
  const b = $("copy");
  b.textContent = "Copied";
  setTimeout(() => (b.textContent = "Copy URL"), 1200);
}

function highlight(json) {
  // Escapes, then wraps tokens in spans (no innerHTML of unescaped data).
  const esc = json.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return esc.replace(
    /("(?:\\u[a-fA-F0-9]{4}|\\[^u]|[^\\"])*"(\s*:)?|\b(?:true|false|null)\b|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g,
    (m) => {
      let cls = "num";
      if (m.startsWith('"')) cls = m.endsWith(":") ? "key" : "str";
      else if (m === "true" || m === "false") cls = "bool";
      else if (m === "null") cls = "null";
      return `<span class="${cls}">${m}</span>`;
    }
  );
}

let lastObjectUrl = null;
async function send() {
  if (!current) return;
  const url = buildUrl();
  const btn = $("send");
  btn.disabled = true;
  btn.textContent = "Sending…";
  const t0 = performance.now();
  for (const id of ["result-json", "result-image-wrap", "result-text"]) $(id).hidden = true;
  try {
    const res = await fetch(url);
    const ms = Math.round(performance.now() - t0);
    const type = res.headers.get("content-type") || "";
    const status = $("status");
    status.textContent = res.status + " " + (res.statusText || "");
    status.className = "status " + (res.ok ? "ok" : res.status >= 500 ? "bad" : "warn");
    let size = 0;
    if (type.startsWith("image/")) {
      const blob = await res.blob();
      size = blob.size;
      if (lastObjectUrl) URL.revokeObjectURL(lastObjectUrl);
      lastObjectUrl = URL.createObjectURL(blob);
      const img = $("result-image");
      img.src = lastObjectUrl;
      await img.decode().catch(() => {});
      $("result-image-wrap").hidden = false;
      $("meta").textContent = `${type} · ${fmtSize(size)} · ${img.naturalWidth}×${img.naturalHeight} · ${ms} ms`;
    } else {
      const text = await res.text();
      size = new Blob([text]).size;
      if (type.includes("json")) {
        let pretty = text;
        try { pretty = JSON.stringify(JSON.parse(text), null, 2); } catch { /* shown as is */ }
        $("result-json").innerHTML = highlight(pretty);
        $("result-json").hidden = false;
      } else {
        $("result-text").textContent = text;
        $("result-text").hidden = false;
      }
      $("meta").textContent = `${type || "no content type"} · ${fmtSize(size)} · ${ms} ms`;
    }
  } catch (err) {
    $("status").textContent = "network error";
    $("status").className = "status bad";
    $("result-text").textContent = String(err);
    $("result-text").hidden = false;
    $("meta").textContent = "";
  } finally {
    $("response").hidden = false;
    btn.disabled = false;
    btn.textContent = "Send";
  }
}

function fmtSize(n) {
  return n < 1024 ? n + " B" : (n / 1024).toFixed(1) + " KiB";
}

document.addEventListener("DOMContentLoaded", () => {
  $("send").addEventListener("click", send);
  $("copy").addEventListener("click", copyUrl);
  $("show-gallery").addEventListener("click", showGallery);
  load();
});
