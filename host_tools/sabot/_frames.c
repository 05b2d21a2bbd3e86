/* The per-frame integrity checks of `sabot log verify` (J-TAMPER), compiled: framing, CRC-32, the SHA-256
 * chain, the HMAC-SHA256 tags, sequence continuity and time order over one segment's frames, with OpenSSL
 * hashing and libdeflate computing the CRCs (zlib takes 186 ns for a frame's, libdeflate 22, measured here).
 * A million cards are some 2.3 million records: checked one by one in Python, the interpreter's overhead was
 * a hundred times the hashing's. Segments are checked apart (each header states
 * where its chain starts), without the GIL, so the rules can fold one segment while the next is checked.
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
#define TAG_AT 34
#define CRC_AT 50
#define FRAME_SIZE 54
#define LINK_SIZE 8
#define TAG_SIZE 16
#define CHAIN_SIZE 32
#define BLOCK 64
#define ROW_SIZE 28 /* a row handed to Python: the frame's offset and sequence number, then its body */

/* What a frame can show; journalfile.ISSUES words each. */
enum { ALTERED = 1, SEQUENCE = 2, UNLINKED = 3, FORGED = 4, TIME_BACK = 5 };

typedef struct {
    int what;
    unsigned long seq;
    Py_ssize_t offset;
    unsigned long before; /* the sequence number before a jump */
} Issue;

typedef struct {
    PyObject_HEAD
    SHA256_CTX inner; /* SHA-256 having absorbed the key XOR ipad (RFC 2104) */
    SHA256_CTX outer; /* and XOR opad */
} Checker;

static uint32_t le32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(unsigned char *p, uint32_t v) {
    p[0] = v & 0xFF;
    p[1] = v >> 8 & 0xFF;
    p[2] = v >> 16 & 0xFF;
    p[3] = v >> 24;
}

static int Checker_init(Checker *self, PyObject *args, PyObject *kwds) {
    Py_buffer key;
    unsigned char padded[BLOCK], pad[BLOCK];
    int i;
    static char *names[] = {"key", NULL};

    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*", names, &key))
        return -1;
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

/* Checker.scan(data, offset, chain, seq, types) walks the whole frames of data from offset, given the chain
 * value and sequence number before them. Returns (end, seq, chain, broken, records, first_seq, first_ms,
 * last_ms, issues, rows): the end of the last whole frame that is not torn, the last sequence number and chain
 * value, whether the chain broke, how many frames were accepted, the first one's sequence number, the first and
 * last one's times, the issues as (what, seq, offset, seq before) tuples, and the rows of the accepted frames
 * whose type's bit is set in types (ROW_SIZE bytes each). A frame that fails its CRC with more bytes after it
 * is an altered record: skipped, counted as one sequence number; as the last frame it is a torn tail, where
 * the scan stops.
 */
static PyObject *Checker_scan(Checker *self, PyObject *args) {
    Py_buffer data, start_chain;
    Py_ssize_t offset, end, frames;
    unsigned long seq, first_seq = 0;
    unsigned long long types;
    unsigned char chain[CHAIN_SIZE], digest[CHAIN_SIZE], *row;
    int broken = 0, failed = 0;
    unsigned long records = 0;
    unsigned long long first_ms = 0, last_ms = 0;
    Issues issues = {0, 0, NULL};
    PyObject *rows, *list, *result = NULL;
    size_t i;

    if (!PyArg_ParseTuple(args, "y*ny*kK", &data, &offset, &start_chain, &seq, &types))
        return NULL;
    if (start_chain.len != CHAIN_SIZE || offset < 0) {
        PyBuffer_Release(&data);
        PyBuffer_Release(&start_chain);
        PyErr_SetString(PyExc_ValueError, "a chain value is 32 bytes, an offset not negative");
        return NULL;
    }
    memcpy(chain, start_chain.buf, CHAIN_SIZE);
    PyBuffer_Release(&start_chain);
    end = data.len;
    frames = offset < end ? (end - offset) / FRAME_SIZE : 0;
    rows = PyBytes_FromStringAndSize(NULL, frames * ROW_SIZE); /* not shared until returned: filled unlocked */
    if (!rows) {
        PyBuffer_Release(&data);
        return NULL;
    }
    row = (unsigned char *)PyBytes_AS_STRING(rows);

    Py_BEGIN_ALLOW_THREADS
    const unsigned char *base = data.buf;
    SHA256_CTX hash;
    while (offset + FRAME_SIZE <= end) {
        const unsigned char *frame = base + offset;
        unsigned long frame_seq = le32(frame + SEQ_AT);
        unsigned long long ms;
        if (frame[0] != SYNC || frame[1] != BODY_SIZE || libdeflate_crc32(0, frame, CRC_AT) != le32(frame + CRC_AT)) {
            if (offset + FRAME_SIZE == end)
                break; /* torn: judged at the journal's end, or by the next segment's header */
            failed |= !note(&issues, ALTERED, seq + 1, offset, seq);
            broken = 1;
            offset += FRAME_SIZE;
            seq += 1;
            continue;
        }
        if (frame_seq != seq + 1)
            failed |= !note(&issues, SEQUENCE, frame_seq, offset, seq);
        if (!broken && memcmp(frame + LINK_AT, chain, LINK_SIZE) != 0) {
            failed |= !note(&issues, UNLINKED, frame_seq, offset, seq);
            broken = 1;
        }
        SHA256_Init(&hash);
        SHA256_Update(&hash, chain, CHAIN_SIZE);
        SHA256_Update(&hash, frame, TAG_AT);
        SHA256_Final(chain, &hash);
        if (!broken) {
            hash = self->inner;
            SHA256_Update(&hash, chain, CHAIN_SIZE);
            SHA256_Final(digest, &hash);
            hash = self->outer;
            SHA256_Update(&hash, digest, CHAIN_SIZE);
            SHA256_Final(digest, &hash);
            if (memcmp(digest, frame + TAG_AT, TAG_SIZE) != 0) {
                failed |= !note(&issues, FORGED, frame_seq, offset, seq);
                broken = 1;
            }
        }
        ms = (unsigned long long)le32(frame + SECONDS_AT) * 1000 + (frame[MS_AT] | frame[MS_AT + 1] << 8);
        if (!records) {
            first_ms = ms;
            first_seq = frame_seq;
        } else if (ms < last_ms)
            failed |= !note(&issues, TIME_BACK, frame_seq, offset, seq);
        last_ms = ms;
        seq = frame_seq;
        records++;
        if (frame[BODY_AT] < 64 && types >> frame[BODY_AT] & 1) {
            put32(row, (uint32_t)offset);
            memcpy(row + 4, frame + SEQ_AT, 4 + BODY_SIZE);
            row += ROW_SIZE;
        }
        offset += FRAME_SIZE;
    }
    Py_END_ALLOW_THREADS

    PyBuffer_Release(&data);
    list = failed ? PyErr_NoMemory() : PyList_New((Py_ssize_t)issues.count);
    for (i = 0; list && i < issues.count; i++) {
        Issue *it = &issues.items[i];
        PyObject *item = Py_BuildValue("(iknk)", it->what, it->seq, it->offset, it->before);
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    free(issues.items);
    if (list && _PyBytes_Resize(&rows, row - (unsigned char *)PyBytes_AS_STRING(rows)) == 0)
        result = Py_BuildValue("(nky#ikkKKNN)", offset, seq, (const char *)chain, (Py_ssize_t)CHAIN_SIZE, broken,
                               records, first_seq, first_ms, last_ms, list, rows);
    else {
        Py_XDECREF(list);
        Py_XDECREF(rows);
    }
    return result;
}

static PyMethodDef Checker_methods[] = {
    {"scan", (PyCFunction)Checker_scan, METH_VARARGS, "scan(data, offset, chain, seq, types): one segment's frames."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CheckerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sabot._frames.Checker",
    .tp_basicsize = sizeof(Checker),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Checker(key): checks journal frames under a shoe's key.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Checker_init,
    .tp_methods = Checker_methods,
};

static struct PyModuleDef frames_module = {
    PyModuleDef_HEAD_INIT, .m_name = "_frames", .m_doc = "Journal frames' integrity, checked in C (J-TAMPER).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__frames(void) {
    PyObject *module;
    if (PyType_Ready(&CheckerType) < 0)
        return NULL;
    module = PyModule_Create(&frames_module);
    if (!module)
        return NULL;
    Py_INCREF(&CheckerType);
    /* The layout compiled in, which the tests hold to firmware/journal.py's. */
    if (PyModule_AddObject(module, "Checker", (PyObject *)&CheckerType) < 0 ||
        PyModule_AddIntConstant(module, "SYNC", SYNC) < 0 || PyModule_AddIntConstant(module, "BODY_SIZE", BODY_SIZE) < 0 ||
        PyModule_AddIntConstant(module, "SEQ_AT", SEQ_AT) < 0 || PyModule_AddIntConstant(module, "BODY_AT", BODY_AT) < 0 ||
        PyModule_AddIntConstant(module, "LINK_AT", LINK_AT) < 0 || PyModule_AddIntConstant(module, "TAG_AT", TAG_AT) < 0 ||
        PyModule_AddIntConstant(module, "CRC_AT", CRC_AT) < 0 ||
        PyModule_AddIntConstant(module, "FRAME_SIZE", FRAME_SIZE) < 0 ||
        PyModule_AddIntConstant(module, "LINK_SIZE", LINK_SIZE) < 0 ||
        PyModule_AddIntConstant(module, "TAG_SIZE", TAG_SIZE) < 0 ||
        PyModule_AddIntConstant(module, "ROW_SIZE", ROW_SIZE) < 0 || PyModule_AddIntConstant(module, "ALTERED", ALTERED) < 0 ||
        PyModule_AddIntConstant(module, "SEQUENCE", SEQUENCE) < 0 ||
        PyModule_AddIntConstant(module, "UNLINKED", UNLINKED) < 0 || PyModule_AddIntConstant(module, "FORGED", FORGED) < 0 ||
        PyModule_AddIntConstant(module, "TIME_BACK", TIME_BACK) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
