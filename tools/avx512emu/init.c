/*
 * Minimal PID 1 for the Bochs AVX-512 runner.
 *
 * - mounts /dev (devtmpfs), /proc, /sys, /tmp
 * - logs the guest's AVX-512 cpuinfo flags to the console (COM1)
 * - runs /test with the NUL-separated arguments from /args and the
 *   NUL-separated KEY=VALUE environment from /env; the program's
 *   stdout+stderr go to /dev/ttyS1 (COM2) in raw mode so the host
 *   gets a byte-exact copy of them
 * - prints "AVX512EMU_EXIT=<n>" or "AVX512EMU_SIGNAL=<n>" on COM1
 * - powers the machine off (ACPI, then Bochs' 0x8900 shutdown port)
 *
 * Build: gcc -static -O2 -o init init.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static FILE *con;

static char **read_nul_list(const char *path, char *first)
{
    size_t cap = 16, n = 0;
    char **v = calloc(cap, sizeof *v);
    if (first) v[n++] = first;
    FILE *f = fopen(path, "r");
    if (f) {
        char *line = NULL;
        size_t len = 0;
        ssize_t r;
        while ((r = getdelim(&line, &len, '\0', f)) > 0) {
            if (n + 2 > cap) { cap *= 2; v = realloc(v, cap * sizeof *v); }
            v[n++] = strdup(line);
        }
        fclose(f);
    }
    v[n] = NULL;
    return v;
}

static void log_cpu_flags(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    if (!f) { fprintf(con, "AVX512EMU_INFO cannot open /proc/cpuinfo\n"); return; }
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0)
            fprintf(con, "AVX512EMU_MODEL%s", strchr(line, ':') + 1);
        if (strncmp(line, "flags", 5) == 0) {
            fprintf(con, "AVX512EMU_FLAGS");
            for (char *t = strtok(strchr(line, ':') + 1, " \n"); t; t = strtok(NULL, " \n"))
                if (strstr(t, "avx") || strstr(t, "vbmi") || strstr(t, "ifma") ||
                    strstr(t, "gfni") || strstr(t, "vaes") || strstr(t, "vpclmul") ||
                    strstr(t, "bitalg") || strstr(t, "vnni"))
                    fprintf(con, " %s", t);
            fprintf(con, "\n");
            break;
        }
    }
    fclose(f);
}

static void power_off(void)
{
    fflush(NULL);
    sync();
    reboot(RB_POWER_OFF);
    /* Fallback: Bochs shutdown port. */
    if (ioperm(0x8900, 1, 1) == 0) {
        const char *s = "Shutdown";
        for (const char *p = s; *p; p++) outb(*p, 0x8900);
    }
    for (;;) pause();
}

int main(void)
{
    mkdir("/dev", 0755); mkdir("/proc", 0755); mkdir("/sys", 0755); mkdir("/tmp", 01777);
    mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
    mount("proc", "/proc", "proc", 0, NULL);
    mount("sysfs", "/sys", "sysfs", 0, NULL);
    mount("tmpfs", "/tmp", "tmpfs", 0, NULL);

    con = fopen("/dev/ttyS0", "w");
    if (!con) con = fopen("/dev/console", "w");
    if (!con) con = stderr;
    setvbuf(con, NULL, _IONBF, 0);

    fprintf(con, "AVX512EMU_INIT started\n");
    log_cpu_flags();

    int out = open("/dev/ttyS1", O_WRONLY | O_NOCTTY);
    if (out >= 0) {
        struct termios t;
        if (tcgetattr(out, &t) == 0) {
            cfmakeraw(&t);
            cfsetospeed(&t, B115200);
            tcsetattr(out, TCSANOW, &t);
        }
    } else {
        fprintf(con, "AVX512EMU_INFO cannot open /dev/ttyS1 (%s), using console\n", strerror(errno));
        out = fileno(con);
    }

    char **argv = read_nul_list("/args", "/test");
    char **envp = read_nul_list("/env", NULL);

    pid_t pid = fork();
    if (pid == 0) {
        int in = open("/dev/null", O_RDONLY);
        dup2(in, 0);
        dup2(out, 1);
        dup2(out, 2);
        chdir("/tmp");
        execve("/test", argv, envp);
        dprintf(2, "avx512emu: execve(/test) failed: %s\n", strerror(errno));
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    if (out != fileno(con)) tcdrain(out);
    if (WIFEXITED(st))
        fprintf(con, "AVX512EMU_EXIT=%d\n", WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        fprintf(con, "AVX512EMU_SIGNAL=%d\n", WTERMSIG(st));
    power_off();
    return 0;
}
