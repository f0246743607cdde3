/*
 * insncount: a QEMU TCG plugin that counts the guest instructions a
 * program executes, for instruction-per-byte figures of the aarch64 rungs
 * under qemu-aarch64 (docs/aarch64.md). Debian's QEMU 7.2 runs plugins
 * but ships no header, so the few declarations of its plugin API (version
 * 1, include/qemu/qemu-plugin.h of QEMU 7.2) used here are written out.
 *
 * Each translation block, when translated, gets an inline addition of its
 * instruction count to one counter, executed every time the block runs;
 * the total is written at exit to the file named by `outfile=` (stderr
 * when none). The guest must run one thread: the counter is not atomic.
 *
 *   qemu-aarch64 -plugin ./insncount.so,outfile=count.txt -cpu max prog
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;

enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
                                               struct qemu_plugin_tb *tb);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
                                              enum qemu_plugin_op op,
                                              void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
                                    qemu_plugin_udata_cb_t cb, void *userdata);

#define EXPORT __attribute__((visibility("default")))

EXPORT int qemu_plugin_version = 1;

static uint64_t executed;
static char outfile[4096];

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                             &executed,
                                             qemu_plugin_tb_n_insns(tb));
}

static void write_count(qemu_plugin_id_t id, void *userdata)
{
    (void)id;
    (void)userdata;
    FILE *out = outfile[0] ? fopen(outfile, "w") : stderr;
    if (out == NULL) {
        perror(outfile);
        return;
    }
    fprintf(out, "%" PRIu64 "\n", executed);
    if (out != stderr) {
        fclose(out);
    }
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                               int argc, char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "outfile=", 8) == 0) {
            snprintf(outfile, sizeof outfile, "%s", argv[i] + 8);
        } else {
            fprintf(stderr, "insncount: unknown argument %s (outfile=PATH)\n",
                    argv[i]);
            return -1;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, write_count, NULL);
    return 0;
}
