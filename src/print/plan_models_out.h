/* `plan --models`: the built-in model shapes, one line each. */
#ifndef RD_PRINT_PLAN_MODELS_OUT_H
#define RD_PRINT_PLAN_MODELS_OUT_H

#include <stdio.h>

void plan_print_models(FILE *out);

#endif
