"""`sabot log verify`'s words for people, English and French (sabot.verify; the report's element line takes them
too)."""

DEVELOPMENT_WORDS = ("the DEVELOPMENT key, public, which signs the simulator's and the tests' journals, never a casino "
                     "shoe's: anyone can have written or re-signed this journal")

SAID = {
    "en": {
        "journal": "journal%s: sabot %d, firmware %s; %d segment(s), %d records (seq %d to %d)\n",
        "key": "key: %s\n" % DEVELOPMENT_WORDS,
        "intact": "integrity: intact: framing, CRCs, SHA-256 chain, sequence and time order\n",
        "broken": "integrity: BROKEN\n",
        "unvouched": "end: %d journal(s) with no receipt: truncation at the end cannot be ruled out\n",
        "vouched": "end: as the shoe signed it in its receipt\n",
        "unchecked": "end: as the shoe's receipt says, its element's signature not checked (no public key: "
                     "--public-key FILE or --registry shoes.json)\n",
        "finding": "  %sseq %-7d %-9s (%s) %s\n",
        "authority": "authority change%s, seq %d: %s\n",
        "findings": "result: %d finding(s)\n",
        "development": "result: not clean: authenticated by the development key only (a shoe's journal: "
                       "--registry shoes.json or --public-key FILE; a sim's: --allow-development-key)\n",
        "unsigned": "result: not clean: the signatures of the shoe's element were not checked (--registry "
                    "shoes.json or --public-key FILE): without them anyone can have rewritten this journal\n",
        "clean": "result: clean",
        "points unchecked": "checkpoints%s: not checked (no public key of the shoe's element: --public-key FILE or "
                            "--registry shoes.json)\n",
        "points none": "checkpoints%s: none signed by the shoe's element\n",
        "points": "checkpoints%s: %d signed by the shoe's element (counter %d to %d), the last at seq %d; %d "
                  "record(s) after it, which no checkpoint covers\n",
        "allowed": " (development key allowed)",
        "foreign": "integrity: not established: the public key given is another element's than the one that signed "
                   "this journal (see the finding)\n",
        "end foreign": "end: as the shoe's receipt says, its signature not checked: the public key given is another "
                       "element's\n",
        "cut": "end: NOT as the shoe signed it in its receipt: see the findings\n",
        "points foreign": "checkpoints%s: not checked: the public key given is another element's\n",
        "points beyond": "checkpoints%s: %d signed by the shoe's element (counter %d to %d), the last at seq %d, "
                         "beyond the journal's end (seq %d): records cut, see the findings\n",
    },
    "fr": {
        "journal": "journal%s : sabot %d, logiciel %s ; %d segment(s), %d enregistrements (n° %d à %d)\n",
        "key": "clé : la clé de DÉVELOPPEMENT, publique, qui signe les journaux du simulateur et des tests, jamais "
               "ceux d'un sabot de casino : n'importe qui a pu écrire ou signer à nouveau ce journal\n",
        "intact": "intégrité : intacte : trames, CRC, chaîne SHA-256, numérotation et ordre des heures\n",
        "broken": "intégrité : ROMPUE\n",
        "unvouched": "fin : %d journal(aux) sans reçu du sabot : une troncature à la fin ne peut être exclue\n",
        "vouched": "fin : telle que le sabot l'a signée dans son reçu\n",
        "unchecked": "fin : telle que la dit le reçu du sabot, la signature de son élément sécurisé non vérifiée "
                     "(aucune clé publique : --public-key FICHIER ou --registry shoes.json)\n",
        "finding": "  %sn° %-7d %-9s (%s) %s\n",
        "authority": "changement d'autorité%s, n° %d : %s\n",
        "findings": "résultat : %d constat(s)\n",
        "development": "résultat : non conforme : authentifié par la seule clé de développement (le journal d'un "
                       "sabot : --registry shoes.json ou --public-key FICHIER ; d'un simulateur : "
                       "--allow-development-key)\n",
        "unsigned": "résultat : non conforme : les signatures de l'élément sécurisé du sabot n'ont pas été vérifiées "
                    "(--registry shoes.json ou --public-key FICHIER) : sans elles, n'importe qui a pu réécrire ce "
                    "journal\n",
        "clean": "résultat : conforme",
        "points unchecked": "points de contrôle%s : non vérifiés (aucune clé publique de l'élément sécurisé du sabot : "
                            "--public-key FICHIER ou --registry shoes.json)\n",
        "points none": "points de contrôle%s : aucun signé par l'élément sécurisé du sabot\n",
        "points": "points de contrôle%s : %d signés par l'élément sécurisé du sabot (compteur %d à %d), le dernier au "
                  "n° %d ; %d enregistrement(s) après lui, qu'aucun point de contrôle ne couvre\n",
        "allowed": " (clé de développement admise)",
        "foreign": "intégrité : non établie : la clé publique fournie est celle d'un autre élément sécurisé que "
                   "celui qui a signé ce journal (voir le constat)\n",
        "end foreign": "fin : telle que la dit le reçu du sabot, sa signature non vérifiée : la clé publique fournie "
                       "est celle d'un autre élément sécurisé\n",
        "cut": "fin : PAS telle que le sabot l'a signée dans son reçu : voir les constats\n",
        "points foreign": "points de contrôle%s : non vérifiés : la clé publique fournie est celle d'un autre élément "
                          "sécurisé\n",
        "points beyond": "points de contrôle%s : %d signés par l'élément sécurisé du sabot (compteur %d à %d), le "
                         "dernier au n° %d, au-delà de la fin du journal (n° %d) : des enregistrements ont été "
                         "coupés, voir les constats\n",
    },
}
