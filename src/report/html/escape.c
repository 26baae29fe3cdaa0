/* SPDX-License-Identifier: MIT */
/* HTML text: what the user or the system wrote, made inert. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/html/html.h"
#include "report/plot_svg.h"

/* The SVG plots' escaping: HTML5 takes the same entities (&apos;), and
 * the page holds the plots inline. */
void html_text(struct strbuf *sb, const char *s)
{
	svg_escape(sb, s);
}

void html_textf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	html_text(sb, s);
	free(s);
}

void html_kv(struct strbuf *sb, const char *k, const char *v)
{
	strbuf_adds(sb, "<tr data-key=\"");
	html_text(sb, k);
	strbuf_adds(sb, "\"><th>");
	html_text(sb, k);
	strbuf_adds(sb, "</th><td>");
	html_text(sb, v && *v ? v : "-");
	strbuf_adds(sb, "</td></tr>\n");
}
