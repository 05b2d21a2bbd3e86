"""The casino's authority on a shoe, from the workstation: `sabot number set` and `sabot clock set` (P-AUTHORITY).
The shoe journals each change before it takes effect and refuses a new number while an alarm stands or a séance is
open, and a time more than a day ahead of its journal's last record without --force: each refusal one line, French
first, exit 1. The casino's registry holds one element a number (K-REGISTRY): a number another element holds there is
refused before the shoe is asked, unless --replace, which the registry records."""

import datetime
import os
import sys

from sabot.device import DeviceError
from sabot.json_out import said, state
from sabot.shoe_links import reach
from sabot.shoe_said import EPOCH, failed, fault, refusal, utc


def _other_element(registry, public, sabot):
    """The registry's entries of sabot number sabot under another element than public (bytes), [] when none."""
    from sabot.keys import shoes

    if not public or not registry or not os.path.exists(registry):
        return []
    return [s for s in shoes(registry) if s["sabot"] == sabot and s["public_key"] != public.hex()]


def number_command(port, sabot, out=sys.stdout, casino_key=None, registry=None, as_json=False, replace=False):
    """Set the shoe's establishment number (S-IDENT) at commissioning: config.json's "sabot", then a restart. A
    journal of another number is kept aside whole on the shoe and a new one begins, which the boot record opens. A
    production shoe takes it over its protocol under the casino's key, and the casino's registry follows; a number
    the registry holds under another element is refused first, unless replace."""
    updated = None
    try:
        link = reach(port, casino_key)
        public = link.element_key()
        others = _other_element(registry, public, sabot)
        if others and not replace:
            link.close()
            print("sabot number set: erreur : le registre %s tient déjà le sabot %d sous un autre élément (clé "
                  "publique %s…) : deux sabots ne portent pas un numéro ; un autre numéro, ou --replace si ce "
                  "sabot remplace l'autre (consigné au registre) / the registry already holds sabot %d under "
                  "another element" % (registry, sabot, others[0]["public_key"][:16], sabot), file=sys.stderr)
            return 2
        answer = link.number(sabot)
        if "was" not in answer:
            link.done()
            return failed("number set", refusal(port, answer) if "refused" in answer else fault(port, answer))
        if answer["was"] == sabot and not answer["kept"]:
            link.done()
            if as_json:
                return said(out, "number set", port=port, sabot=sabot, was=sabot, changed=False)
            out.write("the shoe on %s is already sabot %d: nothing changed\n" % (port, sabot))
            return 0
        now = link.restarted()
        if public and registry and os.path.exists(registry):
            from sabot.keys import renumbered

            renumbered(registry, public, sabot, replaced=others)
            updated = registry
    except DeviceError as e:
        print("sabot number set: error: %s" % e, file=sys.stderr)
        return 2
    if now["broken"] or now["alarms"] or now["sabot"] != sabot:
        return failed("number set", fault(port, dict(now, fault=now["alarms"])))
    kept = answer["kept"] and "; the journal of sabot %d (key id %s) kept on the shoe in /%s/, a new one begun" % (
        answer["other"]["sabot"], answer["other"]["key"], answer["kept"])
    if as_json:
        return said(out, "number set", port=port, sabot=sabot, was=answer["was"], changed=True,
                    kept=answer["kept"] and {"folder": "/%s/" % answer["kept"], "sabot": answer["other"]["sabot"],
                                             "key_id": answer["other"]["key"]} or None,
                    registry=updated, restarted=state(now))
    out.write("the shoe on %s is sabot %d (was %d)%s; it restarted: boot record %d\n" % (
        port, sabot, answer["was"], kept or "", now["seq"]))
    return 0


def clock_command(port, at=None, out=sys.stdout, casino_key=None, as_json=False, force=False):
    """Set the shoe's clock (its DS3231; the virtual board's) to the workstation's UTC time, then restart it: its
    boot record is stamped by the clock set. Refused when it would put the journal's times back, or more than a day
    ahead of its last record without force; journalled either way. A production shoe takes it over its protocol
    under the casino's key, and restarts by itself."""
    at = (at or datetime.datetime.now(datetime.UTC)).replace(microsecond=0)
    fields = at.timetuple()[:6]
    seconds = int((at - EPOCH).total_seconds())
    try:
        link = reach(port, casino_key)
        answer = link.clock(seconds, fields, force)
        if "set" not in answer:
            link.done()
            if "behind" in answer:
                return failed("clock set", "the shoe on %s refused %s: its journal's last record is at %s, later" % (
                    port, utc(seconds), utc(answer["behind"])))
            return failed("clock set", refusal(port, answer) if "refused" in answer or "ahead" in answer
                           else fault(port, answer))
        now = link.restarted()
    except DeviceError as e:
        print("sabot clock set: error: %s" % e, file=sys.stderr)
        return 2
    if now["broken"] or now["alarms"]:
        return failed("clock set", fault(port, dict(now, fault=now["alarms"])))
    forced = ("; FORCÉE : plus d'un jour en avant du journal, journalisée comme forcée / forced: more than a day "
              "ahead, journalled so" if answer.get("forced") else "")
    if as_json:
        return said(out, "clock set", port=port, set=utc(seconds), forced=bool(answer.get("forced")),
                    restarted=dict(state(now), time=utc(now["seconds"])))
    out.write("the shoe on %s set to %s; it restarted: boot record %d at %s%s\n" % (
        port, utc(seconds), now["seq"], utc(now["seconds"]), forced))
    return 0
