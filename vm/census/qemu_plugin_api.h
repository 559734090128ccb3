/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qemu_plugin_api.h - the part of QEMU's TCG plugin API (version 1, as
 * QEMU 7.2 exports it) that census_plugin.c calls. Debian packages no
 * header for it, so the few declarations are written here from the
 * documented API; QEMU resolves the calls when it loads the plugin.
 *
 * Version 1 has no register access and no conditional or per-vCPU
 * inline operations; later versions changed some of these signatures
 * (qemu_plugin_insn_data() among them), so the plugin declares the
 * version it was written against and QEMU refuses it if unsupported.
 */
#ifndef CENSUS_QEMU_PLUGIN_API_H
#define CENSUS_QEMU_PLUGIN_API_H

#include <stddef.h>
#include <stdint.h>

#define CENSUS_QEMU_PLUGIN_API_VERSION	1

/* The symbols QEMU looks up in the plugin must stay visible. */
#define CENSUS_PLUGIN_EXPORT	__attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;

/* Passed to qemu_plugin_install(); its fields are not used here. */
typedef struct qemu_info_t qemu_info_t;

/* What the plugin defines: its API version and its entry point. */
extern CENSUS_PLUGIN_EXPORT int qemu_plugin_version;
CENSUS_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					     const qemu_info_t *info,
					     int argc, char **argv);

/* Opaque handles, valid only during the translation callback. */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

/* What a callback may do with the vCPU's registers: nothing, here. */
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

/* The one inline operation of version 1: *ptr += imm. */
enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
};

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_simple_cb_t)(qemu_plugin_id_t id);

/* Called once per translation block QEMU translates. */
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
/* Called when QEMU exits. */
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);
/*
 * Unregister all of the plugin's callbacks and flush the translated code;
 * cb runs once that is done (asynchronously), to register them again.
 */
void qemu_plugin_reset(qemu_plugin_id_t id, qemu_plugin_simple_cb_t cb);

/* Within a translation callback: the block's instructions. */
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
/* Guest virtual address, bytes and length of an instruction. */
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);

/* Instrumentation of the translated code, at every execution. */
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op,
						void *ptr, uint64_t imm);

/* A line for QEMU's log (-d plugin -D file). */
void qemu_plugin_outs(const char *string);

#endif /* CENSUS_QEMU_PLUGIN_API_H */
