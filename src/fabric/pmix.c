/* PMIx client calls (pmix.h). */
#include "pmix.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

bool fab_pmix_launched(void)
{
	return getenv("PMIX_NAMESPACE") && getenv("PMIX_RANK");
}

#ifdef RD_HAVE_PMIX
#include <pmix.h>

static pmix_proc_t me;

int fab_pmix_init(uint32_t *rank, uint32_t *size, char *err, size_t errsz)
{
	pmix_proc_t wild;
	pmix_value_t *v = NULL;
	pmix_status_t rc = PMIx_Init(&me, NULL, 0);

	if (rc != PMIX_SUCCESS) {
		snprintf(err, errsz, "cannot join the launcher's PMIx server: %s",
			 PMIx_Error_string(rc));
		return -1;
	}
	PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
	rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v);
	if (rc != PMIX_SUCCESS || !v || v->type != PMIX_UINT32) {
		snprintf(err, errsz, "the launcher gives no job size: %s", PMIx_Error_string(rc));
		if (v)
			PMIX_VALUE_RELEASE(v);
		PMIx_Finalize(NULL, 0);
		return -1;
	}
	*rank = me.rank;
	*size = v->data.uint32;
	PMIX_VALUE_RELEASE(v);
	return 0;
}

char *fab_pmix_hostname(void)
{
	pmix_value_t *v = NULL;
	char *s = NULL;

	if (PMIx_Get(&me, PMIX_HOSTNAME, NULL, 0, &v) == PMIX_SUCCESS && v &&
	    v->type == PMIX_STRING && v->data.string)
		s = strdup(v->data.string);
	if (v)
		PMIX_VALUE_RELEASE(v);
	return s;
}

int fab_pmix_put(const char *key, const char *text, char *err, size_t errsz)
{
	pmix_value_t val;
	pmix_status_t rc;

	PMIX_VALUE_LOAD(&val, text, PMIX_STRING);
	rc = PMIx_Put(PMIX_GLOBAL, key, &val);
	PMIX_VALUE_DESTRUCT(&val);
	if (rc == PMIX_SUCCESS)
		rc = PMIx_Commit();
	if (rc != PMIX_SUCCESS) {
		snprintf(err, errsz, "cannot publish '%s' through PMIx: %s", key,
			 PMIx_Error_string(rc));
		return -1;
	}
	return 0;
}

/* One process of the proc table: gone once it terminated (normally or not). */
static void mark(const pmix_proc_info_t *pi, uint32_t size, bool *alive)
{
	if (strcmp(pi->proc.nspace, me.nspace) == 0 && pi->proc.rank < size &&
	    pi->state >= PMIX_PROC_STATE_TERMINATED)
		alive[pi->proc.rank] = false;
}

char *fab_pmix_get(uint32_t rank, const char *key)
{
	pmix_proc_t p;
	pmix_info_t info;
	pmix_value_t *v = NULL;
	bool immediate = true;
	char *s = NULL;

	PMIX_LOAD_PROCID(&p, me.nspace, rank);
	/* after the fence the data is here or nowhere: asking the launcher
	 * for a dead rank's data would wait for ever */
	PMIX_INFO_LOAD(&info, PMIX_IMMEDIATE, &immediate, PMIX_BOOL);
	if (PMIx_Get(&p, key, &info, 1, &v) == PMIX_SUCCESS && v && v->type == PMIX_STRING &&
	    v->data.string)
		s = strdup(v->data.string);
	PMIX_INFO_DESTRUCT(&info);
	if (v)
		PMIX_VALUE_RELEASE(v);
	return s;
}

/* A request to the launcher in flight: it answers from its own thread,
 * maybe after the waiter gave up (abandoned), and then the answer frees
 * the request. */
struct waiter {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool done, abandoned;
	struct waiter *prev, *next;	/* in the abandoned list, while abandoned */
};

/* Requests given up on and not yet answered.  A dead rank's may never be:
 * kept on a list, they stay reachable until the process ends (the leak
 * checker of the ASan run would otherwise count each as lost). */
static pthread_mutex_t abandoned_mu = PTHREAD_MUTEX_INITIALIZER;
static struct waiter *abandoned_list;

static void waiter_init(struct waiter *w)
{
	pthread_condattr_t ca;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, &ca);
	pthread_condattr_destroy(&ca);
	w->prev = w->next = NULL;
}

static void waiter_destroy(struct waiter *w)
{
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
}

/* Until the answer or deadline (CLOCK_MONOTONIC seconds): true when it
 * came; false when not, and the request is then the answer's to free. */
static bool waiter_wait(struct waiter *w, double deadline)
{
	struct timespec until;
	bool done;

	until.tv_sec = (time_t)deadline;
	until.tv_nsec = (long)((deadline - (double)until.tv_sec) * 1e9);
	pthread_mutex_lock(&w->mu);
	while (!w->done)
		if (pthread_cond_timedwait(&w->cv, &w->mu, &until) == ETIMEDOUT)
			break;
	done = w->done;
	w->abandoned = !done;
	if (!done) {
		pthread_mutex_lock(&abandoned_mu);
		w->next = abandoned_list;
		if (abandoned_list)
			abandoned_list->prev = w;
		abandoned_list = w;
		pthread_mutex_unlock(&abandoned_mu);
	}
	pthread_mutex_unlock(&w->mu);
	return done;
}

/* The answer came: true when the waiter gave up (free the request). */
static bool waiter_done(struct waiter *w)
{
	bool abandoned;

	pthread_mutex_lock(&w->mu);
	w->done = true;
	abandoned = w->abandoned;
	if (abandoned) {
		pthread_mutex_lock(&abandoned_mu);
		if (w->prev)
			w->prev->next = w->next;
		else
			abandoned_list = w->next;
		if (w->next)
			w->next->prev = w->prev;
		pthread_mutex_unlock(&abandoned_mu);
	}
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return abandoned;
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the launcher's process table ---- */

struct query_req {
	struct waiter w;
	pmix_query_t q;
	uint32_t size;
	bool *alive;
	int ok;
};

static void query_free(struct query_req *x)
{
	PMIX_QUERY_DESTRUCT(&x->q);
	waiter_destroy(&x->w);
	free(x->alive);
	free(x);
}

/* the table: an array of infos each holding a proc info (Open MPI), or an
 * array of proc infos */
static void read_table(const pmix_info_t *res, size_t nres, struct query_req *x)
{
	for (size_t i = 0; i < nres; i++) {
		pmix_data_array_t *da;

		if (strcmp(res[i].key, PMIX_QUERY_PROC_TABLE) != 0 ||
		    res[i].value.type != PMIX_DATA_ARRAY || !(da = res[i].value.data.darray))
			continue;
		for (size_t k = 0; k < da->size; k++) {
			if (da->type == PMIX_PROC_INFO) {
				mark(&((pmix_proc_info_t *)da->array)[k], x->size, x->alive);
				x->ok = 0;
			} else if (da->type == PMIX_INFO) {
				const pmix_info_t *in = &((pmix_info_t *)da->array)[k];

				if (in->value.type == PMIX_PROC_INFO && in->value.data.pinfo) {
					mark(in->value.data.pinfo, x->size, x->alive);
					x->ok = 0;
				}
			}
		}
	}
}

static void query_done(pmix_status_t status, pmix_info_t *res, size_t nres, void *cbdata,
		       pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
	struct query_req *x = cbdata;

	if (status == PMIX_SUCCESS || status == PMIX_QUERY_PARTIAL_SUCCESS)
		read_table(res, nres, x);
	if (release_fn)
		release_fn(release_cbdata);
	if (waiter_done(&x->w))
		query_free(x);
}

/* How long the launcher may take to answer; one that does not (Slurm's
 * plugin may never answer this query) is not asked again. */
#define QUERY_WAIT_S 2.0

int fab_pmix_alive(uint32_t size, bool *alive)
{
	static bool unanswered;
	struct query_req *x;
	int ok = -1;

	for (uint32_t r = 0; r < size; r++)
		alive[r] = true;
	if (unanswered || !(x = calloc(1, sizeof(*x))))
		return -1;
	waiter_init(&x->w);
	x->size = size;
	x->ok = -1;
	PMIX_QUERY_CONSTRUCT(&x->q);
	x->alive = malloc((size ? size : 1) * sizeof(bool));
	x->q.keys = calloc(2, sizeof(char *));
	PMIX_INFO_CREATE(x->q.qualifiers, 1);
	if (!x->alive || !x->q.keys || !x->q.qualifiers ||
	    !(x->q.keys[0] = strdup(PMIX_QUERY_PROC_TABLE))) {
		query_free(x);
		return -1;
	}
	for (uint32_t r = 0; r < size; r++)
		x->alive[r] = true;
	x->q.nqual = 1;
	PMIX_INFO_LOAD(&x->q.qualifiers[0], PMIX_NSPACE, me.nspace, PMIX_STRING);
	if (PMIx_Query_info_nb(&x->q, 1, query_done, x) != PMIX_SUCCESS) {
		query_free(x);
		return -1;
	}
	if (!waiter_wait(&x->w, mono_now() + QUERY_WAIT_S)) {
		unanswered = true;
		return -1;
	}
	if (x->ok == 0) {
		memcpy(alive, x->alive, size * sizeof(bool));
		ok = 0;
	}
	query_free(x);
	return ok;
}

/* ---- fetching what a rank published ---- */

/* One PMIx_Get_nb or PMIx_Fence_nb in flight. */
struct get_req {
	struct waiter w;
	pmix_status_t status;
	char *text;
};

static struct get_req *req_new(void)
{
	struct get_req *q = calloc(1, sizeof(*q));

	if (q)
		waiter_init(&q->w);
	return q;
}

static void req_free(struct get_req *q)
{
	free(q->text);
	waiter_destroy(&q->w);
	free(q);
}

static void get_done(pmix_status_t status, pmix_value_t *kv, void *cbdata)
{
	struct get_req *q = cbdata;

	q->status = status;
	if (status == PMIX_SUCCESS && kv && kv->type == PMIX_STRING && kv->data.string)
		q->text = strdup(kv->data.string);
	if (waiter_done(&q->w))
		req_free(q);
}

/* Wait for the launcher's answer until deadline: its status (q is freed,
 * its text kept in *text when text is not NULL), or PMIX_ERR_TIMEOUT when
 * it kept the request past the deadline (q is left to the callback). */
static pmix_status_t req_wait_text(struct get_req *q, double deadline, char **text)
{
	pmix_status_t rc;

	if (!waiter_wait(&q->w, deadline))
		return PMIX_ERR_TIMEOUT;
	rc = q->status;
	if (text) {
		*text = q->text;
		q->text = NULL;
	}
	req_free(q);
	return rc;
}

static pmix_status_t req_wait(struct get_req *q, double deadline)
{
	return req_wait_text(q, deadline, NULL);
}

/* One request, waited for until deadline: PMIX_SUCCESS with *text set,
 * the launcher's status, or PMIX_ERR_TIMEOUT when it kept it past the
 * deadline (it is left to finish alone). */
static pmix_status_t get_once(const pmix_proc_t *p, const char *key, double deadline, char **text)
{
	struct get_req *q = req_new();
	pmix_info_t info[2];
	bool refresh = true;
	int timeout = (int)(deadline - mono_now() + 0.999);
	pmix_status_t rc;

	*text = NULL;
	if (!q)
		return PMIX_ERR_NOMEM;
	/* ask the rank's server again each time: what this rank holds of it
	 * (from the last fence) predates the key */
	PMIX_INFO_LOAD(&info[0], PMIX_GET_REFRESH_CACHE, &refresh, PMIX_BOOL);
	if (timeout < 1)
		timeout = 1;
	PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &timeout, PMIX_INT);
	rc = PMIx_Get_nb(p, key, info, 2, get_done, q);
	PMIX_INFO_DESTRUCT(&info[0]);
	PMIX_INFO_DESTRUCT(&info[1]);
	if (rc != PMIX_SUCCESS) {
		req_free(q);
		return rc;
	}
	rc = req_wait_text(q, deadline, text);
	if (rc == PMIX_SUCCESS && !*text)
		rc = PMIX_ERR_BAD_PARAM;	/* a key of another type */
	return rc;
}

static bool known_gone(uint32_t rank)
{
	bool *alive = calloc((size_t)rank + 1, sizeof(bool));
	bool gone;

	if (!alive)
		return false;
	gone = fab_pmix_alive(rank + 1, alive) == 0 && !alive[rank];
	free(alive);
	return gone;
}

static void fence_done(pmix_status_t status, void *cbdata)
{
	get_done(status, NULL, cbdata);
}

int fab_pmix_fence(int timeout_s, bool collect, char *err, size_t errsz)
{
	pmix_proc_t wild;
	pmix_info_t info[2];
	struct get_req *q = req_new();
	pmix_status_t rc;

	if (!q) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
	PMIX_INFO_LOAD(&info[0], PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
	PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &timeout_s, PMIX_INT);
	rc = PMIx_Fence_nb(&wild, 1, info, 2, fence_done, q);
	PMIX_INFO_DESTRUCT(&info[0]);
	PMIX_INFO_DESTRUCT(&info[1]);
	/* the launcher's own timeout, and ours a little after it, should it
	 * never call back */
	rc = rc == PMIX_SUCCESS ? req_wait(q, mono_now() + timeout_s + 2) : (req_free(q), rc);
	if (rc != PMIX_SUCCESS) {
		snprintf(err, errsz, "the PMIx fence failed: %s", PMIx_Error_string(rc));
		return -1;
	}
	return 0;
}

/* A request waits at most this long before the launcher's process table is
 * asked whether the rank is still there */
#define GET_CHUNK_S 2.0
/* Between tries of a server that answers "not there yet" at once: short
 * for the first seconds (a start time is asked for this way, and a rank
 * that learns it late starts its round late), longer after that (a rank
 * waiting for rank 0 to fetch everybody's results asks less often). */
#define GET_PAUSE_FIRST_S 0.05
#define GET_PAUSE_EARLY_S 3.0
#define GET_PAUSE_LATE_S 0.5

char *fab_pmix_get_wait(uint32_t rank, const char *key, double deadline, bool *gone)
{
	pmix_proc_t p;
	double start = mono_now(), pause = GET_PAUSE_FIRST_S, asked_gone = 0;

	*gone = false;
	PMIX_LOAD_PROCID(&p, me.nspace, rank);
	for (;;) {
		double now = mono_now();
		double until = now + GET_CHUNK_S < deadline ? now + GET_CHUNK_S : deadline;
		struct timespec ts = { 0, (long)(pause * 1e9) };
		char *text = NULL;
		pmix_status_t rc = get_once(&p, key, until, &text);

		if (rc == PMIX_SUCCESS)
			return text;
		free(text);
		/* asked after a try, so that what a rank committed before it
		 * died is still taken; about once a second (a query of the
		 * launcher's whole process table) */
		if (asked_gone == 0 || rc == PMIX_ERR_TIMEOUT || mono_now() - asked_gone >= 1) {
			asked_gone = mono_now();
			if (known_gone(rank)) {
				*gone = true;
				return NULL;
			}
		}
		if (mono_now() + pause >= deadline)
			return NULL;
		/* a server that answers "not there yet" at once: ask again */
		if (rc != PMIX_ERR_TIMEOUT) {
			nanosleep(&ts, NULL);
			if (mono_now() - start > GET_PAUSE_EARLY_S && pause < GET_PAUSE_LATE_S)
				pause *= 2;
		}
	}
}

void fab_pmix_finalize(void)
{
	PMIx_Finalize(NULL, 0);
}

#else /* no libpmix in this build */

int fab_pmix_init(uint32_t *rank, uint32_t *size, char *err, size_t errsz)
{
	*rank = 0;
	*size = 0;
	snprintf(err, errsz, "this build has no PMIx (install libpmix-dev and rebuild)");
	return -1;
}

char *fab_pmix_hostname(void)
{
	return NULL;
}

int fab_pmix_put(const char *key, const char *text, char *err, size_t errsz)
{
	(void)key;
	(void)text;
	snprintf(err, errsz, "this build has no PMIx");
	return -1;
}

int fab_pmix_fence(int timeout_s, bool collect, char *err, size_t errsz)
{
	(void)timeout_s;
	(void)collect;
	snprintf(err, errsz, "this build has no PMIx");
	return -1;
}

int fab_pmix_alive(uint32_t size, bool *alive)
{
	for (uint32_t r = 0; r < size; r++)
		alive[r] = true;
	return -1;
}

char *fab_pmix_get(uint32_t rank, const char *key)
{
	(void)rank;
	(void)key;
	return NULL;
}

char *fab_pmix_get_wait(uint32_t rank, const char *key, double deadline, bool *gone)
{
	(void)rank;
	(void)key;
	(void)deadline;
	*gone = false;
	return NULL;
}

void fab_pmix_finalize(void)
{
}
#endif
