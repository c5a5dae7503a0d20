/*
 * junit.c - csumcheck --junit FILE: the run as a JUnit XML report, the
 * format CI systems read test results in (GitLab's and GitHub's test
 * reports, Jenkins' junit step): one <testsuite> "csumcheck", a <testcase>
 * per input file, a <failure> per frame with a --fail-on finding (default
 * bad,drop) or a change since --baseline, its message the frame's verdict
 * line. docs/schema/junit.xsd is the structure (the common JUnit schema's
 * elements and attributes); CTest cli-junit validates the file with
 * xmllint against it and reads it with python3-junitparser.
 *
 * The file is written whole by g_file_set_contents (a temporary file
 * renamed over FILE), so a reader never sees half of one.
 */
#include "junit.h"

#include <glib.h>

#include <string.h>

/* text in XML: the five characters escaped, control characters (not
 * allowed in XML 1.0) and bytes that are not UTF-8 as U+FFFD */
static void xml_text(GString *g, const char *s, size_t n)
{
    const char *end = s + n;
    while (s < end) {
        gunichar c = g_utf8_get_char_validated(s, end - s);
        if (c == (gunichar)-1 || c == (gunichar)-2) {
            g_string_append(g, "\xef\xbf\xbd");
            s++;
            continue;
        }
        const char *next = g_utf8_next_char(s);
        switch (c) {
        case '&': g_string_append(g, "&amp;"); break;
        case '<': g_string_append(g, "&lt;"); break;
        case '>': g_string_append(g, "&gt;"); break;
        case '"': g_string_append(g, "&quot;"); break;
        case '\'': g_string_append(g, "&apos;"); break;
        default:
            if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0xfffe || c == 0xffff)
                g_string_append(g, "\xef\xbf\xbd");
            else
                g_string_append_len(g, s, next - s);
        }
        s = next;
    }
}

static void xml_attr(GString *g, const char *name, const char *value)
{
    g_string_append_printf(g, " %s=\"", name);
    xml_text(g, value, strlen(value));
    g_string_append_c(g, '"');
}

/* one input: a test case, its failures */
static void testcase(GString *g, const struct job *j)
{
    g_string_append(g, "    <testcase");
    xml_attr(g, "name", j->path);
    xml_attr(g, "classname", "csumcheck");
    g_string_append(g, " time=\"0\"");
    if (j->error || (!j->junit_failures && !j->failed)) {
        g_string_append(g, j->error ? ">\n" : "/>\n");
        if (j->error) {
            g_string_append(g, "      <error");
            xml_attr(g, "message", j->error);
            xml_attr(g, "type", "input");
            g_string_append(g, "/>\n    </testcase>\n");
        }
        return;
    }
    g_string_append(g, ">\n");
    const char *p = j->junit ? j->junit->str : "";
    while (*p) {                   /* "FRAME\tMESSAGE\n" */
        const char *tab = strchr(p, '\t'), *nl = strchr(p, '\n');
        if (!tab || !nl || tab > nl)
            break;
        char *frame = g_strndup(p, (gsize)(tab - p));
        g_string_append_printf(g, "      <failure type=\"frame %s\" message=\"", frame);
        xml_text(g, tab + 1, (size_t)(nl - tab - 1));
        g_string_append(g, "\">frame ");
        g_string_append(g, frame);
        g_string_append(g, ": ");
        xml_text(g, tab + 1, (size_t)(nl - tab - 1));
        g_string_append(g, "</failure>\n");
        g_free(frame);
        p = nl + 1;
    }
    if (j->junit_failures > JUNIT_MAX_FAILURES)
        g_string_append_printf(g, "      <failure type=\"more\" message=\"%ju more frames fail "
                                  "(the first %d are above)\"/>\n",
                               (uintmax_t)(j->junit_failures - JUNIT_MAX_FAILURES),
                               JUNIT_MAX_FAILURES);
    if (j->failed)
        g_string_append(g, "      <error message=\"the file could not be read to its end (see "
                           "the run's standard error)\" type=\"input\"/>\n");
    g_string_append(g, "    </testcase>\n");
}

bool junit_write(const char *path, const struct job *jobs, unsigned njobs, double seconds,
                 char **err)
{
    unsigned failures = 0, errors = 0, tests = 0;
    for (unsigned i = 0; i < njobs; i++) {
        if (jobs[i].skipped)
            continue;
        tests++;
        failures += !jobs[i].error && jobs[i].junit_failures;
        errors += jobs[i].error || jobs[i].failed;
    }
    GString *g = g_string_new("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    g_string_append_printf(g, "<testsuites tests=\"%u\" failures=\"%u\" errors=\"%u\" "
                              "time=\"%.3f\">\n", tests, failures, errors, seconds);
    g_string_append_printf(g, "  <testsuite name=\"csumcheck\" tests=\"%u\" failures=\"%u\" "
                              "errors=\"%u\" skipped=\"0\" time=\"%.3f\">\n",
                           tests, failures, errors, seconds);
    for (unsigned i = 0; i < njobs; i++)
        if (!jobs[i].skipped)
            testcase(g, &jobs[i]);
    g_string_append(g, "  </testsuite>\n</testsuites>\n");
    GError *e = NULL;
    bool ok = g_file_set_contents(path, g->str, (gssize)g->len, &e);
    if (!ok) {
        *err = g_strdup(e->message);
        g_error_free(e);
    }
    g_string_free(g, TRUE);
    return ok;
}
