/* PMIx client calls (pmix.h). */
#include "pmix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int fab_pmix_fence(int timeout_s, char *err, size_t errsz)
{
	pmix_proc_t wild;
	pmix_info_t info[2];
	bool collect = true;
	pmix_status_t rc;

	PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
	PMIX_INFO_LOAD(&info[0], PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
	PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &timeout_s, PMIX_INT);
	rc = PMIx_Fence(&wild, 1, info, 2);
	PMIX_INFO_DESTRUCT(&info[0]);
	PMIX_INFO_DESTRUCT(&info[1]);
	if (rc != PMIX_SUCCESS) {
		snprintf(err, errsz, "the PMIx fence failed: %s", PMIx_Error_string(rc));
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

int fab_pmix_alive(uint32_t size, bool *alive)
{
	pmix_query_t q;
	pmix_info_t *res = NULL;
	size_t nres = 0;
	pmix_status_t rc;
	int ok = -1;

	for (uint32_t r = 0; r < size; r++)
		alive[r] = true;
	PMIX_QUERY_CONSTRUCT(&q);
	q.keys = calloc(2, sizeof(char *));
	PMIX_INFO_CREATE(q.qualifiers, 1);
	if (!q.keys || !q.qualifiers) {
		PMIX_QUERY_DESTRUCT(&q);
		return -1;
	}
	q.keys[0] = strdup(PMIX_QUERY_PROC_TABLE);
	q.nqual = 1;
	PMIX_INFO_LOAD(&q.qualifiers[0], PMIX_NSPACE, me.nspace, PMIX_STRING);
	rc = q.keys[0] ? PMIx_Query_info(&q, 1, &res, &nres) : PMIX_ERR_NOMEM;
	/* the table: an array of infos each holding a proc info (Open MPI),
	 * or an array of proc infos */
	for (size_t i = 0; rc == PMIX_SUCCESS && i < nres; i++) {
		pmix_data_array_t *da;

		if (strcmp(res[i].key, PMIX_QUERY_PROC_TABLE) != 0 ||
		    res[i].value.type != PMIX_DATA_ARRAY || !(da = res[i].value.data.darray))
			continue;
		for (size_t k = 0; k < da->size; k++) {
			if (da->type == PMIX_PROC_INFO) {
				mark(&((pmix_proc_info_t *)da->array)[k], size, alive);
				ok = 0;
			} else if (da->type == PMIX_INFO) {
				const pmix_info_t *in = &((pmix_info_t *)da->array)[k];

				if (in->value.type == PMIX_PROC_INFO && in->value.data.pinfo) {
					mark(in->value.data.pinfo, size, alive);
					ok = 0;
				}
			}
		}
	}
	if (res)
		PMIX_INFO_FREE(res, nres);
	PMIX_QUERY_DESTRUCT(&q);
	if (ok < 0)
		for (uint32_t r = 0; r < size; r++)
			alive[r] = true;
	return ok;
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

int fab_pmix_fence(int timeout_s, char *err, size_t errsz)
{
	(void)timeout_s;
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

void fab_pmix_finalize(void)
{
}
#endif
