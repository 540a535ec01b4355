/* Minimal self-registering test framework. Each TEST() registers itself at load time; the
 * runner (tests/unit/main.c) runs them all (or those matching argv[1]) and ends with the
 * line "N passed, N failed, N skipped". CHECK* record a failure and continue; REQUIRE* stop
 * the test; SKIP* end it as skipped, saying why.
 * CHECK_EQ is exact: integers compare as integers, and when either operand is a float or
 * double both compare as doubles (no truncation: 2.5 is not 2). A floating value that may
 * differ in its last bits says so with CHECK_NEAR (absolute) or CHECK_REL (relative). */
#ifndef GMS_TEST_H
#define GMS_TEST_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <inttypes.h>

typedef void (*gms_test_fn)(void);
void gms_test_register(const char *name, const char *file, gms_test_fn fn);
void gms_test_fail(const char *file, int line, const char *msg);
int gms_test_quick(void); /* 1 under the sanitizer run: tests may shrink their sizes */
const char *gms_test_bin(void); /* path to the gpumemsim binary for CLI-level tests */
/* The shared directory (design, reference traces): $GMS_SHARED_DIR, else ../shared, which
 * is beside the project root (the tests run from the project root). */
const char *gms_test_shared_dir(void);
/* Ends the current test as skipped (the caller returns). ci_fails: what is missing is
 * something CI provides (a service it starts, the shared reference traces), so with
 * CI=true in the environment the skip counts as a failure instead. */
void gms_test_skip(const char *file, int line, int ci_fails, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Harness self-tests: between begin and end, failures and skips are counted and the last
 * message kept instead of being recorded against the running test. */
int gms_test_count(void); /* tests registered */
void gms_test_capture_begin(void);
void gms_test_capture_end(int *failures, int *skips, char *last_msg, size_t cap);

#define TEST(name)                                                                     \
    static void test_##name(void);                                                     \
    __attribute__((constructor)) static void reg_##name(void)                          \
    { gms_test_register(#name, __FILE__, test_##name); }                                \
    static void test_##name(void)

#define CHECK(c) do { if (!(c)) gms_test_fail(__FILE__, __LINE__, "CHECK(" #c ")"); } while (0)
#define REQUIRE(c) do { if (!(c)) { gms_test_fail(__FILE__, __LINE__, "REQUIRE(" #c ")"); return; } } while (0)
/* 1 when x has a floating type (x is not evaluated) */
#define GMS_IS_FLOATING(x) _Generic((x), float: 1, double: 1, long double: 1, default: 0)
/* x as a double; every branch must compile for any operand type, hence the casts through an
 * integer (a pointer compared with a double still compiles, as it did before) */
#define GMS_AS_DOUBLE(x) _Generic((x), float: (x), double: (x), long double: (x),          \
    unsigned long: (double)(unsigned long long)(x),                                        \
    unsigned long long: (double)(unsigned long long)(x), default: (double)(long long)(x))
#define CHECK_EQ(a, b) do {                                                                \
    if (GMS_IS_FLOATING(a) || GMS_IS_FLOATING(b)) {                                        \
        double _a = GMS_AS_DOUBLE(a), _b = GMS_AS_DOUBLE(b);                               \
        if (!(_a == _b)) { char _m[512];                                                   \
            snprintf(_m, sizeof _m, "%s == %s: %.17g != %.17g", #a, #b, _a, _b);           \
            gms_test_fail(__FILE__, __LINE__, _m); }                                       \
    } else {                                                                               \
        long long _a = (long long)(a), _b = (long long)(b);                                \
        if (_a != _b) { char _m[512];                                                      \
            snprintf(_m, sizeof _m, "%s == %s: %lld != %lld", #a, #b, _a, _b);             \
            gms_test_fail(__FILE__, __LINE__, _m); }                                       \
    } } while (0)
#define CHECK_NEAR(a, b, tol) do { double _a = (double)(a), _b = (double)(b);             \
    if (!(_a - _b <= (tol) && _b - _a <= (tol))) { char _m[512];                        \
    snprintf(_m, sizeof _m, "%s ~= %s: %.9g vs %.9g (tol %g)", #a, #b, _a, _b, (double)(tol)); \
    gms_test_fail(__FILE__, __LINE__, _m); } } while (0)
/* |a - b| <= rel * |b|: b is the expected value */
#define CHECK_REL(a, b, rel) do { double _a = (double)(a), _b = (double)(b);              \
    double _t = (rel) * (_b < 0 ? -_b : _b);                                               \
    if (!(_a - _b <= _t && _b - _a <= _t)) { char _m[512];                                 \
    snprintf(_m, sizeof _m, "%s ~= %s: %.9g vs %.9g (rel %g)", #a, #b, _a, _b, (double)(rel)); \
    gms_test_fail(__FILE__, __LINE__, _m); } } while (0)
#define CHECK_STR(a, b) do { const char *_a = (a), *_b = (b);                             \
    if (!_a || !_b || strcmp(_a, _b)) { char _m[768]; snprintf(_m, sizeof _m, "%s == %s: \"%s\" != \"%s\"", \
    #a, #b, _a ? _a : "(null)", _b ? _b : "(null)"); gms_test_fail(__FILE__, __LINE__, _m); } } while (0)
#define CHECK_CONTAINS(hay, needle) do { const char *_h = (hay), *_n = (needle);          \
    if (!_h || !strstr(_h, _n)) { char _m[1200]; snprintf(_m, sizeof _m, "\"%.900s\" should contain \"%s\"", \
    _h ? _h : "(null)", _n); gms_test_fail(__FILE__, __LINE__, _m); } } while (0)
/* SKIP("why %s", ...): end the test as skipped. SKIP_OR_FAIL_IN_CI: the same, but a failure
 * when CI=true, for what CI provides (see gms_test_skip). Both return from the test. */
#define SKIP(...) do { gms_test_skip(__FILE__, __LINE__, 0, __VA_ARGS__); return; } while (0)
#define SKIP_OR_FAIL_IN_CI(...) do { gms_test_skip(__FILE__, __LINE__, 1, __VA_ARGS__); return; } while (0)

#endif
