// sabot pit's pages (docs/pit.md): the pit (index.html, every table, those with an alarm or a finding first) and a
// table's screen (table.html, /table/N: sabot N's coup, result, roadmap, stop card, state). Both poll
// /state.json, which the pit rewrites as each record arrives; nothing here decides anything, it lays out the words
// the pit's verified state gives.
"use strict";

const POLL_MS = 100;
const CLASSES = { "verrouillé": "s-verrouille", "ouvert pour un coup": "s-ouvert", "alarme": "s-alarme",
                  "fermé": "s-ferme" };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

function clock(ms) {
  return new Date(ms).toLocaleTimeString("fr-FR", { timeZone: "UTC" }) + " UTC";
}

// The "big road": a column for each run of the same winner, a tie marked on the cell before it, six rows and then
// on to the right. winners: one letter per coup (B banque, P ponte, E égalité).
function bigRoad(coups) {
  const cells = [];
  let col = -1, row = 0, last = null;
  for (const { coup, letter } of coups) {
    if (letter === "E" && cells.length) { cells[cells.length - 1].ties += 1; continue; }
    if (letter !== last) { col += 1; row = 0; last = letter; }
    else if (row === 5) { col += 1; } else { row += 1; }
    cells.push({ coup, letter, col, row, ties: 0 });
  }
  return cells;
}

// A roadmap cell opens its coup as the journal has it, card by card (/recall/SABOT/COUP, sabot pit recall's page).
function drawRoad(node, road, tableaux, sabot) {
  node.replaceChildren();
  for (let t = 0; t < tableaux; t++) {
    const coups = road.map((r) => ({ coup: r.coup, letter: r.winners[t] || "?" }));
    for (const c of bigRoad(coups)) {
      const cell = el("div", { class: "road-cell " + c.letter + (c.ties ? " tie" : ""), "data-coup": c.coup,
                               "data-tableau": t + 1, title: "coup " + c.coup,
                               style: `grid-column: ${c.col + 1}; grid-row: ${t * 6 + c.row + 1}` },
                      c.ties ? String(c.ties) : "");
      cell.addEventListener("click", () => { location.href = "/recall/" + sabot + "/" + c.coup; });
      node.append(cell);
    }
  }
  node.style.gridTemplateRows = `repeat(${6 * tableaux}, 1.6em)`;
}

function drawFindings(node, findings) {
  node.hidden = !findings.length;
  node.replaceChildren(...findings.slice().reverse().map((f) => el("li", { "data-id": f.id, "data-seq": f.seq ?? "" },
    `${clock(f.at_ms)} — sabot ${f.sabot ?? "?"}${f.table ? ", table " + f.table : ""} : ${f.id} — ${f.said}` +
    (f.seq != null ? ` (enregistrement ${f.seq})` : ""))));
}

function drawTable(state, sabot) {
  const t = state.tables.find((x) => String(x.sabot) === sabot);
  if (!t) { document.getElementById("state").textContent = "sabot " + sabot + " : inconnu du pit"; return; }
  document.getElementById("title").textContent = (t.table ? "Table " + t.table : "Sabot " + t.sabot) +
    (t.game ? " — " + t.game : "");
  document.getElementById("seance").textContent = (t.seance ? "séance " + t.seance + " · " : "") + "sabot " + t.sabot +
    " · " + t.link;
  const banner = document.getElementById("state");
  banner.textContent = t.link === "refusé" ? "refusé : " + t.why : t.state;
  banner.className = "state " + (t.link === "refusé" ? "s-alarme" : CLASSES[t.state] || "");
  banner.dataset.state = t.state;
  document.getElementById("alarms").textContent = t.alarms.join(" · ");
  const hands = document.getElementById("hands");
  const coup = t.coup;
  hands.replaceChildren(...t.hands.map((name) => {
    const cards = coup ? coup.cards.filter((c) => c.hand === name) : [];
    const points = coup && coup.result ? coup.result.totals[name] : null;
    return el("div", { class: "hand", "data-hand": name }, el("h2", {}, name),
      el("div", { class: "cards" }, ...cards.map((c) => el("span", { class: "card" + (c.red ? " red" : ""),
        title: c.name + " · " + clock(c.time_ms + 1577836800000) + " · n° " + c.seq, "data-seq": c.seq }, c.card))),
      el("div", { class: "points" }, points == null ? "" : points + " point" + (points > 1 ? "s" : "")));
  }));
  const result = document.getElementById("result");
  result.replaceChildren();
  if (coup) {
    result.append(el("span", { class: "coup" }, "Coup " + coup.number + (coup.open ? " en cours" : "") + " "));
    if (coup.result) {
      const r = coup.result;
      result.append(el("span", { class: "bank" }, "banque : " + r.bank.join(" / ")),
                    el("div", { class: "winners" }, "gagnant : " + r.winners.join(" / ")));
    }
  }
  document.getElementById("stop").textContent = t.stop_out ? "Carte d'arrêt sortie : dernier coup du sabot"
    : t.before_stop + " carte" + (t.before_stop > 1 ? "s" : "") + " avant la carte d'arrêt";
  drawRoad(document.getElementById("road"), t.road, Math.max(1, t.hands.length - 1), t.sabot);
  drawFindings(document.getElementById("findings"), t.findings);
}

// When each table's last record, and each finding, was first drawn here: [sabot, seq, Date.now()] and
// [sabot, seq, id, Date.now()] (bench/pit.py's latencies).
window.drawnAt = [];
window.foundAt = [];
const lastDrawn = {};
const found = new Set();

function drawPit(state) {
  for (const t of state.tables) {
    if (t.sabot != null && t.seq > (lastDrawn[t.sabot] || 0)) {
      lastDrawn[t.sabot] = t.seq;
      window.drawnAt.push([t.sabot, t.seq, Date.now()]);
    }
  }
  for (const f of state.findings) {
    const key = [f.sabot, f.seq, f.id, f.said].join("|");
    if (!found.has(key)) {
      found.add(key);
      window.foundAt.push([f.sabot, f.seq, f.id, Date.now()]);
    }
  }
  const database = document.getElementById("database");
  database.hidden = !state.database;
  database.textContent = state.database ? "Base du casino en attente : " + state.database +
    " (les enregistrements y entreront dès qu'elle sera libre ; rien n'est perdu, ils sont dans les copies du pit)" : "";
  document.getElementById("casino").textContent = state.casino;
  document.getElementById("now").textContent = clock(state.now_ms);
  drawFindings(document.getElementById("findings"), state.findings);
  document.getElementById("tables").replaceChildren(...state.tables.map((t) => el("tr", {
    class: t.alarms.length || t.findings.length || t.link === "refusé" ? "flagged" : "", "data-sabot": t.sabot ?? "" },
    el("td", {}, el("a", { href: "/table/" + t.sabot }, t.table ? "table " + t.table : "—")),
    el("td", {}, String(t.sabot ?? "?")),
    el("td", { class: "state-word" }, t.alarms.length ? "alarme : " + t.alarms.join(", ") : t.state),
    el("td", {}, t.coup ? String(t.coup.number) + (t.coup.result ? " · " + t.coup.result.road : "") : "—"),
    el("td", {}, t.stop_out ? "sortie" : String(t.before_stop)),
    el("td", {}, t.findings.length ? t.findings.map((f) => f.id).join(", ") : "aucun"),
    el("td", { class: "link" }, t.link + (t.bad_frames ? " · " + t.bad_frames + " trame(s) abîmée(s)" : "") +
      (t.why ? " (" + t.why + ")" : "")))));
}

async function poll() {
  try {
    const response = await fetch("/state.json", { cache: "no-store" });
    const state = await response.json();
    if (document.body.dataset.page === "table") drawTable(state, location.pathname.split("/").pop());
    else drawPit(state);
    document.body.dataset.drawn = String(state.now_ms);
  } catch (e) {
    document.body.dataset.error = String(e);
  }
  setTimeout(poll, POLL_MS);
}
poll();
