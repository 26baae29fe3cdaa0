/* SPDX-License-Identifier: MIT */
/* HTML text: what the user or the system wrote, made inert. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/html/html.h"

void html_text(struct strbuf *sb, const char *s)
{
	static const char special[] = "&<>\"'";
	static const char *const entity[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#39;" };
	const char *e;

	for (; *s; s++) {
		if ((e = strchr(special, *s)))
			strbuf_adds(sb, entity[e - special]);
		else if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' && *s != '\r')
			strbuf_addc(sb, '?');
		else if ((unsigned char)*s == 0x7f)
			strbuf_addc(sb, '?');
		else
			strbuf_addc(sb, *s);
	}
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
