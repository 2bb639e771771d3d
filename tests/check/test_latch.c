/* The agent's memory (state/latch_state.h, state/latch_base.h,
 * check/latch.h): events seen and renewed, texts made fit for the file,
 * expiry; which findings are events; the memory put back into the
 * findings; and the counter baselines of a port made the start of a
 * window that the counter checks judge. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check/catalog.h"
#include "check/finding.h"
#include "check/latch.h"
#include "state/latch_base.h"
#include "state/latch_state.h"
#include "model/window.h"

static void see_renew_expire(void **state)
{
	struct latch_state s = { 0 };
	char obs[LATCH_STATE_MAX_FIELD + 50];

	(void)state;
	assert_int_equal(latch_state_see(&s, "port.down", 1, "mlx5_0 port 1", "DOWN", 100, 0), 1);
	assert_int_equal(latch_state_see(&s, "port.down", 2, "mlx5_0 port 1", "DOWN again", 160,
					 0), 1);
	assert_int_equal(s.n_events, 1);
	assert_int_equal(s.events[0].first, 100);
	assert_int_equal(s.events[0].last, 160);
	assert_int_equal(s.events[0].count, 2);
	assert_int_equal(s.events[0].severity, 2);
	assert_string_equal(s.events[0].observed, "DOWN again");
	/* a lower severity later does not lower it */
	assert_int_equal(latch_state_see(&s, "port.down", 0, "mlx5_0 port 1", "x", 170, 0), 1);
	assert_int_equal(s.events[0].severity, 2);
	/* what the file cannot hold: a blank in an id, a tab in a subject */
	assert_int_equal(latch_state_see(&s, "port down", 1, "mlx5_0", "x", 100, 0), 0);
	assert_int_equal(latch_state_see(&s, "port.down", 1, "mlx5_0\tport", "x", 100, 0), 0);
	/* an observed text is made to fit: non-ASCII to '?', cut at the bound */
	memset(obs, 'a', sizeof(obs) - 1);
	obs[sizeof(obs) - 1] = '\0';
	obs[0] = '\t';
	obs[1] = (char)0xc3;
	assert_int_equal(latch_state_see(&s, "kmsg.health", 2, "mlx5_1", obs, 100, 700), 1);
	assert_int_equal(strlen(s.events[1].observed), LATCH_STATE_MAX_FIELD);
	assert_memory_equal(s.events[1].observed, "??aa", 4);
	/* expired at its time, not before */
	assert_int_equal(latch_state_expire(&s, 699), 0);
	assert_int_equal(latch_state_expire(&s, 700), 1);
	assert_int_equal(s.n_events, 1);
	assert_string_equal(s.events[0].id, "port.down");
	latch_state_free(&s);
}

static void parse_refuses(void **state)
{
	static const char *const bad[] = {
		"",
		"rdmadoctor-latch 1\n",
		"rdmadoctor-latch 1\nboot ABC\ntaken 0\n",	/* not lowercase hex */
		"rdmadoctor-latch 1\nboot abc\ntaken 01\n",	/* a leading zero */
		"rdmadoctor-latch 1\nboot abc\ntaken 0\nbase\tm\t1\tpci\tx\t1\n",
		"rdmadoctor-latch 1\nboot abc\ntaken 0\nevent\tport.down\terror\t1\t2\t0\t0\ts\to\n",
		"rdmadoctor-latch 1\nboot abc\ntaken 0\nevent\tport.down\tfatal\t1\t2\t1\t0\ts\to\n",
		"rdmadoctor-latch 1\nboot abc\ntaken 0\nevent\tport.down\terror\t1\t2\t1\t0\ts\n",
		"rdmadoctor-latch 1\nboot abc\ntaken 0\nwhat\n",
	};
	struct latch_state s;
	char why[200];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(latch_state_parse(bad[i], strlen(bad[i]), &s, why, sizeof(why)),
				 -EINVAL);
		assert_true(why[0] != '\0');
		assert_int_equal(s.n_events + s.n_bases, 0);
	}
}

static struct finding *add(struct findings *fs, const char *id, enum severity sev,
			   const char *subject, const char *observed)
{
	struct finding *f = finding_add(fs, id, sev, "why");

	assert_non_null(f);
	finding_set(&f->subject, "%s", subject);
	finding_set(&f->observed, "%s", observed);
	return f;
}

static void classes(void **state)
{
	struct findings fs = { 0 };
	struct finding *f;

	(void)state;
	f = add(&fs, "counters.errors", SEV_WARN, "mlx5_0 port 1", "symbol_error 3");
	/* a lifetime count (no window) is no event of this boot */
	assert_int_equal(latch_class_of(f, false), LATCH_NONE);
	assert_int_equal(latch_class_of(f, true), LATCH_DROPS);
	f->severity = SEV_ERROR;
	assert_int_equal(latch_class_of(f, true), LATCH_FAULTS);
	f = add(&fs, "port.down", SEV_ERROR, "mlx5_0 port 1", "DOWN");
	assert_int_equal(latch_class_of(f, false), LATCH_FLAPS);
	/* a state that could not be read is not a port that went down */
	f->unchecked = true;
	assert_int_equal(latch_class_of(f, false), LATCH_NONE);
	f = add(&fs, "kmsg.health", SEV_ERROR, "mlx5_0", "1 line");
	assert_int_equal(latch_class_of(f, false), LATCH_FAULTS);
	f = add(&fs, "kmsg.link_flap", SEV_WARN, "mlx5_0", "1 line");
	assert_int_equal(latch_class_of(f, false), LATCH_FLAPS);
	f = add(&fs, "mtu.roce", SEV_WARN, "mlx5_0 port 1", "1500");
	assert_int_equal(latch_class_of(f, true), LATCH_NONE);
	findings_free(&fs);
}

static void record_and_merge(void **state)
{
	struct latch_state s = { 0 };
	struct findings fs = { 0 };
	struct latch_holds h;

	(void)state;
	latch_holds_default(&h);
	add(&fs, "port.down", SEV_ERROR, "mlx5_0 port 1", "DOWN");
	add(&fs, "counters.errors", SEV_WARN, "mlx5_1 port 1", "out_of_sequence grew by 7");
	add(&fs, "mtu.roce", SEV_WARN, "mlx5_0 port 1", "1500");
	assert_int_equal(latch_record(&s, &fs, 1000, &h, true), 2);
	assert_int_equal(s.events[1].expires, 1000 + LATCH_DROPS_HOLD_S);
	assert_int_equal(s.events[0].expires, 0);
	/* an id this version does not know is kept in the file, not shown */
	assert_int_equal(latch_state_see(&s, "future.id", 2, "host", "x", 1000, 0), 1);
	findings_free(&fs);

	/* the next reading sees only the mtu finding */
	add(&fs, "mtu.roce", SEV_WARN, "mlx5_0 port 1", "1500");
	assert_int_equal(latch_record(&s, &fs, 1060, &h, true), 0);
	assert_int_equal(latch_merge(&s, &fs), 0);
	assert_int_equal(fs.n, 3);
	assert_int_equal(fs.v[0].latch.since, 0);
	assert_string_equal(fs.v[1].id, "port.down");
	assert_ptr_equal(fs.v[1].id, check_catalog_find("port.down")->id);
	assert_int_equal(fs.v[1].severity, SEV_ERROR);
	assert_true(fs.v[1].latch.remembered);
	assert_int_equal(fs.v[1].latch.since, 1000);
	assert_non_null(strstr(fs.v[1].observed, "remembered, not seen in this reading: DOWN"));
	assert_non_null(strstr(fs.v[1].fix, "`rdmadoctor clear port.down`"));
	assert_string_equal(fs.v[2].id, "counters.errors");
	assert_int_equal(fs.v[2].severity, SEV_WARN);
	assert_non_null(strstr(fs.v[2].expected, "held until"));
	findings_free(&fs);

	/* seen again now: the finding of this reading carries the memory */
	add(&fs, "port.down", SEV_ERROR, "mlx5_0 port 1", "DOWN");
	assert_int_equal(latch_record(&s, &fs, 1120, &h, true), 0);
	assert_int_equal(latch_merge(&s, &fs), 0);
	assert_int_equal(fs.n, 2);
	assert_false(fs.v[0].latch.remembered);
	assert_int_equal(fs.v[0].latch.count, 2);
	assert_int_equal(fs.v[0].latch.last, 1120);
	findings_free(&fs);
	latch_state_free(&s);
}

/* A milder sighting does not hide the worse one; a value not read now is
 * no sighting. */
static void worse_stays(void **state)
{
	struct latch_state s = { 0 };
	struct findings fs = { 0 };
	struct latch_holds h;
	struct finding *f;

	(void)state;
	latch_holds_default(&h);
	add(&fs, "counters.errors", SEV_ERROR, "mlx5_0 port 1", "symbol_error grew by 5");
	add(&fs, "port.down", SEV_ERROR, "mlx5_0 port 1", "DOWN");
	assert_int_equal(latch_record(&s, &fs, 1000, &h, true), 2);
	findings_free(&fs);

	add(&fs, "counters.errors", SEV_WARN, "mlx5_0 port 1", "out_of_sequence grew by 2");
	f = add(&fs, "port.down", SEV_WARN, "mlx5_0 port 1", "not checked: no file 'state'");
	f->unchecked = true;
	assert_int_equal(latch_record(&s, &fs, 1060, &h, true), 0);
	assert_string_equal(latch_state_event(&s, "counters.errors", "mlx5_0 port 1")->observed,
			    "symbol_error grew by 5");
	assert_int_equal(latch_merge(&s, &fs), 0);
	assert_int_equal(fs.n, 3);
	assert_int_equal(fs.v[0].severity, SEV_ERROR);
	assert_non_null(strstr(fs.v[0].observed, "out_of_sequence grew by 2; remembered at error "
				"since 1970-01-01 00:16:40 UTC: symbol_error grew by 5"));
	assert_false(fs.v[0].latch.remembered);
	/* the unchecked one stays as it was, the remembered port.down is added */
	assert_int_equal(fs.v[1].latch.since, 0);
	assert_true(fs.v[2].latch.remembered);
	assert_int_equal(fs.v[2].severity, SEV_ERROR);
	findings_free(&fs);
	latch_state_free(&s);
}

static bool keep_all(const char *driver, const char *name, int set)
{
	(void)driver;
	(void)name;
	(void)set;
	return true;
}

static void baselines(void **state)
{
	char n_sym[] = "symbol_error", n_down[] = "link_downed", n_rcv[] = "port_rcv_errors";
	char nic_name[] = "mlx5_0";
	struct counter pma[] = { { .name = n_sym, .value = 4, .ok = true },
				 { .name = n_down, .value = 1, .ok = true },
				 { .name = n_rcv, .value = 9, .ok = false } };
	struct port pt = { .num = 1, .carrier_changes = 2,
			   .counters = { pma, 3 } };
	struct nic n = { .name = nic_name, .ports = &pt, .n_ports = 1 };
	struct inventory inv = { .nics = &n, .n_nics = 1 };
	struct latch_state s = { 0 };
	struct counter_change ch;
	char *text, why[200];
	struct latch_state again;

	(void)state;
	assert_int_equal(latch_base_take(&s, &inv, keep_all, 5000), 0);
	/* a counter that could not be read has no baseline */
	assert_int_equal(s.n_bases, 3);
	assert_int_equal(s.taken, 5000);
	strcpy(s.boot, "abc");
	text = latch_state_format(&s);
	assert_non_null(text);
	assert_int_equal(latch_state_parse(text, strlen(text), &again, why, sizeof(why)), 0);
	free(text);

	/* later: symbol_error grew by 3, the carrier changed once more */
	pma[0].value = 7;
	pt.carrier_changes = 3;
	assert_int_equal(latch_base_start(&inv, &again, 5090), 1);
	assert_non_null(pt.start);
	assert_true(inv.window_s == 90);
	assert_true(window_change(&pt, WIN_PMA, "symbol_error", &ch));
	assert_int_equal(ch.delta, 3);
	assert_true(window_change(&pt, WIN_PMA, "link_downed", &ch));
	assert_int_equal(ch.delta, 0);
	assert_true(window_carrier(&pt, &ch));
	assert_int_equal(ch.delta, 1);
	/* no ethtool -S baseline: that set stays unknown, not empty */
	assert_null(pt.start->eth_stats.v);
	/* the boot's first reading: the long baseline is the short one, no
	 * long window yet */
	assert_int_equal(again.boot_taken, 5000);
	assert_int_equal(again.n_boot_bases, 3);
	assert_null(pt.start_boot);
	assert_true(inv.window_boot_s == 0);
	port_start_free(pt.start);
	pt.start = NULL;

	/* the next reading moves the short baseline, not the long one */
	assert_int_equal(latch_base_take(&again, &inv, keep_all, 5090), 0);
	assert_int_equal(again.taken, 5090);
	assert_int_equal(again.boot_taken, 5000);
	assert_int_equal(latch_state_boot_base(&again, "mlx5_0", 1, LATCH_PMA,
					       "symbol_error")->value, 4);
	pma[0].value = 8;
	inv.window_s = 0;
	assert_int_equal(latch_base_start(&inv, &again, 5150), 1);
	assert_true(inv.window_s == 60 && inv.window_boot_s == 150);
	assert_non_null(pt.start_boot);
	assert_int_equal(counter_find(&pt.start_boot->counters, "symbol_error")->value, 4);
	assert_int_equal(counter_find(&pt.start->counters, "symbol_error")->value, 7);
	port_start_free(pt.start);
	port_start_free(pt.start_boot);
	pt.start = pt.start_boot = NULL;

	/* a counter cleared: the long baseline begins again */
	pma[0].value = 1;
	assert_int_equal(latch_base_take(&again, &inv, keep_all, 5200), 0);
	assert_int_equal(again.boot_taken, 5200);
	assert_int_equal(latch_state_boot_base(&again, "mlx5_0", 1, LATCH_PMA,
					       "symbol_error")->value, 1);
	/* and the file keeps it, and a boot_base without boot_taken is malformed */
	text = latch_state_format(&again);
	assert_non_null(text);
	assert_non_null(strstr(text, "\nboot_taken 5200\nboot_base\tmlx5_0\t1\tpma\tsymbol_error\t1\n"));
	free(text);
	{
		const char *bad = "rdmadoctor-latch 1\nboot abc\ntaken 5\n"
				  "boot_base\tmlx5_0\t1\tpma\tsymbol_error\t1\n";
		struct latch_state x;

		assert_int_equal(latch_state_parse(bad, strlen(bad), &x, why, sizeof(why)), -EINVAL);
	}
	latch_state_free(&again);
	latch_state_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(see_renew_expire),
		cmocka_unit_test(parse_refuses),
		cmocka_unit_test(classes),
		cmocka_unit_test(record_and_merge),
		cmocka_unit_test(worse_stays),
		cmocka_unit_test(baselines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
