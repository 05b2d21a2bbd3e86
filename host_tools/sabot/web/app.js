// The page: loads MicroPython, puts the firmware and the sim board into its filesystem, and plays each of the
// croupier's inputs as one scenario line through the session (session.py); shows what the board did.

import { loadMicroPython } from "./micropython.mjs";
import { checkJournal } from "./journal.js";
import { shoeDrawing } from "./shoe.js";
import { WORDS, cardName, clock, isRed, recordText, resultText } from "./text.js";
import { CARD, CODE, COUP, DISPOSITION, MS, RECORDS, SECONDS, TAILLE, TYPE } from "./words.js";
import { bankResults, cents, euros, levy } from "./levy.js";
import { zip } from "./zip.js";

const GAMES = ["chemin_de_fer", "deux_tableaux_limitee", "deux_tableaux_ouverte"];
const STAND_HANDS = [["ponte", "banque"], ["tableau1", "tableau2", "banque"]]; // the scenario's words
const JOURNAL = "/journal";

let lang = "fr", mp = null, session = null, key = null, draw = null;
let report = null, lastCard = null, shoeGame = 0, loaded = false, check = null, checking = Promise.resolve();
const entries = []; // the timeline, kept as data so that a language switch words it again
const coups = new Map(); // "taille.coup": {taille, coup, game, hands: [[card, ...], ...], result}
const $ = (id) => document.getElementById(id);
const words = () => WORDS[lang];

function put(path, text) {
  const parts = ("/sabot/" + path).split("/");
  for (let i = 2; i < parts.length; i++) {
    const dir = parts.slice(0, i).join("/");
    if (!mp.FS.analyzePath(dir).exists) mp.FS.mkdir(dir);
  }
  mp.FS.writeFile(parts.join("/"), text);
}

async function start() {
  mp = await loadMicroPython({ stdout: (line) => console.log(line), stderr: (line) => console.error(line) });
  for (const [path, text] of Object.entries(globalThis.SABOT_SOURCES)) put(path, text);
  mp.runPython(`import sys
sys.path.insert(0, "/sabot")
import binascii, session
from firmware.devkey import DEVELOPMENT_KEY
KEY = binascii.hexlify(DEVELOPMENT_KEY).decode()
page = session.Session("${JOURNAL}")`);
  session = mp.globals.get("page");
  key = new Uint8Array(mp.globals.get("KEY").match(/../g).map((h) => parseInt(h, 16)));
  apply(JSON.parse(session.report()));
  $("status").dataset.w = "ready";
  for (const button of document.querySelectorAll("button[data-act]")) button.addEventListener("click", act);
  $("download-journal").addEventListener("click", downloadJournal);
  $("download-scenario").addEventListener("click", downloadScenario);
  render();
  scheduleCheck();
  window.sabot.ready = true;
}

/** The scenario line a button stands for (docs/scenarios.md). */
function lineOf(button) {
  switch (button.dataset.act) {
    case "seance": // a séance open is closed first, as the shoe does for `sabot seance open` (firmware/remote.py)
      return [...(report && report.table ? ["seance_close"] : []), `seance table=${$("table").value}`];
    case "shoe": return [`game ${$("game").value}`, `shoe seed=${$("seed").value}`];
    case "stand": return [`stand ${button.dataset.hand}`];
    case "wait": return [`wait ${$("wait").value}`];
    default: return [button.dataset.act];
  }
}

// The inputs a button's line takes, checked before the scenario's parser (whose messages are the file's, in
// English): [input, lowest, highest or null].
const LIMITS = { seance: ["table", 1, 4095], shoe: ["seed", 0, null], wait: ["wait", 0, null] };

function badInput(act) {
  const limit = LIMITS[act];
  if (!limit) return false;
  const text = $(limit[0]).value.trim();
  return !(/^\d+$/.test(text) && Number(text) >= limit[1] && (limit[2] === null || Number(text) <= limit[2]));
}

function act(event) {
  const button = event.currentTarget;
  if (badInput(button.dataset.act)) {
    entries.push({ kind: "bad", limit: LIMITS[button.dataset.act] });
  } else {
    for (const line of lineOf(button)) if (!play(line)) break;
  }
  render();
  scheduleCheck();
}

/** One line through the session; false (and the parser's message in the timeline) when it is refused. */
function play(line) {
  const answer = JSON.parse(session.play(line));
  if (answer.error) {
    entries.push({ kind: "error", text: answer.error });
    return false;
  }
  entries.push({ kind: "action", line });
  if (line.startsWith("shoe")) loaded = true;
  apply(answer);
  return true;
}

function apply(answer) {
  for (const item of answer.items) {
    if (item.r) {
      const r = item.r;
      if (r[TYPE] === RECORDS.R_LOAD) shoeGame = r[CODE];
      entries.push({ kind: "record", r, game: shoeGame });
      if (r[TYPE] === RECORDS.R_CARD) {
        lastCard = r[CARD];
        if (r[DISPOSITION] === 0 && r[CODE]) coupOf(r).hands[r[CODE] - 1].push(r[CARD]);
      } else if (r[TYPE] === RECORDS.R_RESULT) {
        coupOf(r).result = [r[CODE], r[DISPOSITION]];
      }
    } else if (item.refused) {
      entries.push({ kind: "refused", event: item.event, why: item.refused });
    } else if (item.note) {
      entries.push({ kind: "note", text: item.note });
    }
  }
  report = answer;
}

function coupOf(r) {
  const id = `${r[TAILLE]}.${r[COUP]}`;
  if (!coups.has(id)) {
    coups.set(id, { taille: r[TAILLE], coup: r[COUP], game: shoeGame, hands: [[], [], []], result: null, stakes: ["", ""] });
  }
  return coups.get(id);
}

function journalFiles() {
  return mp.FS.readdir(JOURNAL).filter((name) => name.endsWith(".sbj")).sort()
    .map((name) => [name, mp.FS.readFile(`${JOURNAL}/${name}`)]);
}

function scheduleCheck() {
  $("check").textContent = words().checking;
  checking = checking.then(async () => {
    const files = journalFiles();
    check = files.length ? await checkJournal(files, key) : null;
    renderCheck();
  });
  return checking;
}

/** The closing gap `sabot sim` plays after a file's last line: then the journal is the one it writes. */
function finish() {
  apply(JSON.parse(session.finish()));
  render();
}

function save(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
}

async function downloadJournal() {
  finish();
  await scheduleCheck();
  const entries = journalFiles().map(([name, data]) => [`journal/${name}`, data]);
  entries.push(["scenario.txt", new TextEncoder().encode(session.scenario())]);
  save(zip(entries), "sabot-journal.zip");
}

function downloadScenario() {
  finish();
  save(new Blob([session.scenario()], { type: "text/plain" }), "sabot-scenario.txt");
}

function entryText(e, w) {
  switch (e.kind) {
    case "record": {
      const text = recordText(e.r, e.game, w, lang);
      const alarm = e.r[TYPE] === RECORDS.R_ALARM || e.r[TYPE] === RECORDS.R_FINDING;
      return text === null ? null : [clock(e.r[SECONDS], e.r[MS]) + "  " + text, alarm ? "alarm" : ""];
    }
    case "action": return [`▶ ${w.action} : ${e.line}`, "action"];
    case "refused": return [`${w.refused} : ${w.events[e.event]} (${w.refusals[e.why]})`, "refused"];
    case "note": return [w.notes[e.text] || e.text, "note"];
    case "bad": return [w.bad_number(w[e.limit[0]], e.limit[1], e.limit[2]), "error"];
    default: return [e.text, "error"];
  }
}

let shown = 0; // timeline entries already in the list

function renderTimeline(again) {
  const list = $("timeline");
  if (again) { list.replaceChildren(); shown = 0; }
  for (; shown < entries.length; shown++) {
    const line = entryText(entries[shown], words());
    if (!line) continue;
    const item = document.createElement("li");
    item.textContent = line[0];
    if (line[1]) item.className = line[1];
    list.appendChild(item);
  }
  list.scrollTop = list.scrollHeight;
}

function cardSpan(code) {
  const span = document.createElement("span");
  span.className = isRed(code) ? "card-text red" : "card-text";
  span.textContent = cardName(code, lang);
  return span;
}

function renderCoups() {
  const w = words(), body = $("coups");
  body.replaceChildren();
  for (const c of coups.values()) {
    const row = body.insertRow();
    row.insertCell().textContent = `${c.taille}·${c.coup}`;
    const hands = row.insertCell();
    w.hands[c.game ? 1 : 0].forEach((name, h) => {
      if (!c.hands[h].length) return;
      const hand = document.createElement("span");
      hand.className = "hand";
      hand.append(name + w.colon);
      for (const card of c.hands[h]) hand.append(cardSpan(card), " ");
      hands.appendChild(hand);
    });
    row.insertCell().textContent = c.result ? resultText(c.result[0], c.result[1], w) : "…";
    const stakes = row.insertCell(), due = row.insertCell();
    due.className = "levy";
    if (!c.result) continue;
    c.stakes.slice(0, c.result[1] - 1).forEach((value, t) => {
      const input = document.createElement("input");
      Object.assign(input, { value, className: "stake", inputMode: "decimal", size: 8 });
      input.setAttribute("aria-label", `${w.col_stakes} ${t + 1}`);
      input.addEventListener("input", () => { c.stakes[t] = input.value; renderLevy(c, due); });
      stakes.appendChild(input);
    });
    renderLevy(c, due);
  }
}

/** Training (issue 25): the levy due on the coup from the stakes entered, and its tickets (Articles 59, 60, 62). */
function renderLevy(c, cell) {
  const w = words(), results = bankResults(c.result[0], c.result[1]);
  const stakes = c.stakes.slice(0, results.length).map((text) => (text.trim() ? cents(text) : 0));
  if (stakes.includes(null)) { cell.textContent = w.levy_bad; return; }
  const { due, kase, tickets } = levy(c.game, results, stakes);
  cell.textContent = due ? w.levy(euros(due, lang), kase, tickets.map(([v, n]) => `${euros(v, lang)} × ${n}`).join(", "))
    : w.levy_none;
}

function renderCheck() {
  const w = words(), p = $("check");
  if (!check) { p.textContent = w.check_empty; p.className = ""; return; }
  p.textContent = check.ok ? w.check_ok.replace("%s", check.segments).replace("%s", check.records)
    : w.check_bad.replace("%s", check.problem);
  p.className = check.ok ? "ok" : "bad";
}

function renderState() {
  const w = words(), list = $("state");
  const phase = report.power ? w.phases[report.phase] : w.power_off_phase;
  const rows = [[w.phase, phase], [w.coup_now, report.coup || "—"], [w.alarm_now, report.alarm ? w.alarms[report.alarm] : w.none]];
  list.replaceChildren();
  for (const [term, value] of rows) {
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = term;
    dd.textContent = value;
    if (term === w.alarm_now && report.alarm) dd.className = "alarm";
    list.append(dt, dd);
  }
}

function renderStands() {
  const span = $("stands"), w = words();
  span.replaceChildren();
  STAND_HANDS[shoeGame ? 1 : 0].forEach((hand, h) => {
    const button = document.createElement("button");
    button.dataset.act = "stand";
    button.dataset.hand = hand;
    button.dataset.shoe = "";
    button.textContent = `${w.hands[shoeGame ? 1 : 0][h]} ${w.stand}`;
    button.addEventListener("click", act);
    span.appendChild(button);
  });
}

function render(again = false) {
  const w = words();
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-w]")) node.textContent = w[node.dataset.w];
  const select = $("game"), chosen = select.value || GAMES[0];
  select.replaceChildren(...GAMES.map((name, i) => new Option(w.games[i], name, false, name === chosen)));
  for (const button of document.querySelectorAll("[data-lang]")) button.setAttribute("aria-pressed", button.dataset.lang === lang);
  if (!session) return;
  renderStands();
  for (const button of document.querySelectorAll("button[data-shoe]")) button.disabled = !loaded;
  draw(report, w, lang, lastCard);
  renderState();
  renderTimeline(again);
  renderCoups();
  renderCheck();
  $("scenario").textContent = session.scenario();
}

function setLang(chosen) {
  lang = chosen;
  render(true);
}

window.sabot = { ready: false, idle: () => checking, check: () => check, scenario: () => session.scenario(),
  state: () => report, coups: () => [...coups.values()], files: journalFiles, key: () => key, setLang, failed: null };

draw = shoeDrawing($("drawing"));
for (const button of document.querySelectorAll("[data-lang]")) button.addEventListener("click", () => setLang(button.dataset.lang));
render();
start().catch((e) => { window.sabot.failed = String(e); $("status").textContent = String(e); console.error(e); });
