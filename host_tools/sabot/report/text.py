"""The report's own words in French and English, and Words: them, a requirement's title and sabot.words' words
for a journal's codes, in the report's language."""

from firmware.format import words
from sabot import builds
from sabot.report.regulation import TITLES

# The report's own words, by language.
TEXT = {
    "fr": {
        "title": "Rapport d'agrément — journal du sabot n° %s",
        "lang": "fr",
        "identity": "Le sabot et son logiciel",
        "verdict": "Verdict",
        "conforme": "CONFORME",
        "non_conforme": "NON CONFORME",
        "why_ok": "journal intact, authentifié par la clé fournie, fini là où le sabot l'a signé dans son reçu ; "
                  "aucun constat du vérificateur",
        "why_ok_element": "journal intact, authentifié par les signatures de l'élément sécurisé du sabot, fini là où "
                          "le sabot l'a signé dans son reçu ; aucun constat du vérificateur",
        "why_dev_allowed": "clé de développement admise à la demande (--allow-development-key) : journal d'essai "
                           "du simulateur, pas celui d'un sabot de casino",
        "why_broken": "journal ROMPU : modifié, tronqué ou signé d'une autre clé (constats J-TAMPER)",
        "why_findings": "%d constat(s) du vérificateur, détaillés plus loin",
        "why_no_receipt": "pas de reçu signé du sabot : des enregistrements coupés à la fin du journal ne peuvent "
                          "être exclus",
        "why_dev": "journal signé par la seule clé de DÉVELOPPEMENT, publique : n'importe qui a pu l'écrire ou le "
                   "signer à nouveau ; il faut le journal d'un sabot, signé par son élément sécurisé",
        "why_unsigned": "signatures de l'élément sécurisé du sabot non vérifiées (--registry shoes.json ou "
                        "--public-key) : sans elles, n'importe qui a pu réécrire ce journal",
        "verdict_same": "Le verdict est celui de sabot log verify sur le même journal, avec la même clé.",
        "element_unchecked": "Signatures de l'élément sécurisé du sabot (points de contrôle, reçu) : NON vérifiées, "
                             "aucune clé publique donnée (--public-key FICHIER ou --registry shoes.json)",
        "element_file": "Signatures de l'élément sécurisé du sabot (points de contrôle, reçu) : vérifiées avec la clé "
                        "publique du fichier %s",
        "element_registry": "Signatures de l'élément sécurisé du sabot (points de contrôle, reçu) : vérifiées avec la "
                            "clé publique que le registre du casino %s donne pour le sabot n° %d",
        "written": "%s ; rapport écrit dans %s (%s) : %d enregistrements, %d constat(s)",
        "establishment": "Établissement",
        "not_given": "non renseigné",
        "sabot_others": " (des segments portent le n° %s : voir les constats)",
        "fw_dev": "version %s, version de développement (carte « %s ») : logiciel non publié, sans empreinte, "
                  "que le sabot ne contrôle pas au démarrage",
        "fw_dev_text": "« %s » : version de développement, logiciel non publié, sans empreinte",
        "fw_image": "version %s, image de production de la carte « %s » (son code figé dans l'image, sans REPL) : "
                    "sabot firmware verify la compare à l'image approuvée",
        "fw_either": "version %s, carte « %s » (format 4 : l'en-tête ne dit pas si l'image de production ou celle de "
                     "développement l'a écrit ; sabot firmware verify dit laquelle tourne)",
        "fw_whole": "version publiée, empreinte sha256 %s (à rapprocher de l'empreinte du logiciel approuvé, au "
                    "dossier d'agrément)",
        "fw_release": "version %s (carte %s), empreinte sha256 %s",
        "fw_unnamed": "version publiée, empreinte sha256 %s… (l'en-tête n'en porte que le début : à rapprocher de "
                      "l'empreinte du logiciel approuvé, au dossier d'agrément)",
        "seances": "Séances",
        "no_seance": "aucune séance ouverte dans ce journal",
        "col_opened": "Ouverte le",
        "col_closed": "Fermée le",
        "col_by": "Affecté par",
        "col_tailles": "Tailles",
        "not_closed": "non fermée",
        "employee": "employé n° %d",
        "more_seances": "et %d autre(s) séance(s) : voir la vue d'ensemble",
        "intact_dev": ", sous la clé publique de développement, qui n'authentifie pas le journal",
        "sabot": "Sabot n°",
        "firmware": "Logiciel",
        "key": "Clé du journal",
        "key_dev": "clé de DÉVELOPPEMENT : elle signe les journaux du simulateur et des tests, jamais ceux "
                   "d'un sabot de casino",
        "key_given": "clé fournie (%s)",
        "key_element": "clé de l'élément sécurisé du sabot : le journal est chaîné (SHA-256), l'élément en signe la "
                       "tête (points de contrôle, reçu)",
        "key_id": "identifiant %s",
        "other_keys": "segments signés sous l'identifiant %s",
        "segments": "Segments",
        "period": "Période",
        "journal": "Journal lu",
        "integrity": "Intégrité du journal",
        "intact": "INTACT",
        "broken": "ROMPU",
        "intact_words": "trames, CRC, chaîne SHA-256, numéros de séquence et ordre du temps vérifiés",
        "intact_words_hmac": "trames, CRC, chaîne SHA-256, étiquettes HMAC, numéros de séquence et ordre du temps "
                             "vérifiés",
        "broken_words": "le journal a été modifié, tronqué ou signé d'une autre clé : voir les constats J-TAMPER",
        "records": "Enregistrements",
        "seq": "n° d'enregistrement %d à %d",
        "summary": "Vue d'ensemble",
        "findings": "Constats du vérificateur",
        "no_findings": "Aucun constat : le journal respecte toutes les règles qu'il permet de vérifier.",
        "finding_count": "%d constat(s)",
        "seance": "Séance %d",
        "table": "table %s",
        "by": "affecté par l'employé n° %d",
        "taille": "Taille %d",
        "game": "Jeu",
        "coups": "Coups",
        "dealt": "Cartes données",
        "burned": "Brûlées",
        "stop": "Carte d'arrêt",
        "col_coup": "Coup",
        "col_cards": "Cartes",
        "col_result": "Résultat",
        "col_notes": "Incidents",
        "col_seance": "Séance",
        "col_table": "Table",
        "col_taille": "Taille",
        "col_seq": "N°",
        "col_where": "Séance / taille / coup",
        "col_message": "Constat",
        "between": "entre les coups",
        "burn_row": "brûlées",
        "before": "avant la première taille",
        "authority": "changements d'autorité du casino : numéro, clé du casino, horloge",
        "stop_ok": "sortie en position %d : %d cartes derrière elle, %d attendues — conforme",
        "stop_bad": "sortie en position %d : %d cartes derrière elle, %d attendues — NON CONFORME",
        "stop_none": "pas encore sortie : %d cartes sorties, la taille s'arrête avant la carte d'arrêt",
        "stop_after": "coup donné après la carte d'arrêt (S-STOP)",
        "stop_short": "conforme",
        "stop_short_bad": "NON CONFORME",
        "stop_short_none": "non sortie",
        "winner": "gagnant : %s",
        "winners": "tableau1 : %s, tableau2 : %s",
        "bank": " ; banque : %s", "bank_dt": " ; banque : tableau1 %s, tableau2 %s",  # Article 62's announcement
        "chart": "Cartes données par coup",
        "chart_coups": "coups",
        "legend_bar": "cartes du coup",
        "legend_incident": "coup avec incident",
        "legend_alarm": "alarme",
        "legend_finding": "constat",
        "legend_forced": "carte forcée",
        "legend_double": "sortie double",
        "legend_power": "mise sous tension",
        "legend_stop": "carte d'arrêt",
        "legend_limits": "minimum et maximum du coup",
        "no_coup": "aucun coup",
        "gloss": "",
        "decks": "%d jeux, carte d'arrêt avant les %d dernières cartes, %d à %d cartes par coup",
        "footer": "Établi par sabot report à partir du journal du sabot. Les constats sont ceux de sabot log "
                  "verify ; chacun cite son exigence et l'article du règlement des jeux de cercle (articles 58 à "
                  "62) dont elle découle.",
        "card_n": "carte %d",
        "cards_n": "%d cartes",
        "utc": "UTC",
        "colon": " : ",
        "generated": "établi le %s",
        "page": "page",
        "page_of": "sur",
        "segments_n": "segments %d à %d",
        "receipt": "Reçu signé du sabot",
        "no_receipt": "pas de reçu : ce journal a été relevé sans reçu signé du sabot",
        "receipt_ok": "vérifié : le journal finit au n° %d, segment %d, que le sabot a signé au relevé",
        "receipt_bad": "NON CONFORME : le journal ne finit pas au n° %d que le sabot a signé (voir les constats)",
        "read": "Journal lu",
        "read_n": "%d segment(s), %s octets, dans %s",
        "digest_all": "empreinte SHA-256 de l'ensemble (celle de chaque segment en annexe) :",
        "tool": "Outil",
        "generated_on": "Rapport établi le",
        "annex": "Annexe : segments lus et leur empreinte",
        "annex_words": "L'empreinte SHA-256 de chaque fichier lu, telle que sha256sum la donne ; celle de "
                       "l'ensemble est le SHA-256 des lignes « NOM EMPREINTE » dans cet ordre.",
        "col_segment": "Segment",
        "col_bytes": "Octets",
        "col_when": "Chargé le",
        "sign": "Visa de l'inspecteur",
        "sign_words": "Je certifie avoir examiné le journal décrit ci-dessus, dont les empreintes figurent en annexe.",
        "sign_fields": ("Nom et qualité", "Fait à", "Le", "Signature"),
        "condensed": "%d taille(s) sans incident ni constat, la carte d'arrêt à sa place, tiennent chacune en une "
                     "ligne ci-dessous ; les autres sont détaillées coup par coup plus loin.",
        "restart_coup": "redémarrage pendant ce coup, sans coupure de courant : le coup reprend",
        "power_cut_coup": "coupure de courant pendant ce coup, puis remise sous tension : le coup reprend",
        "seq_n": "n° %d",
        "stop_label": "ARRÊT",
    },
    "en": {
        "title": "Approval report — journal of sabot no. %s",
        "lang": "en",
        "identity": "The shoe and its firmware",
        "verdict": "Verdict",
        "conforme": "CONFORMS",
        "non_conforme": "DOES NOT CONFORM",
        "why_ok": "the journal is intact, authenticated by the key given, and ends where the shoe signed it in its "
                  "receipt; no finding",
        "why_ok_element": "the journal is intact, authenticated by the signatures of the shoe's secure element, and "
                          "ends where the shoe signed it in its receipt; no finding",
        "why_dev_allowed": "the development key allowed on request (--allow-development-key): a simulator's test "
                           "journal, not a casino shoe's",
        "why_broken": "the journal is BROKEN: altered, truncated or signed with another key (J-TAMPER findings)",
        "why_findings": "%d finding(s) of the verifier, detailed below",
        "why_no_receipt": "no receipt signed by the shoe: records cut from the end of the journal cannot be ruled out",
        "why_dev": "signed by the public DEVELOPMENT key alone: anyone can have written or re-signed it; a shoe's "
                   "journal, signed by its secure element, is needed",
        "why_unsigned": "the signatures of the shoe's secure element not checked (--registry shoes.json or "
                        "--public-key): without them anyone can have rewritten this journal",
        "verdict_same": "The verdict is sabot log verify's on the same journal, with the same key.",
        "element_unchecked": "The shoe's secure element's signatures (checkpoints, receipt): NOT checked, no public "
                             "key given (--public-key FILE or --registry shoes.json)",
        "element_file": "The shoe's secure element's signatures (checkpoints, receipt): checked with the public key "
                        "of the file %s",
        "element_registry": "The shoe's secure element's signatures (checkpoints, receipt): checked with the public "
                            "key the casino's registry %s gives for sabot no. %d",
        "written": "%s; report written to %s (%s): %d records, %d finding(s)",
        "establishment": "Establishment",
        "not_given": "not given",
        "sabot_others": " (segments carry no. %s: see the findings)",
        "fw_dev": "version %s, a development build (board “%s”): not a release, no digest, not checked by the shoe "
                  "at boot",
        "fw_dev_text": "“%s”: a development build, not a release, no digest",
        "fw_image": "version %s, the production image of board “%s” (its code frozen in it, no REPL): sabot firmware "
                    "verify compares it with the approved image",
        "fw_either": "version %s, board “%s” (format 4: the header does not say whether the production image or the "
                     "development one wrote it; sabot firmware verify says which runs)",
        "fw_whole": "a release, sha256 digest %s (compare it with the approved release's digest in the approval file)",
        "fw_release": "version %s (board %s), sha256 digest %s",
        "fw_unnamed": "a release, sha256 digest %s… (the header holds its start alone: compare it with the approved "
                      "release's digest in the approval file)",
        "seances": "Séances",
        "no_seance": "no séance opened in this journal",
        "col_opened": "Opened",
        "col_closed": "Closed",
        "col_by": "Assigned by",
        "col_tailles": "Tailles",
        "not_closed": "not closed",
        "employee": "employee no. %d",
        "more_seances": "and %d other séance(s): see the overview",
        "intact_dev": ", under the public development key, which authenticates nothing",
        "sabot": "Sabot no.",
        "firmware": "Firmware",
        "key": "Journal key",
        "key_dev": "the DEVELOPMENT key: it signs the simulator's and the tests' journals, never a casino shoe's",
        "key_given": "provided key (%s)",
        "key_element": "the shoe's secure element's key: the journal is chained (SHA-256), the element signs its "
                       "head (checkpoints, receipt)",
        "key_id": "key id %s",
        "other_keys": "segments signed under key id %s",
        "segments": "Segments",
        "period": "Period",
        "journal": "Journal read",
        "integrity": "Journal integrity",
        "intact": "INTACT",
        "broken": "BROKEN",
        "intact_words": "framing, CRCs, SHA-256 chain, sequence numbers and time order checked",
        "intact_words_hmac": "framing, CRCs, SHA-256 chain, HMAC tags, sequence numbers and time order checked",
        "broken_words": "the journal was altered, truncated or signed with another key: see the J-TAMPER findings",
        "records": "Records",
        "seq": "seq %d to %d",
        "summary": "Overview",
        "findings": "The verifier's findings",
        "no_findings": "No finding: the journal keeps every rule it can show.",
        "finding_count": "%d finding(s)",
        "seance": "Séance %d",
        "table": "table %s",
        "by": "assigned by employee no. %d",
        "taille": "Taille %d",
        "game": "Game",
        "coups": "Coups",
        "dealt": "Cards dealt",
        "burned": "Burned",
        "stop": "Stop card",
        "col_coup": "Coup",
        "col_cards": "Cards",
        "col_result": "Result",
        "col_notes": "Incidents",
        "col_seance": "Séance",
        "col_table": "Table",
        "col_taille": "Taille",
        "col_seq": "Seq",
        "col_where": "Séance / taille / coup",
        "col_message": "Finding (the verifier's words)",
        "between": "between coups",
        "burn_row": "burned",
        "before": "before the first taille",
        "authority": "the casino's authority changed: number, casino key, clock",
        "stop_ok": "out at position %d: %d cards behind it, %d expected — conforms",
        "stop_bad": "out at position %d: %d cards behind it, %d expected — DOES NOT CONFORM",
        "stop_none": "not out yet: %d cards out, the taille ends before the stop card",
        "stop_after": "a coup dealt after the stop card (S-STOP)",
        "stop_short": "conforms",
        "stop_short_bad": "DOES NOT CONFORM",
        "stop_short_none": "not out",
        "winner": "winner: %s",
        "winners": "tableau1: %s, tableau2: %s",
        "chart": "Cards dealt per coup",
        "chart_coups": "coups",
        "legend_bar": "cards of the coup",
        "legend_incident": "coup with an incident",
        "legend_alarm": "alarm",
        "legend_finding": "finding",
        "legend_forced": "forced card",
        "legend_double": "double feed",
        "legend_power": "power-up",
        "legend_stop": "stop card",
        "legend_limits": "coup minimum and maximum",
        "no_coup": "no coup",
        "gloss": "English gloss: ",
        "decks": "%d decks, stop card before the last %d cards, %d to %d cards a coup",
        "footer": "Made by sabot report from the shoe's journal. The findings are sabot log verify's; each "
                  "cites its requirement and the article of the rules for circle games (Articles 58 to 62) it "
                  "comes from.",
        "card_n": "card %d",
        "cards_n": "%d cards",
        "utc": "UTC",
        "colon": ": ",
        "generated": "made %s",
        "page": "page",
        "page_of": "of",
        "segments_n": "segments %d to %d",
        "receipt": "The shoe's signed receipt",
        "no_receipt": "no receipt: this journal was pulled without a receipt signed by the shoe",
        "receipt_ok": "checked: the journal ends at no. %d, segment %d, which the shoe signed when it was pulled",
        "receipt_bad": "NOT MATCHING: the journal does not end at no. %d, which the shoe signed (see the findings)",
        "read": "Journal read",
        "read_n": "%d segment(s), %s bytes, in %s",
        "digest_all": "SHA-256 of them all (annex: each segment):",
        "tool": "Tool",
        "generated_on": "Report made on",
        "annex": "Annex: the segments read and their digests",
        "annex_words": "Each file's SHA-256, as sha256sum gives it; that of them all is the SHA-256 of the lines "
                       "“NAME DIGEST” in this order.",
        "col_segment": "Segment",
        "col_bytes": "Bytes",
        "col_when": "Loaded",
        "sign": "The inspector's signature",
        "sign_words": "I certify that I examined the journal described above, whose digests are in the annex.",
        "sign_fields": ("Name and office", "At", "On", "Signature"),
        "condensed": "%d taille(s) with no incident nor finding, the stop card in its place, take one line each "
                     "below; the others follow coup by coup.",
        "restart_coup": "restart during this coup, no power cut: the coup goes on",
        "power_cut_coup": "power cut during this coup, then power back: the coup goes on",
        "seq_n": "seq %d",
        "stop_label": "STOP",
    },
}


class Words:
    """The report's words in one language: its own (w["key"]), a code's (w.of(words.ALARMS, code)), a phrase's
    (w.phrase(words.STANDS)), a requirement's title."""

    def __init__(self, lang):
        self.lang = lang
        self.text = TEXT[lang]
        self.index = words.LANGUAGES[lang]

    def __getitem__(self, key):
        return self.text[key]

    def of(self, table, code):
        return words.said(table, code, self.index)

    def phrase(self, pair):
        return pair[self.index]

    def title(self, rid):
        pair = TITLES.get(rid)
        return pair[self.lang != "fr"] if pair else ""


def firmware_words(identity, w, manifests=()):
    """A segment header's firmware name as an inspector reads them (sabot.builds): a release by its version (from an
    approved bundle's manifest: the header holds the digest alone) and its SHA-256 digest, a production image as one,
    a development build said so; format 4's cut name of a Pico as what it cannot tell."""
    kind, version, board = builds.named(identity)
    if kind == builds.IMAGE:
        return w["fw_image"] % (version, board)
    if kind == builds.EITHER:
        return w["fw_either"] % (version, "rpi_pico")
    if kind == builds.DEVELOPMENT:
        return w["fw_dev"] % (version, board) if version else w["fw_dev_text"] % board
    start = identity.hex()
    for manifest in manifests:
        if manifest["digest"].startswith(start):
            return w["fw_release"] % (manifest["version"], manifest["board"], manifest["digest"])
    return w["fw_whole"] % start if len(identity) >= 32 else w["fw_unnamed"] % start
