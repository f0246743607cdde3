/* Checks rep movs{b,q} / rep stosb against byte loops, including overlapping
 * copies (forward, dst < src) at small distances and page crossings, and
 * glibc memmove/memcpy.  Exit 0 = all correct. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>

static void rep_movsb(void *d, const void *s, size_t n) {
    asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}
static void rep_movsq(void *d, const void *s, size_t n) {
    asm volatile("rep movsq" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}
static void rep_stosb(void *d, int c, size_t n) {
    asm volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
}
static void ref_fwd(uint8_t *d, const uint8_t *s, size_t n) { for (size_t i = 0; i < n; i++) d[i] = s[i]; }
static void ref_move(uint8_t *d, const uint8_t *s, size_t n) {
    if (d < s) for (size_t i = 0; i < n; i++) d[i] = s[i];
    else for (size_t i = n; i-- > 0;) d[i] = s[i];
}

enum { SZ = 3 * 4096 + 512 };
static uint8_t *A, *B;
static long fails[8]; static const char *names[8] = {"rep movsb overlap", "rep movsq overlap", "rep movsb disjoint", "rep stosb", "memmove overlap fwd", "memmove overlap bwd", "memcpy disjoint", "rep movsb backward(std)"};

static void fill(uint8_t *p) { for (int i = 0; i < SZ; i++) p[i] = (uint8_t)(i * 131 + 7); }

int main(void) {
    A = mmap(0, SZ + 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    B = mmap(0, SZ + 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    size_t sizes[] = {1, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 100, 255, 256, 511, 1000, 2048, 2049, 4095, 4096, 4097, 5000, 8192};
    size_t offs[] = {0, 1, 8, 4000, 4090};
    for (size_t oi = 0; oi < sizeof offs / sizeof *offs; oi++)
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
    for (size_t dist = 1; dist <= 4200; dist += (dist < 16 ? 1 : dist < 72 ? 7 : 509)) {
        size_t n = sizes[si], o = offs[oi];
        if (o + dist + n > SZ) continue;
        /* forward overlapping copy: dst = src - dist */
        fill(A); fill(B); rep_movsb(A + o, A + o + dist, n); ref_fwd(B + o, B + o + dist, n);
        if (memcmp(A, B, SZ)) fails[0]++;
        fill(A); fill(B); rep_movsq(A + o, A + o + dist, n / 8); ref_fwd(B + o, B + o + dist, (n / 8) * 8);
        if (n >= 8 && dist % 8 == 0 && memcmp(A, B, SZ)) fails[1]++;
        fill(A); fill(B); memmove(A + o, A + o + dist, n); ref_move(B + o, B + o + dist, n);
        if (memcmp(A, B, SZ)) fails[4]++;
        fill(A); fill(B); memmove(A + o + dist, A + o, n); ref_move(B + o + dist, B + o, n);
        if (memcmp(A, B, SZ)) fails[5]++;
        /* backward rep movsb with DF=1 (non-overlapping-safe direction for dst > src) */
        fill(A); fill(B);
        { uint8_t *d = A + o + dist + n - 1, *s = A + o + n - 1; size_t c = n;
          asm volatile("std; rep movsb; cld" : "+D"(d), "+S"(s), "+c"(c) : : "memory"); }
        ref_move(B + o + dist, B + o, n);
        if (memcmp(A, B, SZ)) fails[7]++;
    }
    for (size_t oi = 0; oi < sizeof offs / sizeof *offs; oi++)
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        size_t n = sizes[si], o = offs[oi];
        if (o + n > 4096 + 512) continue;
        fill(A); fill(B); rep_movsb(A + o, B + SZ - n - o % 64, n);
        uint8_t C[SZ]; fill(C); ref_fwd(C + o, B + SZ - n - o % 64, n);
        if (memcmp(A, C, SZ)) fails[2]++;
        fill(A); memcpy(A + o, B + SZ - n - o % 64, n);
        if (memcmp(A, C, SZ)) fails[6]++;
        fill(A); fill(C); rep_stosb(A + o, 0x5a, n); memset(C + o, 0x5a, n);
        for (size_t i = 0; i < n; i++) C[o + i] = 0x5a;
        if (memcmp(A, C, SZ)) fails[3]++;
    }
    /* rcx = 0 must not touch memory; big copies across many pages */
    { fill(A); fill(B); rep_movsb(A + 5, A + 9, 0); rep_movsq(A + 5, A + 9, 0); rep_stosb(A, 1, 0);
      if (memcmp(A, B, SZ)) fails[0]++;
      size_t big = 1 << 20; uint8_t *X = malloc(big + 64), *Y = malloc(big + 64);
      for (size_t i = 0; i < big + 64; i++) X[i] = Y[i] = (uint8_t)(i * 7 + (i >> 9));
      rep_movsb(X, X + 24, big); ref_fwd(Y, Y + 24, big); if (memcmp(X, Y, big + 64)) fails[0]++;
      memmove(X + 40, X, big); ref_move(Y + 40, Y, big); if (memcmp(X, Y, big + 64)) fails[5]++;
      memmove(X, X + 3, big); ref_move(Y, Y + 3, big); if (memcmp(X, Y, big + 64)) fails[4]++; }
    int bad = 0;
    for (int i = 0; i < 8; i++) { printf("%-26s %s (%ld bad cases)\n", names[i], fails[i] ? "FAIL" : "ok", fails[i]); bad |= fails[i] != 0; }
    return bad;
}
