// aare table: steppers and forms on every page; on the game page the map (zoom, pan, clicks), composing
// moves, live updates from the server (server-sent events) and keyboard shortcuts. htmx does the requests.
(function () {
  "use strict";

  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));

  // ---- steppers (+/- beside a number input) and purchase totals ------------------------------------
  document.addEventListener("click", (event) => {
    const step = event.target.closest("[data-step]");
    if (step) {
      const input = $("input", step.closest(".stepper"));
      if (input && !input.disabled) {
        const max = input.max === "" ? Infinity : Number(input.max);
        const next = Math.min(max, Math.max(Number(input.min || 0), Number(input.value || 0) + Number(step.dataset.step)));
        input.value = String(next);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
      return;
    }
    const all = event.target.closest("[data-all]");
    if (all) {
      $$(".js-move-count", all.closest(".move-units")).forEach((input) => {
        if (!input.disabled) input.value = all.dataset.all === "1" ? input.max : "0";
      });
      return;
    }
    if (event.target.closest("[data-cancel-route]")) clearRoute();
  });

  document.addEventListener("input", (event) => {
    const form = event.target.closest("form.purchase");
    if (!form) return;
    let cost = 0;
    $$("tr[data-cost]", form).forEach((row) => {
      cost += Number(row.dataset.cost) * Number($("input", row).value || 0);
    });
    const left = Number(form.dataset.bank) - cost;
    $(".js-cost", form).textContent = String(cost);
    $(".js-left", form).textContent = String(left);
    $(".buy-total", form).classList.toggle("over", left < 0);
  });

  // ---- lobby: show the chosen ruleset's options and the chosen seating's seats ----------------------
  function syncNewGame() {
    const ruleset = $("#ruleset-choice");
    const seating = $("#seating-choice");
    if (!ruleset || !seating) return;
    $$(".ruleset-fields").forEach((fs) => { fs.hidden = fs.dataset.ruleset !== ruleset.value; });
    $$(".seats[data-seating]").forEach((div) => { div.hidden = div.dataset.seating !== seating.value; });
  }
  document.addEventListener("change", (event) => {
    if (event.target.id === "ruleset-choice" || event.target.id === "seating-choice") syncNewGame();
    // the battle calculator: another ruleset has other units (cruisers...) and techs: load its form
    if (event.target.id === "odds-rules") location.assign("/odds?rules=" + encodeURIComponent(event.target.value));
  });

  // ---- the game page --------------------------------------------------------------------------------
  const game = document.body.dataset.game;
  const table = { selected: null, refreshTimer: null, sideBusy: false, sidePending: false, pendingLive: true,
                  liveAsk: false, kept: null, mapBusy: false, heard: 0, lastHash: null };
  const asked = new WeakMap();  // side request -> live messages heard when it was sent
  const liveAsks = new WeakSet();  // side requests sent for a live update (another player's action)

  function sideInner() { return $("#side .side-inner"); }
  function mapBox() { return $("#map"); }
  function svg() { return $("#map > svg"); }

  // -- zoom and pan by the SVG viewBox; the view keeps the pane's aspect, so the map fills it
  let full = null;
  let view = null;
  function aspect() { const box = mapBox(); return box.clientWidth / Math.max(1, box.clientHeight); }
  function readFull() {
    const s = svg();
    if (!s) return;
    const vb = s.getAttribute("viewBox").split(/\s+/).map(Number);
    full = { x: vb[0], y: vb[1], w: vb[2], h: vb[3] };
  }
  function applyView() {
    const s = svg();
    if (s && view) s.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
  }
  function clampView() {
    const a = aspect();
    view.w = Math.min(Math.max(full.w, full.h * a), Math.max(full.w / 10, view.w));
    view.h = view.w / a;
    const cx = Math.min(full.x + full.w, Math.max(full.x, view.x + view.w / 2));
    const cy = Math.min(full.y + full.h, Math.max(full.y, view.y + view.h / 2));
    view.x = cx - view.w / 2;
    view.y = cy - view.h / 2;
  }
  function fit() {  // the whole map
    const a = aspect();
    const w = Math.max(full.w, full.h * a);
    view = { x: full.x + (full.w - w) / 2, y: full.y + (full.h - w / a) / 2, w, h: w / a };
    applyView();
  }
  const OPENING_SCALE = 0.8;  // CSS pixels per map unit at least when the page opens: names stay readable
  function fill(name) {  // the map filling the pane, centred on a space (the player's capital)
    const a = aspect();
    const w = Math.min(full.w, full.h * a, mapBox().clientWidth / OPENING_SCALE);
    const h = w / a;
    let cx = full.x + full.w / 2;
    let cy = full.y + full.h / 2;
    const focus = name && $(`#map g.tokens[data-space="${CSS.escape(name)}"]`);
    if (focus) { const b = focus.getBBox(); cx = b.x + b.width / 2; cy = b.y + b.height / 2; }
    view = {
      x: Math.min(full.x + full.w - w, Math.max(full.x, cx - w / 2)),
      y: Math.min(full.y + full.h - h, Math.max(full.y, cy - h / 2)), w, h,
    };
    applyView();
  }
  function toMap(clientX, clientY) {
    const s = svg();
    const point = s.createSVGPoint();
    point.x = clientX;
    point.y = clientY;
    return point.matrixTransform(s.getScreenCTM().inverse());
  }
  function zoom(factor, clientX, clientY) {
    if (!view) return;
    const rect = svg().getBoundingClientRect();
    const at = toMap(clientX ?? rect.left + rect.width / 2, clientY ?? rect.top + rect.height / 2);
    const w = view.w / factor;
    view.x = at.x - (at.x - view.x) * (w / view.w);
    view.y = at.y - (at.y - view.y) * (w / view.w);
    view.w = w;
    clampView();
    applyView();
  }

  let drag = null;
  function setupMap() {
    const box = mapBox();
    box.addEventListener("wheel", (event) => {
      event.preventDefault();
      zoom(event.deltaY < 0 ? 1.2 : 1 / 1.2, event.clientX, event.clientY);
    }, { passive: false });
    box.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      drag = { x: event.clientX, y: event.clientY, view: Object.assign({}, view), moved: false, id: event.pointerId };
    });
    box.addEventListener("pointermove", (event) => {
      if (!drag || event.pointerId !== drag.id) return;
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 5) return;
      if (!drag.moved) {
        drag.moved = true;
        box.classList.add("dragging");
        box.setPointerCapture(event.pointerId);
      }
      const scale = 1 / svg().getScreenCTM().a;
      view.x = drag.view.x - dx * scale;
      view.y = drag.view.y - dy * scale;
      clampView();
      applyView();
    });
    // a press and release without dragging picks the space under the pointer (on release, so that a map
    // redrawn in between still counts)
    box.addEventListener("pointerup", (event) => {
      const was = drag;
      drag = null;
      box.classList.remove("dragging");
      if (!was || was.moved || event.pointerId !== was.id) return;
      const under = document.elementFromPoint(event.clientX, event.clientY);
      const space = under && under.closest("#map g[data-space]");
      if (space) onSpace(space.dataset.space);
    });
    box.addEventListener("pointercancel", () => { drag = null; box.classList.remove("dragging"); });
    $$("[data-zoom]").forEach((button) => button.addEventListener("click", () => {
      const how = button.dataset.zoom;
      if (how === "fit") fit(); else zoom(how === "in" ? 1.4 : 1 / 1.4);
    }));
  }

  // -- highlights: the selected space, where the chosen units may go, where new units may be placed
  function dataList(el, key) {
    try { return JSON.parse(el.dataset[key] || "[]"); } catch (e) { return []; }
  }
  function highlight() {
    const inner = sideInner();
    $$("#map g.space").forEach((g) => g.classList.remove("is-selected", "is-target", "is-place", "is-battle"));
    if (!inner) return;
    const mark = (name, cls) => {
      const g = $(`#map g[data-space="${CSS.escape(name)}"]`);
      if (g) g.classList.add(cls);
    };
    if (table.selected) mark(table.selected, "is-selected");
    dataList(inner, "targets").forEach((name) => mark(name, "is-target"));
    dataList(inner, "placeTargets").forEach((name) => mark(name, "is-place"));
    dataList(inner, "battles").forEach((name) => mark(name, "is-battle"));
    const hint = $("#map-hint");
    if (hint) {
      hint.textContent = inner.dataset.moving === "1"
        ? (table.selected ? `From ${table.selected}: choose units, then click a destination.` : "Click a space with your units.")
        : "Click a territory or sea zone to see its units.";
    }
  }

  // -- composing moves
  function chosenUnits() {
    const counts = new Map();
    $$("#move-units tr[data-per]").forEach((row) => {
      const n = Number($(".js-move-count", row).value || 0);
      if (!n) return;
      const per = JSON.parse(row.dataset.per);
      Object.entries(per).forEach(([unit, k]) => counts.set(unit, (counts.get(unit) || 0) + k * n));
    });
    return Array.from(counts, ([unit, n]) => `${n} ${unit}`).join(", ");
  }
  function clearRoute() { const route = $("#route"); if (route) route.innerHTML = ""; }

  function onSpace(name) {
    const inner = sideInner();
    if (!inner) return;
    const units = chosenUnits();
    if (inner.dataset.moving === "1" && table.selected && name !== table.selected && units) {
      const query = new URLSearchParams({ from: table.selected, to: name, units, power: inner.dataset.power || "" });
      htmx.ajax("GET", `/play/${game}/route?${query}`, { target: "#route", swap: "innerHTML" });
      return;
    }
    const place = $("#place-form");
    if (place && dataList(inner, "placeTargets").includes(name)) {
      let field = $("input[name=space]", place);
      if (!field) {
        field = document.createElement("input");
        field.type = "hidden";
        field.name = "space";
        place.appendChild(field);
      }
      field.value = name;
      place.requestSubmit();
      return;
    }
    table.selected = name;
    refreshSide();
  }

  // -- refreshing the side panel and the map (`live`: for another player's action, not the user's own doing)
  function refreshSide(live) {
    if (table.sideBusy) { table.sidePending = true; table.pendingLive = table.pendingLive && Boolean(live); return; }
    table.sideBusy = true;
    table.liveAsk = Boolean(live);
    const inner = sideInner();
    const query = new URLSearchParams({ space: table.selected || "", power: (inner && inner.dataset.power) || "" });
    htmx.ajax("GET", `/play/${game}/side?${query}`, { target: "#side", swap: "innerHTML" })
      .finally(() => {
        table.sideBusy = false;
        if (table.sidePending) {
          const again = table.pendingLive;
          table.sidePending = false;
          table.pendingLive = true;
          refreshSide(again);
        }
      });
  }

  // what the user is filling in (units to buy, units to move) outlives a redraw for another player's action: in
  // a team turn a teammate acts at any moment, and must not wipe out a half-chosen purchase or move
  function typedIn() {
    const inner = sideInner();
    if (!inner) return null;
    const values = new Map();
    $$("#purchase input[type=number][name]").forEach((input) => { if (input.value !== "0") values.set(input.name, input.value); });
    $$("#purchase select[name]").forEach((select) => values.set(select.name, select.value));
    $$("#move-units tr[data-per]").forEach((row, i) => {
      const input = $(".js-move-count", row);
      if (input && input.value !== "0") values.set(`move:${i}:${row.dataset.per}`, input.value);
    });
    const where = [inner.dataset.phase, inner.dataset.power, inner.dataset.selected].join("|");
    return { where, values };
  }
  function typeAgain(kept) {
    const inner = sideInner();
    if (!kept || !kept.values.size || !inner) return;
    if ([inner.dataset.phase, inner.dataset.power, inner.dataset.selected].join("|") !== kept.where) return;
    const fields = new Map();
    $$("#purchase input[type=number][name], #purchase select[name]").forEach((input) => fields.set(input.name, input));
    $$("#move-units tr[data-per]").forEach((row, i) => fields.set(`move:${i}:${row.dataset.per}`, $(".js-move-count", row)));
    kept.values.forEach((value, key) => {
      const input = fields.get(key);
      if (!input || input.disabled) return;
      if (input.tagName === "SELECT" ? !$$("option", input).some((o) => o.value === value)
        : input.max !== "" && Number(value) > Number(input.max)) return;
      input.value = value;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
  }
  async function refreshMap() {
    if (table.mapBusy) return;
    table.mapBusy = true;
    try {
      const answer = await fetch(`/play/${game}/map`, { cache: "no-store" });
      if (answer.ok) {
        mapBox().innerHTML = await answer.text();
        mapBox().dataset.hash = answer.headers.get("X-Aare-Hash") || "";
        applyView();
        highlight();
      }
    } finally {
      table.mapBusy = false;
    }
    const inner = sideInner();
    if (inner && inner.dataset.hash !== mapBox().dataset.hash) refreshMap();
  }
  function scheduleRefresh() {
    if (table.refreshTimer) return;
    table.refreshTimer = setTimeout(() => {
      table.refreshTimer = null;
      const inner = sideInner();
      if (inner && table.lastHash && inner.dataset.hash === table.lastHash) return;  // already shown
      refreshSide(true);
    }, 250);
  }

  function afterSideSwap() {
    const inner = sideInner();
    if (!inner) return;
    if (!table.sidePending) table.selected = inner.dataset.selected || null;  // else a newer click is on its way
    document.title = (inner.dataset.yourTurn === "1" ? "▶ " : "") + document.title.replace(/^▶ /, "");
    if (inner.dataset.hash !== mapBox().dataset.hash) refreshMap(); else highlight();
    const focus = $("#casualty-form input[type=radio]:checked") || $("#side [autofocus]");
    if (focus && !document.activeElement.closest?.("#side input, #side select")) {
      focus.focus({ preventScroll: true });
      const card = focus.closest(".card");
      if (card && card.id === "decision") card.scrollIntoView({ block: "nearest" });
    }
  }

  // -- live updates: every new log entry (a player's, a bot's) refreshes what the page shows
  function listen() {
    const live = $("#live");
    const state = (text, how) => { if (live) { live.textContent = text; live.dataset.state = how; } };
    const events = new EventSource(`/games/${game}/events`);
    events.onopen = () => state("live", "open");
    events.onerror = () => state("reconnecting…", "error");
    const changed = (event) => {
      table.heard += 1;
      let message = {};
      try { message = JSON.parse(event.data); } catch (e) { /* a keep-alive */ }
      // null: something is hidden from this reader and the game moved on; the page asks for its view again
      table.lastHash = message.state_hash === undefined ? table.lastHash : message.state_hash;
      const inner = sideInner();
      if (!inner || message.state_hash !== inner.dataset.hash) scheduleRefresh();
    };
    events.addEventListener("entry", changed);
    events.addEventListener("undo", changed);
  }

  // -- keyboard: Enter confirms a casualty choice, Escape clears, +/- zoom
  document.addEventListener("keydown", (event) => {
    if (!game) return;
    const form = event.target.closest && event.target.closest("#casualty-form");
    if (event.key === "Enter" && form && event.target.type === "radio") {
      event.preventDefault();
      form.requestSubmit();
      return;
    }
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (event.key === "Escape") {
      if ($("#route") && $("#route").innerHTML.trim()) clearRoute();
      else if (table.selected) { table.selected = null; refreshSide(); }
    } else if (event.key === "+" || event.key === "=") zoom(1.4);
    else if (event.key === "-") zoom(1 / 1.4);
    else if (event.key === "0") fit();
  });

  // a post refused for a stale CSRF token answers a card saying to reload the page: show it where the answer
  // would have gone (htmx swaps no 4xx answer by itself)
  document.addEventListener("htmx:beforeSwap", (event) => {
    const xhr = event.detail.xhr;
    if (liveAsks.has(xhr)) table.kept = typedIn();
    if (xhr.status === 403 && xhr.getResponseHeader("X-Aare-Refused") === "csrf") {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  document.addEventListener("DOMContentLoaded", () => {
    syncNewGame();
    if (!game) return;
    readFull();
    fill(mapBox().dataset.focus);
    setupMap();
    window.addEventListener("resize", () => { if (view) { clampView(); applyView(); } });
    document.body.addEventListener("htmx:beforeRequest", (event) => {
      if (event.detail.target && event.detail.target.id === "side") {
        asked.set(event.detail.xhr, table.heard);
        if (table.liveAsk) liveAsks.add(event.detail.xhr);
        table.liveAsk = false;
      }
    });
    document.body.addEventListener("htmx:afterSwap", (event) => {
      const id = event.detail.target.id;
      if (id === "side") {
        if (liveAsks.has(event.detail.xhr)) typeAgain(table.kept);
        table.kept = null;
        afterSideSwap();
        // an answer sent before the latest live message may show an older state: ask again
        const heard = asked.get(event.detail.xhr);
        const shown = sideInner() && sideInner().dataset.hash;
        if (heard !== undefined && heard < table.heard && table.lastHash && shown !== table.lastHash) scheduleRefresh();
      }
      if (id === "route") {
        const go = $("#route [autofocus]");
        if (go) go.focus({ preventScroll: true });
        $("#route").scrollIntoView({ block: "nearest" });
      }
      if (event.detail.target.closest && event.detail.target.closest("#route")) {
        $("#route").scrollIntoView({ block: "nearest" });  // the odds arrived
      }
    });
    afterSideSwap();
    listen();
  });
})();
