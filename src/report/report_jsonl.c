/* SPDX-License-Identifier: MIT */
/*
 * JSON lines: a JSON report made one line, for --status-interval's stream
 * of reports (a dashboard tails the file and reads each line as it comes).
 * The writer's layout is new lines and indents between members only (a
 * string's own new lines are escaped), so dropping them leaves the same
 * document.  Nothing else here.
 */
#include "report/report.h"

void report_json_line(struct strbuf *sb, size_t from)
{
	size_t r, w;

	for (r = w = from; r < sb->len; r++) {
		/* The document's last new line ends the line. */
		if (sb->buf[r] == '\n' && r + 1 < sb->len) {
			while (r + 1 < sb->len && sb->buf[r + 1] == ' ')
				r++;
			continue;
		}
		sb->buf[w++] = sb->buf[r];
	}
	sb->len = w;
	if (sb->buf)
		sb->buf[w] = '\0';
}
