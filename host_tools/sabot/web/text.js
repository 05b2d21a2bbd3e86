// What the page says, in French (the default) and English; and the journal's records put into words. The words
// of the firmware's numbers and the record's fields are words.js's, which `sabot web` writes from firmware/format/words.py
// and firmware/layout.py (host_tools/sabot/web/build.py).

import { CARD, CODE, CODES, CONDITION, COUP, DISPOSITION, POSITION, RECORDS, SEANCE, TAILLE, TYPE } from "./words.js";

const PAGE = {
  fr: {
    title: "Sabot de baccara : le firmware dans le navigateur",
    subtitle: "Le firmware du sabot et la carte simulée, tels que sabot sim les joue, sur MicroPython (WebAssembly).",
    loading: "Chargement de MicroPython…", ready: "Prêt : le sabot est sous tension, porte verrouillée.",
    shoe: "Le sabot", seance: "Séance", table: "Table", open_seance: "Ouvrir la séance",
    close_seance: "Fermer la séance",
    load: "Sabot", game: "Jeu", seed: "Graine du mélange", loaded: "Sabot chargé",
    coup: "Coup", no_more_bets: "Rien ne va plus", draw: "Carte", coup_end: "Fin du coup", burn: "Brûler une carte",
    stands: "Annonces du croupier", stand: "reste",
    supervisor: "Superviseur", clear_alarm: "Clé du superviseur",
    faults: "Incidents", force: "Carte forcée", double: "Double alimentation", jam: "Bourrage",
    power_cut: "Coupure de courant", power_on: "Remise sous tension",
    time: "Temps", wait: "Attendre (ms)", wait_button: "Laisser passer",
    timeline: "Déroulement", coups: "Coups, mains et résultats par le tableau", journal: "Journal",
    scenario: "Scénario enregistré", download_journal: "Télécharger le journal (.zip)",
    download_scenario: "Télécharger le scénario (.txt)",
    col_coup: "Coup", col_hands: "Mains", col_result: "Résultat",
    col_stakes: "Mises contre la banque (€)", col_levy: "Prélèvement dû, tickets",
    levy: (due, kase, tickets) => `${due} dus (${kase === "cf" ? "5 % des mises" : "article 62, " + kase}) ; tickets : ${tickets}`,
    levy_none: "rien à prélever", levy_bad: "mise : des euros, deux décimales au plus",
    gate_open: "porte ouverte", gate_locked: "porte verrouillée", power_yes: "sous tension", power_no: "hors tension",
    cards_left: "cartes dans le sabot", buzzer: "avertisseur", indicator: "voyant", clock: "horloge virtuelle",
    checking: "Vérification du journal…",
    check_ok: "Journal vérifié dans la page : %s segment(s), %s enregistrement(s) ; en-têtes, CRC-32 et chaîne SHA-256 intacts.",
    check_bad: "JOURNAL INVALIDE : %s", check_empty: "Pas encore de journal.",
    refused: "refusé", action: "croupier", colon: " : ", semi: " ; ",
    bad_number: (what, low, high) => `${what} : un nombre entier ${high === null ? `d'au moins ${low}` :
      `de ${low} à ${high}`}, rien n'est fait`,
    phase: "Phase",
    alarm_now: "Alarme", none: "aucune", coup_now: "Coup", power_off_phase: "hors tension",
    notes: {"power cut: gate de-energised, locked": "coupure de courant : porte hors tension, verrouillée"},
    r: {
      boot: "mise sous tension : porte verrouillée, en attente du croupier",
      seance: (s, t) => `séance ${s} ouverte à la table ${t}`,
      load: (t, g) => `taille ${t} : sabot de ${g} chargé`,
      nmb: (c) => `coup ${c} : rien ne va plus, sabot déverrouillé`,
      card: (c, p, n, d) => `coup ${c}  carte ${p}  ${n} ${d}`, to: (h) => ` à ${h}`,
      end: (c, e) => `fin du coup ${c} : ${e}, sabot verrouillé`,
      alarm: (a) => `ALARME ${a} : sabot verrouillé jusqu'à la clé du superviseur`,
      clear: (a) => `le superviseur a levé : ${a}`,
      finding: (f, p) => `CONSTAT ${f}` + (p ? ` à la carte ${p}` : ""),
      closed: "sabot fermé : plus de coup avant un nouveau sabot",
      recovery: (n, r) => `REPRISE : ${n} octet(s) déchiré(s) coupé(s) du journal` +
        (r ? `; une libération (${r}) était en cours : sortie d'une carte INCONNUE` : ""),
      stand: (c, h) => `coup ${c} : ${h} reste (annonce du croupier)`,
      result: (c, t) => `résultat du coup ${c} : ${t}`, winner: "gagnant", bank: "banque",
      seance_close: (s) => `séance ${s} close`,
      ouverte: (n, m) => `séance de banque ouverte n° ${n} du jour, pause de ${m} min (article 61)`,
      refusal: (why) => `ouverture de séance refusée : ${why}`,
      candidate: (p) => `candidat à la banque : joueur n° ${p}`,
      draw: (n, v, p) => `banque adjugée par tirage au sort : ${n} candidats, valeur tirée ${v}, banque au joueur n° ${p}`,
      ouverte_day: (n, last, at) => `journée de banque ouverte rappelée : ${n} séance(s) du jour, la dernière ` +
        ["ouverte", `close à ${at} UTC`, "finie sans clôture"][last],
      element: (why, c, n) => why === 1
        ? `ÉLÉMENT : à la mise sous tension, le compteur de l'élément, ${c}, dépasse de ${n} celui du dernier point de contrôle : courant coupé pendant un point de contrôle`
        : `ÉLÉMENT : l'élément n'a pas pu signer un point de contrôle : compteur ${c}, ${n} valeur(s) consommée(s) sans point de contrôle`,
      authority: (what, part, v) => `changement d'autorité du casino (${["", "numéro", "clé du casino", "horloge",
        "horloge forcée"][what] || what}) : ` + ["demandé par la clé ", "avant : ", "après : "][part] + v,
      burst: (n) => `rafale n° ${n} de requêtes sur le câble, répondues « occupé »`,
    },
  },
  en: {
    title: "Baccarat shoe: the firmware in the browser",
    subtitle: "The shoe's firmware and the sim board, as sabot sim plays them, on MicroPython (WebAssembly).",
    loading: "Loading MicroPython…", ready: "Ready: the shoe is powered, its gate locked.",
    shoe: "The shoe", seance: "Séance", table: "Table", open_seance: "Open the séance",
    close_seance: "Close the séance",
    load: "Shoe", game: "Game", seed: "Shuffle seed", loaded: "Shoe loaded",
    coup: "Coup", no_more_bets: "No more bets", draw: "Card", coup_end: "Coup end", burn: "Burn a card",
    stands: "Croupier's announcements", stand: "stands",
    supervisor: "Supervisor", clear_alarm: "Supervisor's key",
    faults: "Incidents", force: "Forced card", double: "Double feed", jam: "Jam",
    power_cut: "Power cut", power_on: "Power on",
    time: "Time", wait: "Wait (ms)", wait_button: "Let time pass",
    timeline: "Timeline", coups: "Coups, hands and results by the tableau", journal: "Journal",
    scenario: "Recorded scenario", download_journal: "Download the journal (.zip)",
    download_scenario: "Download the scenario (.txt)",
    col_coup: "Coup", col_hands: "Hands", col_result: "Result",
    col_stakes: "Stakes against the bank (€)", col_levy: "Levy due, tickets",
    levy: (due, kase, tickets) => `${due} due (${kase === "cf" ? "5 % of the stakes" : "Article 62, " + kase}); tickets: ${tickets}`,
    levy_none: "nothing to levy", levy_bad: "stake: euros, two decimals at most",
    gate_open: "gate open", gate_locked: "gate locked", power_yes: "powered", power_no: "no power",
    cards_left: "cards in the shoe", buzzer: "buzzer", indicator: "indicator", clock: "virtual clock",
    checking: "Checking the journal…",
    check_ok: "Journal checked in the page: %s segment(s), %s record(s); headers, CRC-32 and SHA-256 chain intact.",
    check_bad: "JOURNAL INVALID: %s", check_empty: "No journal yet.",
    refused: "refused", action: "croupier", colon: ": ", semi: "; ",
    bad_number: (what, low, high) => `${what}: a whole number ${high === null ? `of at least ${low}` :
      `from ${low} to ${high}`}; nothing done`,
    phase: "Phase",
    alarm_now: "Alarm", none: "none", coup_now: "Coup", power_off_phase: "no power",
    notes: {},
    r: {
      boot: "power-up: gate locked, waiting for the croupier",
      seance: (s, t) => `séance ${s} opens at table ${t}`,
      load: (t, g) => `taille ${t}: ${g} shoe loaded`,
      nmb: (c) => `coup ${c}: no more bets, shoe unlocked`,
      card: (c, p, n, d) => `coup ${c}  card ${p}  ${n} ${d}`, to: (h) => ` to ${h}`,
      end: (c, e) => `coup ${c} ends: ${e}, shoe locked`,
      alarm: (a) => `ALARM ${a}: shoe locked until the supervisor clears it`,
      clear: (a) => `supervisor cleared: ${a}`,
      finding: (f, p) => `FINDING ${f}` + (p ? ` at card ${p}` : ""),
      closed: "shoe closed: no other coup until a new shoe is loaded",
      recovery: (n, r) => `RECOVERY: ${n} torn byte(s) cut from the journal` +
        (r ? `; a ${r} release was under way: whether a card left is UNKNOWN` : ""),
      stand: (c, h) => `coup ${c}: ${h} stands (croupier's announcement)`,
      result: (c, t) => `coup ${c} result: ${t}`, winner: "winner", bank: "bank",
      seance_close: (s) => `séance ${s} closes`,
      ouverte: (n, m) => `banque ouverte séance ${n} of the casino day, break ${m} min (Article 61)`,
      refusal: (why) => `séance refused: ${why}`,
      candidate: (p) => `candidate for the bank: player ${p}`,
      draw: (n, v, p) => `bank drawn by lot: ${n} candidates, random value ${v}, the bank to player ${p}`,
      ouverte_day: (n, last, at) => `banque ouverte day restated: ${n} séance(s) in the casino day, the last ` +
        ["open", `closed at ${at} UTC`, "ended unclosed"][last],
      element: (why, c, n) => why === 1
        ? `ELEMENT: at power-up, the element's counter ${c} is ${n} ahead of the last checkpoint's: the power was cut during a checkpoint`
        : `ELEMENT: the element failed to sign a checkpoint: counter ${c}, ${n} value(s) spent with no checkpoint`,
      authority: (what, part, v) => `the casino's authority changed (${["", "number", "casino key", "clock",
        "clock forced"][what] || what}): ` + ["asked by key ", "before: ", "after: "][part] + v,
      burst: (n) => `burst ${n} of requests on the cable, answered busy`,
    },
  },
};

/** The page's words in each language, with the firmware's numbers' words. */
export const WORDS = { fr: { ...PAGE.fr, ...CODES.fr }, en: { ...PAGE.en, ...CODES.en } };

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = ["♠", "♥", "♦", "♣"];

/** A card code as people write it: 10♥; the stop card and an unread card by a word. */
export function cardName(code, lang) {
  if (code === 52) return lang === "fr" ? "carte d'arrêt" : "stop card";
  if (code === 53) return lang === "fr" ? "non lue" : "not read";
  return RANKS[code % 13] + SUITS[Math.floor(code / 13)];
}

export function isRed(code) {
  return code < 52 && (Math.floor(code / 13) === 1 || Math.floor(code / 13) === 2);
}

/** A result record's totals and winners (docs/journal-format.md, type 14), worded. */
export function resultText(code, hands, w) {
  const names = w.hands[hands === 3 ? 1 : 0];
  const totals = names.slice(0, hands).map((n, h) => `${n} ${(code >> (4 * h)) & 15}`).join(", ");
  const winners = [];
  for (let t = 0; t < hands - 1; t++) winners.push(w.winners[(code >> (12 + 2 * t)) & 3]);
  // The bank's result as the croupier announces it (Article 62): gagnant, perdant, égalité.
  const bank = [];
  for (let t = 0; t < hands - 1; t++) bank.push(w.bank[(code >> (12 + 2 * t)) & 3]);
  if (hands === 2) return totals + w.semi + w.r.winner + w.colon + winners[0] + w.semi + w.r.bank + w.colon + bank[0];
  return totals + w.semi + names[0] + w.colon + winners[0] + ", " + names[1] + w.colon + winners[1] + w.semi +
    w.r.bank + w.colon + names[0] + " " + bank[0] + ", " + names[1] + " " + bank[1];
}

/** One journal record as a timeline line; null for a release intent (the card record follows it). */
export function recordText(r, game, w, lang) {
  const hands = w.hands[game ? 1 : 0];
  switch (r[TYPE]) {
    case RECORDS.R_BOOT: return w.r.boot;
    case RECORDS.R_SEANCE: return w.r.seance(r[SEANCE], r[CODE]);
    case RECORDS.R_LOAD: return w.r.load(r[TAILLE], w.games[r[CODE]]);
    case RECORDS.R_NO_MORE_BETS: return w.r.nmb(r[COUP]);
    case RECORDS.R_CARD: {
      let text = w.r.card(r[COUP], r[POSITION], cardName(r[CARD], lang), w.dispositions[r[DISPOSITION]]);
      if (r[CODE]) text += w.r.to(hands[r[CODE] - 1]);
      if (r[CONDITION]) text += ` (${w.conditions[r[CONDITION]]})`;
      return text;
    }
    case RECORDS.R_COUP_END: return w.r.end(r[COUP], w.ends[r[CODE]]);
    case RECORDS.R_ALARM: return w.r.alarm(w.alarms[r[CODE]]);
    case RECORDS.R_CLEAR: return w.r.clear(w.alarms[r[CODE]]);
    case RECORDS.R_FINDING: return w.r.finding(w.findings[r[CODE]], r[CARD] ? r[POSITION] : 0);
    case RECORDS.R_CLOSED: return w.r.closed;
    case RECORDS.R_RELEASE: return null;
    case RECORDS.R_RECOVERY: return w.r.recovery(r[CODE], w.releases[r[CONDITION]]);
    case RECORDS.R_STAND: return w.r.stand(r[COUP], hands[r[CODE]]);
    case RECORDS.R_RESULT: return w.r.result(r[COUP], resultText(r[CODE], r[DISPOSITION], w));
    case RECORDS.R_SEANCE_CLOSE: return w.r.seance_close(r[SEANCE]);
    case RECORDS.R_OUVERTE: return w.r.ouverte(r[CODE], r[DISPOSITION]);
    case RECORDS.R_REFUSAL: return w.r.refusal(w.refusals[r[CODE]]);
    case RECORDS.R_CANDIDATE: return w.r.candidate(r[CODE]);
    case RECORDS.R_DRAW: return w.r.draw(r[CARD], r[CODE], r[DISPOSITION]);
    case RECORDS.R_OUVERTE_DAY: return w.r.ouverte_day(r[CARD] & 3, r[CARD] & 4 ? 0 : r[CARD] & 8 ? 2 : 1,
      clock((r[CODE] + r[DISPOSITION] * 65536 + r[CONDITION] * 16777216) % 86400, 0).slice(0, 8));
    case RECORDS.R_ELEMENT: return w.r.element(r[CONDITION], r[CODE] + r[DISPOSITION] * 65536, r[CARD]);
    case RECORDS.R_AUTHORITY: return w.r.authority(r[CONDITION] & 15, r[CONDITION] >> 4,
      r[CODE] + r[CARD] * 65536 + r[DISPOSITION] * 16777216);
    case RECORDS.R_BURST: return w.r.burst(r[CODE]);
    default: return `record ${r[TYPE]}`;
  }
}

/** The time of day (UTC) of a record, as the sim's timeline prints it. */
export function clock(seconds, ms) {
  const day = seconds % 86400;
  const two = (n) => String(n).padStart(2, "0");
  return `${two(Math.floor(day / 3600))}:${two(Math.floor(day / 60) % 60)}:${two(day % 60)}.${String(ms).padStart(3, "0")}`;
}
