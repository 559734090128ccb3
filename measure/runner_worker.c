// SPDX-License-Identifier: GPL-2.0
/*
 * runner_worker.c - a repetition in a process of its own (runner.h).
 *
 * What differs between two invocations of a benchmark program is more
 * than chance: where its buffers, stack and heap land (ASLR), which
 * physical pages back them, the files, sockets and pipes it opens, the
 * code a BPF JIT lays out. Repetitions inside one process share all of
 * that, so their spread misses it, and an interval over them is too
 * narrow for a comparison of two invocations. A worker process per
 * repetition, as pyperf does, gives each repetition its own.
 *
 * The parent sizes every benchmark first, then for each repetition
 * starts argv, writes it the schedule on its standard input and reads
 * the raw samples from its standard output, one line each:
 *
 *   parent -> worker              worker -> parent
 *   smapbench-schedule 1          begin SEGMENT
 *   repetition K                  s VALUE ITERATIONS FLAGS REPEATS
 *   bench INDEX ITERATIONS NAME   fail WHY
 *   segment INDEX WARMUP COUNT FIRST
 *   go                            end
 *
 * INDEX is the parent's registry index, NAME finds the benchmark in the
 * worker's own registry. Every sample of a stretch comes back, warm-up
 * included, and the parent keeps them exactly as it would its own
 * (runner_store()).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/runner.h"
#include "measure/runner_internal.h"
#include "measure/spawn.h"

#define SCHEDULE_MAGIC	"smapbench-schedule 1"

/* ------------------------------------------------------ the parent */

/* Writes the schedule; a worker that died early makes it fail, not kill us. */
static int send_schedule(FILE *w, const struct runner_repetition *rep)
{
	const struct registry *r = rep->r;

	fprintf(w, "%s\nrepetition %u\n", SCHEDULE_MAGIC, rep->index);
	for (size_t k = 0; k < rep->nseg; k++) {
		size_t i = rep->seg[k].bench;
		int first = 1;

		for (size_t j = 0; j < k && first; j++)
			first = rep->seg[j].bench != i;
		if (first)
			fprintf(w, "bench %zu %" PRIu64 " %s\n", i,
				rep->res[i].iterations, r->items[i]->name);
	}
	for (size_t k = 0; k < rep->nseg; k++)
		fprintf(w, "segment %zu %u %u %u\n", rep->seg[k].bench,
			rep->seg[k].warmup, rep->seg[k].count,
			rep->seg[k].first);
	fprintf(w, "go\n");
	return fclose(w) ? -1 : 0;
}

static pid_t start_worker(char *const *argv, int *to, int *from)
{
	int in[2], out[2], exec_errno = 0, e;
	struct spawn s = {
		.path = argv[0], .argv = argv, .stderr_fd = -1,
		/* a parent killed outright takes its worker with it */
		.die_with_parent = 1,
	};
	pid_t pid;

	if (pipe2(in, O_CLOEXEC))
		return -1;
	if (pipe2(out, O_CLOEXEC)) {
		close(in[0]);
		close(in[1]);
		return -1;
	}
	s.stdin_fd = in[0];
	s.stdout_fd = out[1];
	if (spawn_start(&s, &pid, &exec_errno))
		pid = -1;
	e = errno;
	close(in[0]);
	close(out[1]);
	if (pid > 0 && exec_errno) {
		waitpid(pid, NULL, 0);
		e = exec_errno;
		pid = -1;
	}
	if (pid < 0) {
		close(in[1]);
		close(out[0]);
		errno = e;
		return -1;
	}
	*to = in[1];
	*from = out[0];
	return pid;
}

/* The parent's view of the stretch the worker is in. */
struct stretch {
	const struct runner_segment *seg;
	struct bench_sample *s;
	unsigned got;
};

/* One line from the worker: 0, or -1 when it breaks the protocol. */
static int take_line(const struct runner_repetition *rep, const char *line,
		     struct stretch *cur, size_t *next, int *ended)
{
	struct bench_sample sample = { 0 };
	unsigned long long k;
	struct result *res;
	char why[320];

	if (sscanf(line, "begin %llu", &k) == 1) {
		if (k != *next || k >= rep->nseg ||
		    (cur->seg && cur->got < cur->seg->warmup + cur->seg->count &&
		     !rep->res[cur->seg->bench].skipped))
			return -1;
		cur->seg = &rep->seg[k];
		cur->got = 0;
		(*next)++;
		if (!rep->res[cur->seg->bench].skipped)
			runner_show_progress(rep, cur->seg);
		return 0;
	}
	if (!strcmp(line, "end")) {
		*ended = 1;
		return 0;
	}
	if (!cur->seg)
		return -1;
	res = &rep->res[cur->seg->bench];
	if (!strncmp(line, "fail ", 5)) {
		if (!res->skipped) {
			snprintf(why, sizeof(why), "%s (repetition %u)",
				 line + 5, rep->index + 1);
			runner_skip(res, why);
		}
		return 0;
	}
	if (sscanf(line, "s %" SCNu64 " %" SCNu64 " %" SCNu32 " %" SCNu32,
		   &sample.value, &sample.iterations, &sample.flags,
		   &sample.repeats) != 4 ||
	    cur->got >= cur->seg->warmup + cur->seg->count)
		return -1;
	cur->s[cur->got++] = sample;
	if (cur->got == cur->seg->warmup + cur->seg->count && !res->skipped)
		runner_store(res, cur->seg, rep->index, cur->s);
	return 0;
}

static void say_how_it_ended(const struct runner_repetition *rep, int status,
			     const char *what)
{
	if (WIFSIGNALED(status))
		fprintf(stderr, "smapbench: the worker of repetition %u was killed by signal %d%s%s\n",
			rep->index + 1, WTERMSIG(status), what ? ": " : "",
			what ? what : "");
	else
		fprintf(stderr, "smapbench: the worker of repetition %u exited with status %d%s%s\n",
			rep->index + 1, WEXITSTATUS(status), what ? ": " : "",
			what ? what : "");
}

int runner_repetition_in_worker(const struct runner_repetition *rep)
{
	const struct runner_options *o = rep->o;
	unsigned most = 0;
	struct stretch cur = { 0 };
	struct sigaction ignore = { .sa_handler = SIG_IGN }, old;
	const char *broken = NULL;
	size_t next = 0, cap = 0;
	int to, from, status = 0, ended = 0, sent;
	char *line = NULL;
	FILE *w, *rd;
	pid_t pid;

	for (size_t k = 0; k < rep->nseg; k++)
		if (rep->seg[k].warmup + rep->seg[k].count > most)
			most = rep->seg[k].warmup + rep->seg[k].count;
	cur.s = calloc(most ? most : 1, sizeof(*cur.s));
	if (!cur.s)
		return -1;
	pid = start_worker(o->worker_argv, &to, &from);
	if (pid < 0) {
		fprintf(stderr, "smapbench: cannot start the worker of repetition %u: %s\n",
			rep->index + 1, strerror(errno));
		free(cur.s);
		return -1;
	}
	w = fdopen(to, "w");
	rd = fdopen(from, "r");
	if (!w || !rd) {
		if (w)
			fclose(w);
		else
			close(to);
		if (rd)
			fclose(rd);
		else
			close(from);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		free(cur.s);
		return -1;
	}
	sigaction(SIGPIPE, &ignore, &old);
	sent = send_schedule(w, rep);
	sigaction(SIGPIPE, &old, NULL);
	while (!sent && !broken && !ended) {
		ssize_t len = getline(&line, &cap, rd);

		if (len < 0) {
			/* a stop signal interrupts the read: look, then go on */
			if (errno == EINTR && !runner_stopped(o)) {
				clearerr(rd);
				continue;
			}
			break;
		}
		if (runner_stopped(o))
			break;
		if (len && line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (take_line(rep, line, &cur, &next, &ended))
			broken = "it broke the protocol";
	}
	if (runner_stopped(o) || broken)
		kill(pid, SIGTERM);
	fclose(rd);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	free(line);
	free(cur.s);
	if (runner_stopped(o))
		return 0;
	if (sent)
		broken = "it did not take its schedule";
	else if (!broken && (!ended || next != rep->nseg))
		broken = "it stopped before the end of its schedule";
	if (broken || !WIFEXITED(status) || WEXITSTATUS(status)) {
		say_how_it_ended(rep, status, broken);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------ the worker */

struct worker_bench {
	size_t parent_index;
	uint64_t iterations;
	const struct benchmark *b;
	void *state;
	int set_up, failed;
};

struct worker_plan {
	struct worker_bench *bench;
	size_t nbench;
	struct runner_segment *seg;	/* .bench indexes plan.bench */
	size_t nseg;
};

static int plan_error(const char *what, const char *line)
{
	fprintf(stderr, "smapbench run-worker: %s: '%s'\n", what, line);
	return -1;
}

static struct worker_bench *plan_find(struct worker_plan *p, size_t parent)
{
	for (size_t i = 0; i < p->nbench; i++)
		if (p->bench[i].parent_index == parent)
			return &p->bench[i];
	return NULL;
}

/* Reads the schedule up to "go": 0, or -1 after saying why. */
static int read_plan(const struct registry *r, FILE *in, struct worker_plan *p)
{
	char *line = NULL;
	size_t cap = 0;
	int magic = 0, rc = -1;
	ssize_t len;

	while ((len = getline(&line, &cap, in)) >= 0) {
		unsigned long long idx, iterations;
		unsigned warmup, count, first;
		int name_at = 0;

		if (len && line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (!magic) {
			if (strcmp(line, SCHEDULE_MAGIC)) {
				plan_error("not a schedule", line);
				break;
			}
			magic = 1;
		} else if (!strcmp(line, "go")) {
			rc = 0;
			break;
		} else if (!strncmp(line, "repetition ", 11)) {
			continue;
		} else if (sscanf(line, "bench %llu %llu %n", &idx, &iterations,
				  &name_at) == 2 && name_at) {
			void *grown = realloc(p->bench,
					      (p->nbench + 1) * sizeof(*p->bench));
			const struct benchmark *b = registry_find(r, line + name_at);

			if (!grown)
				break;
			p->bench = grown;
			if (!b || plan_find(p, idx)) {
				plan_error(b ? "a benchmark twice" :
					   "no such benchmark here", line);
				break;
			}
			p->bench[p->nbench++] = (struct worker_bench){
				.parent_index = idx, .iterations = iterations,
				.b = b };
		} else if (sscanf(line, "segment %llu %u %u %u", &idx, &warmup,
				  &count, &first) == 4) {
			struct worker_bench *wb = plan_find(p, idx);
			void *grown = realloc(p->seg, (p->nseg + 1) * sizeof(*p->seg));

			if (!grown)
				break;
			p->seg = grown;
			if (!wb || warmup + count == 0 || warmup + count > 1000000) {
				plan_error("a stretch of no known benchmark, or of no size",
					   line);
				break;
			}
			p->seg[p->nseg++] = (struct runner_segment){
				(size_t)(wb - p->bench), warmup, count, first };
		} else {
			plan_error("a line no schedule has", line);
			break;
		}
	}
	if (rc && !ferror(in) && len < 0)
		fprintf(stderr, "smapbench run-worker: the schedule ended before 'go'\n");
	free(line);
	return rc;
}

/* One stretch in the worker: its samples, or why it failed. */
static void run_stretch(const struct runner_options *o, struct worker_bench *wb,
			const struct runner_segment *seg,
			struct bench_sample *s, FILE *out)
{
	char why[256] = "";
	unsigned total = seg->warmup + seg->count;

	if (wb->failed) {
		fprintf(out, "fail failed in an earlier stretch\n");
		return;
	}
	if (!wb->set_up) {
		if ((wb->b->valid && wb->b->valid(wb->b, why, sizeof(why))) ||
		    (wb->b->setup && wb->b->setup(wb->b, &wb->state, why,
						  sizeof(why)))) {
			wb->failed = 1;
			fprintf(out, "fail %s\n", why[0] ? why : "set-up failed");
			return;
		}
		wb->set_up = 1;
	}
	if (runner_collect(wb->b, wb->state, o, wb->iterations, total, s, why,
			   sizeof(why))) {
		wb->failed = 1;
		fprintf(out, "fail %s\n", why[0] ? why : "a sample failed");
		return;
	}
	for (unsigned i = 0; i < total; i++)
		fprintf(out, "s %" PRIu64 " %" PRIu64 " %" PRIu32 " %" PRIu32 "\n",
			s[i].value, s[i].iterations, s[i].flags, s[i].repeats);
}

int runner_worker(const struct registry *r, const struct runner_options *o,
		  FILE *in, FILE *out)
{
	struct worker_plan p = { 0 };
	struct bench_sample *s = NULL;
	unsigned most = 1;
	int rc = 1;

	if (read_plan(r, in, &p))
		goto out;
	for (size_t k = 0; k < p.nseg; k++)
		if (p.seg[k].warmup + p.seg[k].count > most)
			most = p.seg[k].warmup + p.seg[k].count;
	s = calloc(most, sizeof(*s));
	if (!s) {
		fprintf(stderr, "smapbench run-worker: out of memory\n");
		goto out;
	}
	for (size_t k = 0; k < p.nseg; k++) {
		/*
		 * The parent shows progress as each stretch starts; it shares
		 * the pinned CPU and the real-time priority, so it runs only
		 * when the worker yields it the CPU, here, between stretches.
		 */
		fprintf(out, "begin %zu\n", k);
		fflush(out);
		sched_yield();
		run_stretch(o, &p.bench[p.seg[k].bench], &p.seg[k], s, out);
	}
	fprintf(out, "end\n");
	rc = fflush(out) ? 1 : 0;
out:
	for (size_t i = 0; i < p.nbench; i++)
		if (p.bench[i].set_up && p.bench[i].b->teardown)
			p.bench[i].b->teardown(p.bench[i].b, p.bench[i].state);
	free(s);
	free(p.bench);
	free(p.seg);
	return rc;
}
