/* Minimal self-registering test framework. Each TEST() registers itself at load time; the
 * runner (tests/unit/main.c) runs them all (or those matching argv[1]) and ends with the
 * line "N passed, N failed". CHECK* record a failure and continue; REQUIRE* stop the test. */
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

#define TEST(name)                                                                     \
    static void test_##name(void);                                                     \
    __attribute__((constructor)) static void reg_##name(void)                          \
    { gms_test_register(#name, __FILE__, test_##name); }                                \
    static void test_##name(void)

#define CHECK(c) do { if (!(c)) gms_test_fail(__FILE__, __LINE__, "CHECK(" #c ")"); } while (0)
#define REQUIRE(c) do { if (!(c)) { gms_test_fail(__FILE__, __LINE__, "REQUIRE(" #c ")"); return; } } while (0)
#define CHECK_EQ(a, b) do { long long _a = (long long)(a), _b = (long long)(b);            \
    if (_a != _b) { char _m[512]; snprintf(_m, sizeof _m, "%s == %s: %lld != %lld", #a, #b, _a, _b); \
    gms_test_fail(__FILE__, __LINE__, _m); } } while (0)
#define CHECK_NEAR(a, b, tol) do { double _a = (double)(a), _b = (double)(b);             \
    if (!(_a - _b <= (tol) && _b - _a <= (tol))) { char _m[512];                        \
    snprintf(_m, sizeof _m, "%s ~= %s: %.9g vs %.9g (tol %g)", #a, #b, _a, _b, (double)(tol)); \
    gms_test_fail(__FILE__, __LINE__, _m); } } while (0)
#define CHECK_STR(a, b) do { const char *_a = (a), *_b = (b);                             \
    if (!_a || !_b || strcmp(_a, _b)) { char _m[768]; snprintf(_m, sizeof _m, "%s == %s: \"%s\" != \"%s\"", \
    #a, #b, _a ? _a : "(null)", _b ? _b : "(null)"); gms_test_fail(__FILE__, __LINE__, _m); } } while (0)
#define CHECK_CONTAINS(hay, needle) do { const char *_h = (hay), *_n = (needle);          \
    if (!_h || !strstr(_h, _n)) { char _m[1200]; snprintf(_m, sizeof _m, "\"%.900s\" should contain \"%s\"", \
    _h ? _h : "(null)", _n); gms_test_fail(__FILE__, __LINE__, _m); } } while (0)

#endif
