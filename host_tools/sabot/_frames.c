/* The per-frame integrity checks of `sabot log verify` (J-TAMPER), compiled: framing, CRC-32, the SHA-256
 * chain, sequence continuity and time order over segments' frames (and format 3's HMAC-SHA256 tags), with OpenSSL
 * hashing and libdeflate computing the CRCs (zlib takes 186 ns for a frame's, libdeflate 22, measured here).
 * A million cards are some 2.6 million records: checked one by one in Python, the interpreter's overhead was
 * a hundred times the hashing's. Segments are checked apart (each header states where its chain starts),
 * without the GIL, so the rules can fold one segment while the next ones are checked.
 *
 * The numbers here are the format's (docs/journal-format.md); tests/host/test_integrity_core.py holds them to
 * firmware/journal.py's. journalfile.py turns the issues found into findings.
 */
#define PY_SSIZE_T_CLEAN
/* OpenSSL 3 marks its SHA256_* calls deprecated in favour of EVP, whose dispatch costs more than hashing a
 * 64-byte message (measured here: 130 ns for SHA256_* against 275 to 726 ns through EVP, and 82 against 139 for
 * a copied HMAC state). They are in every OpenSSL 3 and hash with the same code. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <Python.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/sha.h>
#include <string.h>
#include <libdeflate.h>

#define SYNC 0xA5
#define BODY_SIZE 20
#define SEQ_AT 2
#define BODY_AT 6
#define SECONDS_AT 7 /* the body's time, at 6 + 1 */
#define MS_AT 11
#define LINK_AT 26
#define CRC_AT 34 /* format 4's frame: no tag; its chain value is SHA-256(the one before || the body) */
#define FRAME_SIZE 38
#define LINK_SIZE 8
/* Format 3's frame, which verify keeps reading: a 16-byte HMAC tag of the chain value after the link, whose chain
 * value hashed the frame up to the tag. */
#define V3_TAG_AT 34
#define V3_CRC_AT 50
#define V3_FRAME_SIZE 54
#define TAG_SIZE 16
#define CHAIN_SIZE 32
#define BLOCK 64
/* A row handed to Python is a tuple of these fields of a frame (at, size): its sequence number, then its body's,
 * the time as one number of milliseconds (journalfile's SEQ, TYPE, TIME ... CODE). */
#define TIME_FIELD 0 /* the size that marks the time: seconds (4 bytes), then milliseconds (2) */
static const unsigned char ROW_FIELDS[][2] = {
    {2, 4}, {6, 1}, {7, TIME_FIELD}, {13, 2}, {15, 2}, {17, 2}, {19, 2}, {21, 1}, {22, 1}, {23, 1}, {24, 2},
};
#define ROW_LENGTH (sizeof ROW_FIELDS / sizeof ROW_FIELDS[0])

/* What a frame can show; journalfile.ISSUES words each. */
enum { ALTERED = 1, SEQUENCE = 2, UNLINKED = 3, FORGED = 4, TIME_BACK = 5, CLOCK_BACK = 6 };
#define R_BOOT 1 /* a power-up's record: the clock may have been set back while the shoe was off (J-TIME) */
/* With merge, scan() picks no frame of its own for a release intent (R_RELEASE, code 1 or 2) between two picked
 * frames of the same segment that carries the séance, taille, coup and position of the record before it and no
 * card, disposition or condition, as every intent does, and that does not follow another intent so folded: the
 * pick of the frame after it carries the intent's code from PICK_KIND_SHIFT on, and its row's type from
 * RELEASED_SHIFT on (the rules' loop, a million rows fewer). Any other intent is picked, for the rules to judge;
 * two intents in a row, the first folded into the second's pick. */
#define R_RELEASE 11
#define RELEASED_SHIFT 6
#define CODE_AT (BODY_AT + 18)
#define PLACE_AT (BODY_AT + 7)
#define PLACE_SIZE 8
#define PICK_KIND_SHIFT 30 /* a pick: its frame's offset, below 1 GiB, and the intent folded into it */
#define PICK_OFFSET ((1u << PICK_KIND_SHIFT) - 1)

typedef struct {
    int what;
    unsigned long seq;
    Py_ssize_t offset;
    unsigned long before; /* the sequence number before a jump */
} Issue;

typedef struct {
    PyObject_HEAD
    int tagged; /* format 3: a key given, its frames tagged */
    Py_ssize_t frame_size, crc_at;
    SHA256_CTX inner; /* format 3: SHA-256 having absorbed the key XOR ipad (RFC 2104) */
    SHA256_CTX outer; /* and XOR opad */
} Checker;

static uint32_t le32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static PyObject *row_of(const unsigned char *frame) {
    PyObject *row = PyTuple_New(ROW_LENGTH), *value;
    size_t i;
    if (!row)
        return NULL;
    for (i = 0; i < ROW_LENGTH; i++) {
        const unsigned char *at = frame + ROW_FIELDS[i][0];
        switch (ROW_FIELDS[i][1]) {
        case 1: value = PyLong_FromLong(at[0]); break;
        case 2: value = PyLong_FromLong(at[0] | at[1] << 8); break;
        case 4: value = PyLong_FromUnsignedLong(le32(at)); break;
        default: value = PyLong_FromUnsignedLongLong((unsigned long long)le32(at) * 1000 + (at[4] | at[5] << 8));
        }
        if (!value) {
            Py_DECREF(row);
            return NULL;
        }
        PyTuple_SET_ITEM(row, i, value);
    }
    PyObject_GC_UnTrack(row); /* ints only, never in a cycle: millions of rows cost the collector nothing */
    return row;
}

static int Checker_init(Checker *self, PyObject *args, PyObject *kwds) {
    Py_buffer key = {0};
    unsigned char padded[BLOCK], pad[BLOCK];
    int i;
    static char *names[] = {"key", NULL};

    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|z*", names, &key))
        return -1;
    self->tagged = key.buf != NULL;
    self->frame_size = self->tagged ? V3_FRAME_SIZE : FRAME_SIZE;
    self->crc_at = self->tagged ? V3_CRC_AT : CRC_AT;
    if (!self->tagged)
        return 0;
    memset(padded, 0, BLOCK);
    if (key.len > BLOCK)
        SHA256(key.buf, key.len, padded);
    else
        memcpy(padded, key.buf, key.len);
    PyBuffer_Release(&key);
    for (i = 0; i < BLOCK; i++)
        pad[i] = padded[i] ^ 0x36;
    SHA256_Init(&self->inner);
    SHA256_Update(&self->inner, pad, BLOCK);
    for (i = 0; i < BLOCK; i++)
        pad[i] = padded[i] ^ 0x5C;
    SHA256_Init(&self->outer);
    SHA256_Update(&self->outer, pad, BLOCK);
    return 0;
}

typedef struct {
    size_t count, capacity;
    Issue *items;
} Issues;

static int note(Issues *issues, int what, unsigned long seq, Py_ssize_t offset, unsigned long before) {
    if (issues->count == issues->capacity) {
        size_t capacity = issues->capacity ? 2 * issues->capacity : 16;
        Issue *items = realloc(issues->items, capacity * sizeof(Issue));
        if (!items)
            return 0;
        issues->items = items;
        issues->capacity = capacity;
    }
    issues->items[issues->count++] = (Issue){what, seq, offset, before};
    return 1;
}

/* One segment's walk: what scan() is given for it and what it finds. */
typedef struct {
    Py_buffer data;
    Py_ssize_t offset, count;
    unsigned long seq, first_seq, records;
    unsigned long long first_ms, last_ms;
    unsigned char chain[CHAIN_SIZE];
    int broken, failed;
    Issues issues;
    PyObject *picked; /* bytes: the picks (native uint32) of the frames for rows() and the rules' fold */
    uint32_t *wanted; /* the sequence numbers whose chain values are asked, ascending (a checkpoint's) */
    Py_ssize_t n_wanted, next_wanted;
    PyObject *chains; /* bytes: the chain value after each wanted seq, 32 zero bytes where none was reached */
} Walk;

/* The chain value after record seq, for each wanted seq equal to it (wanted ascending, a seq there more than once
 * when checkpoints name it more than once); the wanted seqs before it were not reached. */
static void keep_chain(Walk *walk, unsigned long seq, const unsigned char *chain) {
    while (walk->next_wanted < walk->n_wanted && walk->wanted[walk->next_wanted] < seq)
        walk->next_wanted++;
    while (walk->next_wanted < walk->n_wanted && walk->wanted[walk->next_wanted] == seq)
        memcpy(PyBytes_AS_STRING(walk->chains) + CHAIN_SIZE * walk->next_wanted++, chain, CHAIN_SIZE);
}

/* Walks the whole frames of a segment's data from walk->offset; needs no Python object (runs unlocked). */
static void walk_frames(const Checker *self, Walk *walk, unsigned long long types) {
    const unsigned char *base = walk->data.buf;
    Py_ssize_t end = walk->data.len, offset = walk->offset;
    unsigned long seq = walk->seq;
    uint32_t *selected = (uint32_t *)PyBytes_AS_STRING(walk->picked);
    unsigned char *chain = walk->chain, digest[CHAIN_SIZE];
    Issues *issues = &walk->issues;
    SHA256_CTX hash;
    const Py_ssize_t size = self->frame_size, crc_at = self->crc_at;

    keep_chain(walk, seq, chain); /* a checkpoint at the seq before the segment's first record: its header's */
    while (offset + size <= end) {
        const unsigned char *frame = base + offset;
        unsigned long frame_seq = le32(frame + SEQ_AT);
        unsigned long long ms;
        if (frame[0] != SYNC || frame[1] != BODY_SIZE || libdeflate_crc32(0, frame, crc_at) != le32(frame + crc_at)) {
            if (offset + size == end)
                break; /* torn: judged at the journal's end, or by the next segment's header */
            walk->failed |= !note(issues, ALTERED, seq + 1, offset, seq);
            walk->broken = 1;
            offset += size;
            seq += 1;
            continue;
        }
        if (frame_seq != seq + 1)
            walk->failed |= !note(issues, SEQUENCE, frame_seq, offset, seq);
        if (!walk->broken && memcmp(frame + LINK_AT, chain, LINK_SIZE) != 0) {
            walk->failed |= !note(issues, UNLINKED, frame_seq, offset, seq);
            walk->broken = 1;
        }
        SHA256_Init(&hash);
        SHA256_Update(&hash, chain, CHAIN_SIZE);
        if (self->tagged)
            SHA256_Update(&hash, frame, V3_TAG_AT);
        else
            SHA256_Update(&hash, frame + BODY_AT, BODY_SIZE);
        SHA256_Final(chain, &hash);
        keep_chain(walk, frame_seq, chain);
        if (self->tagged && !walk->broken) {
            hash = self->inner;
            SHA256_Update(&hash, chain, CHAIN_SIZE);
            SHA256_Final(digest, &hash);
            hash = self->outer;
            SHA256_Update(&hash, digest, CHAIN_SIZE);
            SHA256_Final(digest, &hash);
            if (memcmp(digest, frame + V3_TAG_AT, TAG_SIZE) != 0) {
                walk->failed |= !note(issues, FORGED, frame_seq, offset, seq);
                walk->broken = 1;
            }
        }
        ms = (unsigned long long)le32(frame + SECONDS_AT) * 1000 + (frame[MS_AT] | frame[MS_AT + 1] << 8);
        if (!walk->records) {
            walk->first_ms = ms;
            walk->first_seq = frame_seq;
        } else if (ms < walk->last_ms)
            walk->failed |= !note(issues, frame[BODY_AT] == R_BOOT ? CLOCK_BACK : TIME_BACK, frame_seq, offset, seq);
        walk->last_ms = ms;
        seq = frame_seq;
        walk->records++;
        if (frame[BODY_AT] < 64 && types >> frame[BODY_AT] & 1)
            selected[walk->count++] = (uint32_t)offset;
        offset += size;
    }
    walk->offset = offset;
    walk->seq = seq;
}

/* Folds the picked release intents into the picks after them (above), in place; returns how many picks are
 * left. */
static Py_ssize_t fold_intents(const unsigned char *base, uint32_t *picks, Py_ssize_t count, Py_ssize_t size) {
    Py_ssize_t i, n = 0;
    uint32_t kind = 0, before = 0;
    for (i = 0; i < count; i++) {
        uint32_t at = picks[i];
        const unsigned char *frame = base + at;
        int folded = !kind && frame[BODY_AT] == R_RELEASE && i > 0 && i + 1 < count && before + size == at &&
                     picks[i + 1] == at + size && frame[CODE_AT + 1] == 0 &&
                     (frame[CODE_AT] == 1 || frame[CODE_AT] == 2) &&
                     memcmp(frame + PLACE_AT, frame - size + PLACE_AT, PLACE_SIZE) == 0 &&
                     !frame[PLACE_AT + PLACE_SIZE] && !frame[PLACE_AT + PLACE_SIZE + 1] &&
                     !frame[PLACE_AT + PLACE_SIZE + 2];
        before = at;
        if (folded) {
            kind = frame[CODE_AT];
            continue;
        }
        picks[n++] = at | kind << PICK_KIND_SHIFT;
        kind = 0;
    }
    return n;
}

/* The result of a walk, which it empties: (end, seq, chain, broken, records, first_seq, first_ms, last_ms, issues,
 * picks, chains), as scan() says. */
static PyObject *walk_result(Walk *walk) {
    PyObject *list = walk->failed ? PyErr_NoMemory() : PyList_New((Py_ssize_t)walk->issues.count), *result = NULL;
    size_t i;
    for (i = 0; list && i < walk->issues.count; i++) {
        Issue *it = &walk->issues.items[i];
        PyObject *item = Py_BuildValue("(iknk)", it->what, it->seq, it->offset, it->before);
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    free(walk->issues.items);
    walk->issues.items = NULL;
    if (list && _PyBytes_Resize(&walk->picked, walk->count * (Py_ssize_t)sizeof(uint32_t)) == 0) {
        result = Py_BuildValue("(nky#ikkKKNNN)", walk->offset, walk->seq, (const char *)walk->chain,
                               (Py_ssize_t)CHAIN_SIZE, walk->broken, walk->records, walk->first_seq, walk->first_ms,
                               walk->last_ms, list, walk->picked, walk->chains);
        walk->picked = walk->chains = NULL; /* the result holds them */
    } else
        Py_XDECREF(list);
    return result;
}

/* Checker.scan(segments, types, merge=False) checks each segment, given as (data, offset, chain, seq[, wanted]):
 * the whole frames of data from offset, after the chain value and sequence number given; wanted, the sequence
 * numbers (native uint32, ascending) whose chain values are asked (the checkpoints'). Returns a list of results,
 * one a segment: (end, seq, chain, broken, records, first_seq, first_ms, last_ms, issues, picks, chains): the end
 * of the last whole frame that is not torn, the last sequence number and chain value, whether the chain broke, how
 * many frames were accepted, the first one's sequence number, the first and last one's times, the issues as (what,
 * seq, offset, seq before) tuples, the picks (native uint32): the offsets of the accepted frames whose type's bit
 * is set in types, with merge the release intents folded (above), for rows() and the rules' fold; the chain value
 * after each wanted seq (32 bytes each; for the seq given, the chain given; zeros where the walk did not reach
 * it). A frame that fails its CRC with more bytes after it is an altered record: skipped, counted as one sequence
 * number; as the last frame it is a torn tail, where the walk stops. All the segments are walked without Python's
 * lock, taken once a call: a thread that scans a few segments a call leaves the lock to the thread that folds the
 * rows.
 */
static PyObject *Checker_scan(Checker *self, PyObject *args) {
    PyObject *segments, *results = NULL;
    unsigned long long types;
    Py_ssize_t n, i, ready = 0;
    int merge = 0;
    Walk *walks;

    if (!PyArg_ParseTuple(args, "O!K|p", &PyList_Type, &segments, &types, &merge))
        return NULL;
    n = PyList_GET_SIZE(segments);
    walks = PyMem_Calloc(n ? n : 1, sizeof(Walk));
    if (!walks)
        return PyErr_NoMemory();
    for (; ready < n; ready++) {
        Walk *walk = &walks[ready];
        Py_buffer chain, wanted = {0};
        Py_ssize_t frames;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(segments, ready),
                              "y*ny*k|y*;a segment is (data, offset, chain, seq[, wanted seqs])",
                              &walk->data, &walk->offset, &chain, &walk->seq, &wanted))
            goto done;
        if (chain.len != CHAIN_SIZE || walk->offset < 0 || walk->data.len > (Py_ssize_t)PICK_OFFSET) {
            PyBuffer_Release(&chain);
            PyBuffer_Release(&walk->data);
            if (wanted.buf)
                PyBuffer_Release(&wanted);
            PyErr_SetString(PyExc_ValueError, "a chain value is 32 bytes, an offset not negative, a segment under 1 GiB");
            goto done;
        }
        memcpy(walk->chain, chain.buf, CHAIN_SIZE);
        PyBuffer_Release(&chain);
        walk->n_wanted = wanted.buf ? wanted.len / (Py_ssize_t)sizeof(uint32_t) : 0;
        walk->wanted = walk->n_wanted ? malloc(walk->n_wanted * sizeof(uint32_t)) : NULL;
        if (walk->wanted)
            memcpy(walk->wanted, wanted.buf, walk->n_wanted * sizeof(uint32_t));
        if (wanted.buf)
            PyBuffer_Release(&wanted);
        walk->chains = PyBytes_FromStringAndSize(NULL, walk->n_wanted * CHAIN_SIZE); /* not shared yet */
        if (!walk->chains || (walk->n_wanted && !walk->wanted)) {
            ready++; /* its data released, its chains and wanted freed below */
            PyErr_NoMemory();
            goto done;
        }
        memset(PyBytes_AS_STRING(walk->chains), 0, walk->n_wanted * CHAIN_SIZE);
        frames = walk->offset < walk->data.len ? (walk->data.len - walk->offset) / self->frame_size : 0;
        walk->picked = PyBytes_FromStringAndSize(NULL, frames * (Py_ssize_t)sizeof(uint32_t)); /* not shared yet */
        if (!walk->picked) {
            ready++; /* its data released, its chains and wanted freed below */
            goto done;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    for (i = 0; i < n; i++) {
        walk_frames(self, &walks[i], types);
        if (merge)
            walks[i].count = fold_intents(walks[i].data.buf, (uint32_t *)PyBytes_AS_STRING(walks[i].picked),
                                          walks[i].count, self->frame_size);
    }
    Py_END_ALLOW_THREADS
    results = PyList_New(n);
    for (i = 0; results && i < n; i++) {
        PyObject *result = walk_result(&walks[i]);
        if (!result)
            Py_CLEAR(results);
        else
            PyList_SET_ITEM(results, i, result);
    }
done:
    for (i = 0; i < ready; i++) {
        PyBuffer_Release(&walks[i].data);
        Py_XDECREF(walks[i].picked);
        Py_XDECREF(walks[i].chains);
        free(walks[i].wanted);
        free(walks[i].issues.items);
    }
    PyMem_Free(walks);
    return results;
}

/* rows(data, picks, frame_size): the rows (tuples, above) of the frames of data scan() picked, a folded intent's
 * code in its row's type from RELEASED_SHIFT on. Apart from scan, so that the worker threads that scan need
 * Python's lock for a moment only: the thread that reads the rows builds them. */
static PyObject *frames_rows(PyObject *module, PyObject *args) {
    Py_buffer data, picked;
    PyObject *rows = NULL;
    Py_ssize_t i, count;
    Py_ssize_t size = FRAME_SIZE;
    const uint32_t *picks;
    (void)module;

    if (!PyArg_ParseTuple(args, "y*y*|n", &data, &picked, &size))
        return NULL;
    picks = (const uint32_t *)picked.buf;
    count = picked.len / (Py_ssize_t)sizeof(uint32_t);
    for (i = 0; i < count; i++)
        if ((Py_ssize_t)(picks[i] & PICK_OFFSET) + size > data.len)
            break;
    if (i < count)
        PyErr_SetString(PyExc_ValueError, "an offset past the data's last frame");
    else
        rows = PyList_New(count);
    for (i = 0; rows && i < count; i++) {
        const unsigned char *frame = (const unsigned char *)data.buf + (picks[i] & PICK_OFFSET);
        long kind = picks[i] >> PICK_KIND_SHIFT;
        PyObject *row = row_of(frame);
        if (row && kind) {
            PyObject *type = PyLong_FromLong(frame[BODY_AT] | kind << RELEASED_SHIFT);
            if (!type)
                Py_CLEAR(row);
            else {
                Py_DECREF(PyTuple_GET_ITEM(row, 1));
                PyTuple_SET_ITEM(row, 1, type);
            }
        }
        if (!row) {
            Py_CLEAR(rows);
            break;
        }
        PyList_SET_ITEM(rows, i, row);
    }
    PyBuffer_Release(&data);
    PyBuffer_Release(&picked);
    return rows;
}

/* The checkpoint file's entries (firmware/checkpoints.py, docs/journal-format.md "Checkpoints"): a million cards
 * make some 200,000, which one by one in Python cost twice the journal's hashing. Versions 2 and 3 (journal format
 * 5) hold the SHA-256 of the entry before it, whole, after the chain value; version 1 (format 4) did not. Version 3
 * is signed by the element's internal-sign key over the chip's own message (sabot/attested.py): its RandOut and
 * configuration bytes between the signed bytes and R || S. */
#define ENTRY_VERSION 3
#define ENTRY_PREVIOUS_AT 48
#define ENTRY_RAND_AT 80 /* version 3 */
#define ENTRY_CHIP_AT 112
#define ENTRY_SIGNATURE_AT 117
#define ENTRY_CRC_AT 181
#define ENTRY_SIZE 185
#define V2_ENTRY_SIZE 148
#define V2_ENTRY_SIGNED 80 /* the bytes its signature covers, after the label; R || S after them */
#define V2_ENTRY_CRC_AT 144
#define V1_ENTRY_SIZE 116
#define V1_ENTRY_SIGNED 48
#define V1_ENTRY_CRC_AT 112
/* Each version's size, signed bytes (after the label), R || S's offset, CRC's offset: index the version. */
static const Py_ssize_t ENTRY_GEOMETRY[4][4] = {
    {0, 0, 0, 0}, {V1_ENTRY_SIZE, V1_ENTRY_SIGNED, V1_ENTRY_SIGNED, V1_ENTRY_CRC_AT},
    {V2_ENTRY_SIZE, V2_ENTRY_SIGNED, V2_ENTRY_SIGNED, V2_ENTRY_CRC_AT}, {ENTRY_SIZE, 80, ENTRY_SIGNATURE_AT, ENTRY_CRC_AT}};
#define ENTRY_BEGUN 6 /* a reason: a new journal begun, its seq going back */
#define ENTRY_COUP_END 3 /* a reason: a coup's end, whose counter is its opening's when it follows it */
#define ENTRY_OPENING 9
#define ENTRY_SABOT_AT 2
#define ENTRY_COUNTER_AT 4
#define ENTRY_SEGMENT_AT 8
#define ENTRY_SEQ_AT 12
#define ENTRY_CHAIN_AT 16
#define LABEL "sabot checkpoint" /* and its NUL: 17 bytes */
static const unsigned char NO_CHAIN[CHAIN_SIZE]; /* zeros */

/* entries(data, version=2): (count, in_line, segments, seqs, chains) of the whole entries of a checkpoint file's
 * data: in_line, how many from the first are in line: intact (their version, their CRC-32), of the first one's
 * sabot, each counter the one before it plus one (a coup's end right after its opening: the same), each (version 2)
 * holding the SHA-256 of the one before it, none
 * going back in segment or seq, none beginning a journal, none naming 32 zero bytes (what scan() gives a seq it did
 * not reach); the segment and seq (native uint32) and the chain value (32 bytes) each entry names. What is not in
 * line, sabot.checkpoints reads one entry at a time and says: any counter that skips a value, even one the shoe's
 * R_ELEMENT records explain, drops to that entry-by-entry path, which alone weighs the explanations. */
static PyObject *frames_entries(PyObject *module, PyObject *args) {
    Py_buffer data;
    PyObject *segments = NULL, *seqs = NULL, *chains = NULL, *result = NULL;
    Py_ssize_t count, i, in_line, size, crc_at;
    int version = ENTRY_VERSION;
    unsigned char before[CHAIN_SIZE];
    (void)module;

    if (!PyArg_ParseTuple(args, "y*|i", &data, &version))
        return NULL;
    if (version < 1 || version > ENTRY_VERSION) {
        PyBuffer_Release(&data);
        PyErr_SetString(PyExc_ValueError, "checkpoint entries of version 1, 2 or 3");
        return NULL;
    }
    size = ENTRY_GEOMETRY[version][0];
    crc_at = ENTRY_GEOMETRY[version][3];
    count = data.len / size;
    segments = PyBytes_FromStringAndSize(NULL, count * (Py_ssize_t)sizeof(uint32_t));
    seqs = PyBytes_FromStringAndSize(NULL, count * (Py_ssize_t)sizeof(uint32_t));
    chains = PyBytes_FromStringAndSize(NULL, count * CHAIN_SIZE);
    if (segments && seqs && chains) {
        const unsigned char *entry = data.buf;
        uint32_t *segment = (uint32_t *)PyBytes_AS_STRING(segments), *seq = (uint32_t *)PyBytes_AS_STRING(seqs);
        in_line = count;
        for (i = 0; i < count; i++, entry += size) {
            segment[i] = le32(entry + ENTRY_SEGMENT_AT);
            seq[i] = le32(entry + ENTRY_SEQ_AT);
            memcpy(PyBytes_AS_STRING(chains) + i * CHAIN_SIZE, entry + ENTRY_CHAIN_AT, CHAIN_SIZE);
            if (in_line != count)
                continue;
            if (version != 1 && i > 0) { /* SHA256() fetches its digest through EVP at each call: 0.7 us more */
                SHA256_CTX hash;
                SHA256_Init(&hash);
                SHA256_Update(&hash, entry - size, (size_t)size);
                SHA256_Final(before, &hash);
            }
            if (entry[0] != version || entry[1] == ENTRY_BEGUN ||
                memcmp(entry + ENTRY_CHAIN_AT, NO_CHAIN, CHAIN_SIZE) == 0 ||
                libdeflate_crc32(0, entry, (size_t)crc_at) != le32(entry + crc_at) ||
                (i > 0 && (memcmp(entry + ENTRY_SABOT_AT, (const unsigned char *)data.buf + ENTRY_SABOT_AT, 2) != 0 ||
                           le32(entry + ENTRY_COUNTER_AT) != le32(entry - size + ENTRY_COUNTER_AT) +
                               !(version != 1 && entry[1] == ENTRY_COUP_END && entry[1 - size] == ENTRY_OPENING) ||
                           segment[i] < segment[i - 1] || seq[i] < seq[i - 1] ||
                           (version != 1 && memcmp(entry + ENTRY_PREVIOUS_AT, before, CHAIN_SIZE) != 0))))
                in_line = i;
        }
        result = Py_BuildValue("(nnOOO)", count, in_line, segments, seqs, chains);
    }
    Py_XDECREF(segments);
    Py_XDECREF(seqs);
    Py_XDECREF(chains);
    PyBuffer_Release(&data);
    return result;
}

/* PublicKey(xy, precomputed=False): a shoe's element's public key Q (X || Y, 64 bytes; ValueError when it is not a
 * point of P-256). Its unsigned(data, version, first, end) gives the indexes from first to end (not included) of
 * the whole entries of a checkpoint file's data whose ECDSA P-256 signature (R || S) is not Q's over
 * SHA-256(label NUL || the entry's signed bytes), as bytes of native uint32: checked with OpenSSL's libcrypto,
 * without the GIL, so that sabot.checkpoints checks a million cards' 390,000 signatures in a thread a core.
 *
 * The verification is ECDSA's (SEC 1 v2, 4.1.4) with OpenSSL's own steps (ossl_ecdsa_simple_verify_sig): R and S
 * in [1, n - 1], w = S^-1 mod n, u1 = digest w and u2 = R w mod n, the point u1 G + u2 Q not at infinity and its
 * x mod n equal to R. Three things make it cost a quarter of ECDSA_do_verify's 87 us (measured here):
 * - precomputed: Q's multiples computed once, OpenSSL's table for the generator of a copy of P-256 whose generator
 *   is Q (some 35 ms and 150 KB), so that u2 Q costs what u1 G does (10 us, against some 55 for Q's windows made
 *   at each signature); the two points added. Worth it past a thousand entries (sabot.checkpoints chooses).
 * - a batch's S inverted at once (Montgomery's trick: one inversion, 22 us with BN_mod_inverse, and three
 *   multiplications a signature);
 * - x compared in Jacobian coordinates, X = x Z^2 with x = R or R + n (the x whose value mod n is R, below p),
 *   without the field inversion that affine coordinates take (9 us).
 * 23 us a signature precomputed, 65 without. sabot.element checks one with pyca/cryptography; tests hold the two
 * together, over bad signatures of every kind and a point whose x is n or more. */
typedef struct {
    PyObject_HEAD
    EC_GROUP *curve; /* P-256, its generator G */
    EC_GROUP *keyed; /* P-256 whose generator is Q, its multiples precomputed; NULL without */
    EC_POINT *q;
    BIGNUM *p; /* the field's prime */
} PublicKey;

#define BATCH 64 /* signatures whose S are inverted together */

static int PublicKey_made(PublicKey *self, const unsigned char *point, int precomputed) {
    BN_CTX *ctx = BN_CTX_new();
    int ok = ctx && (self->curve = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1)) &&
             (self->q = EC_POINT_new(self->curve)) && (self->p = BN_new()) &&
             EC_GROUP_get_curve(self->curve, self->p, NULL, NULL, ctx) &&
             EC_POINT_oct2point(self->curve, self->q, point, 65, ctx); /* on the curve, never at infinity */
    if (ok && precomputed)
        ok = (self->keyed = EC_GROUP_dup(self->curve)) &&
             EC_GROUP_set_generator(self->keyed, self->q, EC_GROUP_get0_order(self->curve),
                                    EC_GROUP_get0_cofactor(self->curve)) &&
             EC_GROUP_precompute_mult(self->keyed, ctx);
    BN_CTX_free(ctx);
    return ok;
}

static int PublicKey_init(PublicKey *self, PyObject *args, PyObject *kwds) {
    Py_buffer xy;
    int precomputed = 0, ok;
    unsigned char point[65];
    static char *names[] = {"xy", "precomputed", NULL};

    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*|p", names, &xy, &precomputed))
        return -1;
    ok = xy.len == 64 && !self->curve;
    if (ok) {
        point[0] = 4; /* uncompressed */
        memcpy(point + 1, xy.buf, 64);
    }
    PyBuffer_Release(&xy);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "PublicKey(X || Y, 64 bytes, precomputed=False), made once");
        return -1;
    }
    Py_BEGIN_ALLOW_THREADS
    ok = PublicKey_made(self, point, precomputed);
    Py_END_ALLOW_THREADS
    if (!ok) {
        ERR_clear_error();
        PyErr_SetString(PyExc_ValueError, "not a point of P-256");
        return -1;
    }
    return 0;
}

static void PublicKey_dealloc(PublicKey *self) {
    EC_POINT_free(self->q);
    EC_GROUP_free(self->keyed);
    EC_GROUP_free(self->curve);
    BN_free(self->p);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Whether x mod n is r, for the x of the point given in Jacobian coordinates X, Z (not at infinity): X = x Z^2 mod
 * p, x being r or r + n, both below p (p < 2n). 1, 0, or -1 when OpenSSL fails. */
static int x_is(const PublicKey *key, const BIGNUM *r, const BIGNUM *X, BIGNUM *Z, BIGNUM *t, BN_CTX *ctx) {
    if (!BN_mod_sqr(Z, Z, key->p, ctx) || !BN_mod_mul(t, r, Z, key->p, ctx))
        return -1;
    if (BN_cmp(t, X) == 0)
        return 1;
    if (!BN_add(t, r, EC_GROUP_get0_order(key->curve)))
        return -1;
    if (BN_cmp(t, key->p) >= 0)
        return 0;
    return BN_mod_mul(t, t, Z, key->p, ctx) ? BN_cmp(t, X) == 0 : -1;
}

/* Whether the signature r (w the inverse of its s) is Q's over the digest: 1, 0, or -1 when OpenSSL fails. sum is
 * a point of key->curve, other of key->keyed (NULL without). */
static int verified(const PublicKey *key, const unsigned char *digest, const BIGNUM *r, const BIGNUM *w,
                    EC_POINT *sum, EC_POINT *other, BN_CTX *ctx) {
    const BIGNUM *n = EC_GROUP_get0_order(key->curve);
    BIGNUM *u1, *u2, *X, *Z;
    int ok = -1;

    BN_CTX_start(ctx);
    u1 = BN_CTX_get(ctx);
    u2 = BN_CTX_get(ctx);
    X = BN_CTX_get(ctx);
    Z = BN_CTX_get(ctx);
    if (Z && BN_bin2bn(digest, CHAIN_SIZE, u1) && BN_mod_mul(u1, u1, w, n, ctx) && BN_mod_mul(u2, r, w, n, ctx) &&
        (key->keyed ? EC_POINT_mul(key->curve, sum, u1, NULL, NULL, ctx) &&
                          EC_POINT_mul(key->keyed, other, u2, NULL, NULL, ctx) &&
                          EC_POINT_add(key->curve, sum, sum, other, ctx)
                    : EC_POINT_mul(key->curve, sum, u1, key->q, u2, ctx))) {
        if (EC_POINT_is_at_infinity(key->curve, sum))
            ok = 0;
        else if (EC_POINT_get_Jprojective_coordinates_GFp(key->curve, sum, X, NULL, Z, ctx))
            ok = x_is(key, r, X, Z, u2, ctx);
    }
    BN_CTX_end(ctx);
    return ok;
}

static int in_range(const BIGNUM *v, const BIGNUM *n) { return !BN_is_zero(v) && BN_ucmp(v, n) < 0; }

static void sha256(const unsigned char *data, size_t size, unsigned char *digest) {
    SHA256_CTX hash;
    SHA256_Init(&hash);
    SHA256_Update(&hash, data, size);
    SHA256_Final(digest, &hash);
}

/* What a version 3 entry's signature is over: the chip's message around its TempKey, from vouched (the entry's
 * digest), its counter, RandOut and configuration bytes, as cryptoauthlib's atcah_nonce, atcah_gen_dig and
 * atcah_sign_internal_msg build them (sabot/attested.py says each byte). */
static void attested_digest(const unsigned char *entry, const unsigned char *vouched, unsigned char *digest) {
    unsigned char nonce[32 + 20 + 3], gendig[96], message[55];
    memcpy(nonce, entry + ENTRY_RAND_AT, 32);
    memcpy(nonce + 32, vouched, 20);
    nonce[52] = 0x16; /* Nonce, mode 0 (the seed updated), 0 */
    nonce[53] = nonce[54] = 0;
    memset(gendig, 0, sizeof gendig);
    gendig[32] = 0x15; /* GenDig, zone 4 (a counter), counter 0 */
    gendig[33] = 0x04;
    gendig[36] = 0xEE; /* SN[8], SN[0], SN[1] */
    gendig[37] = 0x01;
    gendig[38] = 0x23;
    memcpy(gendig + 40, entry + ENTRY_COUNTER_AT, 4); /* little-endian, as the chip folds it in */
    sha256(nonce, sizeof nonce, gendig + 64);
    memset(message, 0, sizeof message);
    sha256(gendig, sizeof gendig, message);
    message[32] = 0x41; /* Sign, internal, slot 1 */
    message[34] = 1;
    memcpy(message + 36, entry + ENTRY_CHIP_AT, 4); /* SlotConfig[0], KeyConfig[0] */
    message[43] = 0xEE;
    message[48] = 0x01;
    message[49] = 0x23;
    message[52] = entry[ENTRY_CHIP_AT + 4]; /* slot 0 not locked */
    sha256(message, sizeof message, digest);
}

/* The indexes of the entries from first to end whose signature is not Q's, appended to failed (*bad of them): 0,
 * or -1 when OpenSSL fails. Without the GIL. */
static int unsigned_in(const PublicKey *key, const unsigned char *data, int version, Py_ssize_t first,
                       Py_ssize_t end, uint32_t *failed, Py_ssize_t *bad) {
    const Py_ssize_t size = ENTRY_GEOMETRY[version][0];
    const Py_ssize_t signed_size = ENTRY_GEOMETRY[version][1];
    const Py_ssize_t at = ENTRY_GEOMETRY[version][2];
    const BIGNUM *n = EC_GROUP_get0_order(key->curve);
    BN_CTX *ctx = BN_CTX_new();
    EC_POINT *sum = EC_POINT_new(key->curve), *other = key->keyed ? EC_POINT_new(key->keyed) : NULL;
    BIGNUM *r[BATCH], *s[BATCH], *before[BATCH], *inverse = NULL, *w = NULL;
    signed char good[BATCH];
    Py_ssize_t from, count, k;
    int status = -1;

    if (!ctx || !sum || (key->keyed && !other))
        goto done;
    BN_CTX_start(ctx);
    for (k = 0; k < BATCH; k++) {
        r[k] = BN_CTX_get(ctx);
        s[k] = BN_CTX_get(ctx);
        before[k] = BN_CTX_get(ctx);
    }
    inverse = BN_CTX_get(ctx);
    w = BN_CTX_get(ctx);
    for (from = first; w && from < end; from += count) {
        count = end - from < BATCH ? end - from : BATCH;
        if (!BN_one(inverse))
            goto end;
        for (k = 0; k < count; k++) { /* before[k]: the product of the S in range before k's */
            const unsigned char *signature = data + (from + k) * size + at;
            if (!BN_bin2bn(signature, 32, r[k]) || !BN_bin2bn(signature + 32, 32, s[k]) || !BN_copy(before[k], inverse))
                goto end;
            good[k] = in_range(r[k], n) && in_range(s[k], n);
            if (good[k] && !BN_mod_mul(inverse, inverse, s[k], n, ctx))
                goto end;
        }
        if (!BN_mod_inverse(w, inverse, n, ctx) || !BN_copy(inverse, w))
            goto end;
        for (k = count - 1; k >= 0; k--) { /* inverse: that of the product of the S in range up to k's */
            const unsigned char *entry = data + (from + k) * size;
            unsigned char digest[CHAIN_SIZE];
            SHA256_CTX hash;
            if (!good[k])
                continue;
            if (!BN_mod_mul(w, inverse, before[k], n, ctx) || !BN_mod_mul(inverse, inverse, s[k], n, ctx))
                goto end;
            SHA256_Init(&hash);
            SHA256_Update(&hash, LABEL, sizeof LABEL); /* its NUL included */
            SHA256_Update(&hash, entry, (size_t)signed_size);
            SHA256_Final(digest, &hash);
            if (version == ENTRY_VERSION)
                attested_digest(entry, digest, digest);
            good[k] = (signed char)verified(key, digest, r[k], w, sum, other, ctx);
            if (good[k] < 0)
                goto end;
        }
        for (k = 0; k < count; k++)
            if (!good[k])
                failed[(*bad)++] = (uint32_t)(from + k);
    }
    status = w ? 0 : -1;
end:
    BN_CTX_end(ctx);
done:
    if (status < 0)
        ERR_clear_error();
    EC_POINT_free(other);
    EC_POINT_free(sum);
    BN_CTX_free(ctx);
    return status;
}

static PyObject *PublicKey_unsigned(PublicKey *self, PyObject *args) {
    Py_buffer data;
    Py_ssize_t first, end, bad = 0;
    int version, status;
    uint32_t *failed = NULL;
    PyObject *result = NULL;

    if (!PyArg_ParseTuple(args, "y*inn", &data, &version, &first, &end))
        return NULL;
    if (!self->curve || version < 1 || version > ENTRY_VERSION || first < 0 || first > end ||
        end > data.len / ENTRY_GEOMETRY[version][0]) {
        PyErr_SetString(PyExc_ValueError, "unsigned(data, version 1, 2 or 3, first, end), of a PublicKey made");
        goto done;
    }
    failed = PyMem_Malloc((size_t)(end - first + 1) * sizeof(uint32_t));
    if (!failed) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    status = unsigned_in(self, data.buf, version, first, end, failed, &bad);
    Py_END_ALLOW_THREADS
    if (status < 0)
        PyErr_SetString(PyExc_MemoryError, "OpenSSL failed while checking the checkpoints' signatures");
    else
        result = PyBytes_FromStringAndSize((const char *)failed, bad * (Py_ssize_t)sizeof(uint32_t));
done:
    PyMem_Free(failed);
    PyBuffer_Release(&data);
    return result;
}

/* A class of this module: its C struct, what it is, how it is made (and freed: NULL when it holds nothing), and its
 * methods. */
#define FRAMES_TYPE(NAME, DOC, INIT, DEALLOC)                                                               \
    {                                                                                                        \
        PyVarObject_HEAD_INIT(NULL, 0) .tp_name = "sabot._frames." #NAME, .tp_basicsize = sizeof(NAME),      \
        .tp_flags = Py_TPFLAGS_DEFAULT, .tp_doc = DOC, .tp_new = PyType_GenericNew,                          \
        .tp_init = (initproc)INIT, .tp_dealloc = DEALLOC, .tp_methods = NAME##_methods,                      \
    }

static PyMethodDef PublicKey_methods[] = {
    {"unsigned", (PyCFunction)PublicKey_unsigned, METH_VARARGS,
     "unsigned(data, version, first, end): the entries from first to end whose signature is not this key's."},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef Checker_methods[] = {
    {"scan", (PyCFunction)Checker_scan, METH_VARARGS, "scan(segments, types, merge=False): their frames, checked unlocked."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CheckerType = FRAMES_TYPE(
    Checker, "Checker(key=None): checks format 4's journal frames, or format 3's under a shoe's key.", Checker_init,
    NULL);
static PyTypeObject PublicKeyType = FRAMES_TYPE(
    PublicKey, "PublicKey(xy, precomputed=False): an element's P-256 key, which checks checkpoint entries' signatures.",
    PublicKey_init, (destructor)PublicKey_dealloc);

static PyMethodDef frames_functions[] = {
    {"entries", frames_entries, METH_VARARGS, "entries(data, version=2): a checkpoint file's entries, how many in line."},
    {"rows", frames_rows, METH_VARARGS, "rows(data, picks, frame_size=38): the rows of the frames scan() picked."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef frames_module = {
    PyModuleDef_HEAD_INIT, .m_name = "_frames", .m_doc = "Journal frames' integrity, checked in C (J-TAMPER).",
    .m_size = -1, .m_methods = frames_functions,
};

PyMODINIT_FUNC PyInit__frames(void) {
    PyObject *module;
    if (PyType_Ready(&CheckerType) < 0 || PyType_Ready(&PublicKeyType) < 0)
        return NULL;
    module = PyModule_Create(&frames_module);
    if (!module)
        return NULL;
    Py_INCREF(&CheckerType);
    Py_INCREF(&PublicKeyType);
    /* The layout compiled in, which the tests hold to firmware/journal.py's. */
    if (PyModule_AddObject(module, "Checker", (PyObject *)&CheckerType) < 0 ||
        PyModule_AddObject(module, "PublicKey", (PyObject *)&PublicKeyType) < 0 ||
        PyModule_AddIntConstant(module, "SYNC", SYNC) < 0 || PyModule_AddIntConstant(module, "BODY_SIZE", BODY_SIZE) < 0 ||
        PyModule_AddIntConstant(module, "SEQ_AT", SEQ_AT) < 0 || PyModule_AddIntConstant(module, "BODY_AT", BODY_AT) < 0 ||
        PyModule_AddIntConstant(module, "LINK_AT", LINK_AT) < 0 || PyModule_AddIntConstant(module, "CRC_AT", CRC_AT) < 0 ||
        PyModule_AddIntConstant(module, "FRAME_SIZE", FRAME_SIZE) < 0 ||
        PyModule_AddIntConstant(module, "V3_TAG_AT", V3_TAG_AT) < 0 ||
        PyModule_AddIntConstant(module, "V3_CRC_AT", V3_CRC_AT) < 0 ||
        PyModule_AddIntConstant(module, "V3_FRAME_SIZE", V3_FRAME_SIZE) < 0 ||
        PyModule_AddIntConstant(module, "LINK_SIZE", LINK_SIZE) < 0 ||
        PyModule_AddIntConstant(module, "TAG_SIZE", TAG_SIZE) < 0 ||
        PyModule_AddIntConstant(module, "ALTERED", ALTERED) < 0 ||
        PyModule_AddIntConstant(module, "SEQUENCE", SEQUENCE) < 0 ||
        PyModule_AddIntConstant(module, "UNLINKED", UNLINKED) < 0 || PyModule_AddIntConstant(module, "FORGED", FORGED) < 0 ||
        PyModule_AddIntConstant(module, "TIME_BACK", TIME_BACK) < 0 ||
        PyModule_AddIntConstant(module, "CLOCK_BACK", CLOCK_BACK) < 0 ||
        PyModule_AddIntConstant(module, "RELEASED_SHIFT", RELEASED_SHIFT) < 0 ||
        PyModule_AddIntConstant(module, "PICK_KIND_SHIFT", PICK_KIND_SHIFT) < 0 ||
        PyModule_AddIntConstant(module, "ENTRY_SIZE", ENTRY_SIZE) < 0 ||
        PyModule_AddIntConstant(module, "ENTRY_CRC_AT", ENTRY_CRC_AT) < 0 ||
        PyModule_AddIntConstant(module, "ENTRY_CHAIN_AT", ENTRY_CHAIN_AT) < 0 ||
        PyModule_AddIntConstant(module, "ENTRY_PREVIOUS_AT", ENTRY_PREVIOUS_AT) < 0 ||
        PyModule_AddIntConstant(module, "V1_ENTRY_SIZE", V1_ENTRY_SIZE) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
