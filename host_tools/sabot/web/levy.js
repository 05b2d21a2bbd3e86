// Training: the levy due on a coup the croupier enters the stakes of (Articles 59, 60, 62), the page's own reckoning
// of what `sabot cagnotte due` gives (host_tools/sabot/cagnotte/levy.py), in integer cents: never a float for a sum.

const RATES = [[5, 100], [2, 100], [125, 10000]]; // by game (chemin de fer, limitée, ouverte): 5 %, 2 %, 1.25 %
const TICKETS = [500, 100, 10]; // the ticket values in service, cents, the largest first (three at most, Article 59)
const BANQUE = 2, PONTE = 1; // R_RESULT's winner of a tableau; 3 is égalité

/** Cents from what the croupier typed in euros (digits, at most two decimals), or null. */
export function cents(text) {
  const m = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  return m ? Number(m[1]) * 100 + Number((m[2] || "0").padEnd(2, "0")) : null;
}

/** The bank's result on each tableau from R_RESULT's code and its number of hands: 2 gagnant, 1 perdant, 3 égalité. */
export function bankResults(code, hands) {
  const results = [];
  for (let t = 0; t < hands - 1; t++) results.push((code >> (12 + 2 * t)) & 3);
  return results;
}

/** {base, kase}: what the bank won that the levy is taken on, and Article 62's case ("a", "b", "c", "cf" or null). */
function won(results, stakes) {
  if (results.length === 1) return results[0] === BANQUE ? { base: stakes[0], kase: "cf" } : { base: 0, kase: null };
  const wins = results.filter((r) => r === BANQUE).length;
  if (wins === 2) return { base: stakes[0] + stakes[1], kase: "a" };
  if (!wins) return { base: 0, kase: null };
  const w = results[0] === BANQUE ? 0 : 1;
  if (results[1 - w] === PONTE) return { base: Math.max(stakes[w] - stakes[1 - w], 0), kase: "b" };
  return { base: stakes[w], kase: "c" };
}

/** {due, kase, tickets}: the levy in cents, rounded to the nearest ten cents, a half up (Article 59, as the host
 * rounds), and its tickets [[value, count], ...] split the host's way: the largest values first. */
export function levy(game, results, stakes) {
  const { base, kase } = won(results, stakes);
  const [num, den] = RATES[game];
  const due = Math.floor((2 * base * num + 10 * den) / (20 * den)) * 10;
  const tickets = [];
  let left = due;
  for (const value of TICKETS) {
    if (left >= value) tickets.push([value, Math.floor(left / value)]);
    left %= value;
  }
  return { due, kase, tickets };
}

/** Cents as the page shows euros: "6,10 €" in French, "6.10 €" in English. */
export function euros(amount, lang) {
  const text = `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, "0")}`;
  return (lang === "fr" ? text.replace(".", ",") : text) + " €";
}
