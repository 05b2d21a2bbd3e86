"""What `sabot nuit` says: its summary as data (--json, nuit.json) and in French for the technician (nuit.txt),
verdict first, the shoes that need a look first (sabot.nuit)."""

from firmware.format import words

FAULT, MUTE, FINDINGS, CLEAN = "défaut", "muet", "constats", "conforme"
ORDER = (FAULT, MUTE, FINDINGS, CLEAN)
_FLEET_SHOWN = 10  # the fleet's findings listed in the summary; the pages hold them all


def alarms(mask):
    """An alarm mask's names in French (firmware/format/words.py)."""
    return ", ".join(words.said(words.ALARMS, code, words.FR) for code in sorted(words.ALARMS)
                     if mask >> code - 1 & 1) or "alarme %d" % mask


def fault(state, sabot):
    """A shoe in fault (it journals nothing) as its status says it: why, and what mends it."""
    other = state.get("other")
    if other:
        return ("il ne journalise rien : son journal est celui du sabot %d (élément %s), il est configuré "
                "sabot %s (un config.json copié d'un autre sabot ?) ; rien relevé. Remettre son config.json, ou "
                "`sabot number set` pour qu'il commence un journal à lui (l'autre gardé)" % (
                    other["sabot"], other["key"], state.get("sabot", sabot)))
    return "il ne journalise rien (%s)%s ; rien relevé" % (
        alarms(state.get("alarms", 0)) if state.get("alarms") else "journal",
        " : son journal est inutilisable" if state.get("broken") else "")


def outcome(shoe):
    """A shoe's outcome in a few words: its progress line and its heading in the summary."""
    if shoe["state"] == FAULT:
        return "EN DÉFAUT"
    if shoe["state"] == MUTE:
        return "NE RÉPOND PAS"
    if shoe["state"] == FINDINGS:
        return "NON CONFORME, %d constat(s)" % max(len(shoe["findings"]), 1)
    return "conforme"


def summary(night, options, shoes, pages, fleet, trouble, seconds):
    """The night as data: every shoe, most urgent first (in fault, silent, with findings, conforme), the fleet's
    findings and pages."""
    ordered = sorted(shoes, key=lambda s: (ORDER.index(s["state"]), s["sabot"]))
    ok = all(s["state"] == CLEAN for s in shoes) and not fleet and not trouble
    return {"ok": ok, "date": night["date"], "casino": options.casino, "registry": str(options.registry),
            "db": str(options.db), "folder": str(night["folder"]), "receipts": str(night["receipts"]),
            "look": [s["sabot"] for s in ordered if s["state"] != CLEAN],
            "counts": {state: sum(1 for s in shoes if s["state"] == state) for state in ORDER},
            "shoes": ordered, "fleet": {"pages": pages, "findings": fleet, "trouble": trouble},
            "seconds": round(seconds, 1)}


def text(night):
    """The summary in French: the verdict, the shoes to look at first with why, the conforme ones, the fleet, where
    everything is."""
    shoes, counts = night["shoes"], night["counts"]
    lines = []
    head = "Nuit du %s, casino %s : " % (night["date"], night["casino"])
    if night["ok"]:
        lines.append(head + "CONFORME, %d sabot(s) sur %d" % (len(shoes), len(shoes)))
    else:
        parts = [("%d en défaut" % counts[FAULT]) if counts[FAULT] else "",
                 ("%d ne répond pas" % counts[MUTE] if counts[MUTE] == 1 else "%d ne répondent pas" % counts[MUTE])
                 if counts[MUTE] else "",
                 ("%d avec constats" % counts[FINDINGS]) if counts[FINDINGS] else "",
                 ("le parc : %d constat(s)" % len(night["fleet"]["findings"])) if night["fleet"]["findings"] else ""]
        lines.append(head + "NON CONFORME : %d sabot(s) à voir sur %d (%s)" % (
            len(night["look"]), len(shoes), ", ".join(p for p in parts if p)))
    look = [s for s in shoes if s["state"] != CLEAN]
    if look:
        lines.append("")
        lines.append("À voir d'abord :")
        for shoe in look:
            lines.append("  sabot %d (%s) : %s" % (shoe["sabot"], shoe["port"] or "aucun port", outcome(shoe)))
            lines += ["      %s" % said for said in shoe["said"]]
            if shoe["report"]:
                lines.append("      rapport : %s" % shoe["report"])
    clean = [s for s in shoes if s["state"] == CLEAN]
    if clean:
        lines.append("")
        lines.append("Conformes : %s" % ", ".join("sabot %d" % s["sabot"] for s in clean))
        for shoe in clean:
            notes = "".join(" ; %s" % said for said in shoe["said"])
            lines.append("  sabot %d : vérifié %s, ingéré, rapport %s%s" % (
                shoe["sabot"], "avec le reçu de la nuit précédente" if shoe["previous_receipt"] else
                "(sans reçu précédent)", shoe["report"], notes))
    fleet = night["fleet"]
    lines.append("")
    if fleet["trouble"]:
        lines.append("Le parc : %s" % fleet["trouble"])
    else:
        lines.append("Le parc (base %s) : %s ; pages : %s" % (
            night["db"], "%d constat(s)" % len(fleet["findings"]) if fleet["findings"] else "aucun constat",
            fleet["pages"]))
        for f in fleet["findings"][:_FLEET_SHOWN]:
            lines.append("  %s (%s) %s" % (f["id"], f["article"], f["message"]))
        if len(fleet["findings"]) > _FLEET_SHOWN:
            lines.append("  … et %d autre(s) : voir les pages" % (len(fleet["findings"]) - _FLEET_SHOWN))
    lines.append("Reçus de la nuit : %s ; ce résumé : %s/nuit.txt (nuit.json) ; %.0f s" % (
        night["receipts"], night["folder"], night["seconds"]))
    return "\n".join(lines) + "\n"
