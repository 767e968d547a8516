/* The Python-binding glue the environments' C engines share (Twins' games/twins/_native.c,
 * Twin It's games/twinit/_native.c, Twinz's games/twinz/_native.c): reading a seat,
 * taking the writable buffers encode() fills, building int tuples, and creating the
 * module with its Engine type. Each game keeps its rules, its Engine struct and its
 * methods; only what is the same for every engine lives here.
 *
 * A header of static functions, as mt19937.h is: each extension that includes it gets its
 * own copy. It needs Python.h included first. Built with include_dirs pointing here
 * (setup.py, which also lists it in the engines' depends).
 */
#ifndef TWINTABLE_ENV_GLUE_H
#define TWINTABLE_ENV_GLUE_H

#include <string.h>

/* The seat `arg` names, checked against the table's `players` seats; -1 with
 * ValueError ("no such seat") otherwise. */
static inline int glue_seat(PyObject *arg, int players, int *seat) {
    long value = PyLong_AsLong(arg);
    if (value == -1 && PyErr_Occurred()) return -1;
    if (value < 0 || value >= players) {
        PyErr_SetString(PyExc_ValueError, "no such seat");
        return -1;
    }
    *seat = (int)value;
    return 0;
}

/* A writable, C-contiguous buffer of `size` bytes in struct format `format`; the view is
 * released and -1 returned (ValueError naming `what`) when the source is anything else. */
static inline int glue_writable_buffer(PyObject *source, Py_buffer *view, const char *format,
                                       Py_ssize_t size, const char *what) {
    if (PyObject_GetBuffer(source, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    if (view->len != size || view->format == NULL || strcmp(view->format, format) != 0) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s must be a writable %s buffer of %zd bytes", what,
                     format, size);
        return -1;
    }
    return 0;
}

/* encode(seat, observation, mask)'s arguments: the seat, a float32 observation of
 * `observation_floats` items and an int8 mask of `mask_size` items. On success the caller
 * writes both buffers and releases them; on failure nothing is held. */
static inline int glue_encode_args(PyObject *const *args, Py_ssize_t nargs, int players,
                                   Py_ssize_t observation_floats, Py_ssize_t mask_size,
                                   int *seat, Py_buffer *observation, Py_buffer *mask) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "encode(seat, observation, mask)");
        return -1;
    }
    if (glue_seat(args[0], players, seat) < 0) return -1;
    if (glue_writable_buffer(args[1], observation, "f",
                             (Py_ssize_t)sizeof(float) * observation_floats,
                             "observation") < 0)
        return -1;
    if (glue_writable_buffer(args[2], mask, "b", mask_size, "mask") < 0) {
        PyBuffer_Release(observation);
        return -1;
    }
    return 0;
}

static inline PyObject *glue_int_tuple(const int *items, int count) {
    PyObject *tuple = PyTuple_New(count);
    if (tuple == NULL) return NULL;
    for (int i = 0; i < count; i++) PyTuple_SET_ITEM(tuple, i, PyLong_FromLong(items[i]));
    return tuple;
}

/* The module, with its Engine type readied and added; NULL (module released) on failure.
 * The caller adds the game's own constants. */
static inline PyObject *glue_module_with_engine(struct PyModuleDef *definition,
                                                PyTypeObject *engine_type) {
    if (PyType_Ready(engine_type) < 0) return NULL;
    PyObject *m = PyModule_Create(definition);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "Engine", (PyObject *)engine_type) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

#endif
