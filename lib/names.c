/* SPDX-License-Identifier: BSD-3-Clause */
/* Device names against table rows (lib/names.h). */
#include <string.h>
#include <strings.h>
#include "names.h"

int g3_contains_nocase(const char *hay, const char *needle)
{
    for (size_t n = strlen(needle); *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return 1;
    return 0;
}

int g3_names_device(const char *name, const char *match)
{
    char one[128];
    for (const char *m = match; *m;) {
        size_t n = strcspn(m, "|");
        if (n > 0 && n < sizeof one) {
            memcpy(one, m, n);
            one[n] = 0;
            if (g3_contains_nocase(name, one))
                return 1;
        }
        m += n + (m[n] == '|');
    }
    return 0;
}
