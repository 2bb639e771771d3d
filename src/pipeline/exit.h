/* Exit codes, for every command (docs/exit-codes.md).
 *
 * Errors: a function of the pipeline and command layers returns an exit
 * code (EXIT_*) once it has said why on stderr, or CMD_GO_ON when it
 * decided nothing and the caller goes on (`if (rc != CMD_GO_ON) return
 * rc;`).  The layers below return negative errnos and never print; only
 * these layers print, once, where they know what the user asked for. */
#ifndef RD_PIPELINE_EXIT_H
#define RD_PIPELINE_EXIT_H

enum {
	CMD_GO_ON = -1,		/* not an exit code: nothing decided yet */
	EXIT_OK = 0,		/* ran, nothing at error severity */
	EXIT_PROBLEMS = 1,	/* ran and found problems */
	EXIT_USAGE = 2,
	EXIT_RUNTIME = 3,	/* could not run */
};

#endif
