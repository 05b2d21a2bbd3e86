"""An element replaced (issue 38; docs/registry-signatures.md): once `sabot number set --replace` has recorded the
replacement in a registry the casino signed, the journals the replaced element wrote before it still verify clean
with that registry (an honest replacement never reads as tampering), while a journal of the replaced element that
runs more than a day past the replacement is a K-REGISTRY finding of verify and report, and refused by fleet ingest:
a retired element still signing. Host only: journals of the sim board with an element."""

import json

import pytest

from sabot.journalfile import Reader, load_segments
from sabot.times import moment
from sabot.verify import read_key
from tests.host.test_registry_signed import ingested, registry, reported, shoe, signed, verified  # noqa: F401

RETIRED = "un élément retiré qui signe encore"


def replaced_registry(tmp_path, number, old, new, when, signers):
    """A registry the casino signed, in which new replaced old for sabot number at when."""
    replacement = [{"sabot": number, "public_key": old, "replaced": when, "by": new}]
    return signed(registry(tmp_path, number, new, replaced=replacement), signers, roles=("casino",))


def last_record(folder):
    """When the journal's last record was written (the shoe's clock)."""
    segments = load_segments([folder])
    reader = Reader(segments, read_key(None))
    for _ in reader.scanned(0):
        pass
    return moment(reader.last_time)


@pytest.mark.req("K-REGISTRY", "H-VERIFY", "F-INGEST")
def test_the_journal_of_a_replaced_element_written_before_its_replacement_verifies_clean(shoe, tmp_path):  # noqa: F811
    folder, _, number, own, stranger, signers = shoe
    trusted = (signers["casino"][1],)
    after = (last_record(folder)).isoformat()  # replaced once its last record was written
    shoes = replaced_registry(tmp_path, number, own, stranger, after, signers)
    status, said = verified(folder, shoes, *trusted)
    assert status == 0, said
    assert "J-TAMPER" not in said and "K-REGISTRY" not in said, said
    assert "signés par l'élément sécurisé du sabot" in said, said
    status, out, err = ingested(folder, shoes, tmp_path, *trusted)
    assert status == 0 and err == "", err
    assert reported(folder, shoes, tmp_path, *trusted)[0] == 0


@pytest.mark.req("K-REGISTRY", "H-VERIFY", "F-INGEST")
def test_a_journal_the_replaced_element_wrote_past_its_replacement_is_a_finding_and_refused_by_ingest(shoe, tmp_path):  # noqa: F811
    folder, _, number, own, stranger, signers = shoe
    trusted = (signers["casino"][1],)
    before = "2021-01-01T00:00:00"  # the registry says the element left the shoe long before this journal's end
    shoes = replaced_registry(tmp_path, number, own, stranger, before, signers)
    status, said = verified(folder, shoes, *trusted)
    assert status == 1 and "K-REGISTRY" in said and RETIRED in said and "remplacé le 2021-01-01" in said, said
    status, data = verified(folder, shoes, *trusted, as_json=True)
    assert status == 1 and [f["id"] for f in data["findings"]] == ["K-REGISTRY"], data["findings"]
    status, _, err = ingested(folder, shoes, tmp_path, *trusted)
    assert status == 1 and "K-REGISTRY" in err and "remplacé avant la fin du journal" in err, err
    status, page = reported(folder, shoes, tmp_path, *trusted)
    assert status == 0 and RETIRED in page


@pytest.mark.req("K-REGISTRY")
def test_the_replacing_element_is_not_said_retired_and_a_registry_nobody_vouches_for_stays_a_finding(shoe, tmp_path):  # noqa: F811
    folder, forged, number, own, stranger, signers = shoe
    trusted = (signers["casino"][1],)
    shoes = replaced_registry(tmp_path, number, own, stranger, "2021-01-01T00:00:00", signers)
    assert verified(forged, shoes, *trusted)[0] == 0  # the new element's journal: its own
    (tmp_path / "shoes.json.sig").unlink()  # unsigned: the replacement vouched for by nobody
    status, said = verified(folder, shoes)
    assert status == 1 and "personne ne le garantit" in said and RETIRED not in said, said
    assert json.loads(shoes.read_text())["replaced"][0]["by"] == stranger


@pytest.mark.req("K-REGISTRY", "H-VERIFY")
def test_a_vouched_replacement_with_no_readable_date_is_a_finding_not_passed_over(shoe, tmp_path):  # noqa: F811
    folder, _, number, own, stranger, signers = shoe
    trusted = (signers["casino"][1],)
    shoes = replaced_registry(tmp_path, number, own, stranger, "last tuesday", signers)
    status, said = verified(folder, shoes, *trusted)
    assert status == 1 and "K-REGISTRY" in said and "remplacé sans date lisible ('last tuesday')" in said, said
    status, _, err = ingested(folder, shoes, tmp_path, *trusted)
    assert status == 1 and "K-REGISTRY" in err, err
