/* SPDX-License-Identifier: MIT */
/*
 * The HTML report's stylesheet: system fonts only, tables that scroll
 * sideways on a phone instead of widening the page, plots that shrink to
 * the screen, and a print layout (no scroll boxes, no page break inside a
 * table or a plot, the <details> open where the browser has
 * ::details-content, as Chromium has).
 */
#include "report/html/html.h"

const char html_style[] =
	":root{color-scheme:light}\n"
	"body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;"
	"max-width:1100px;padding:0 12px 24px;color:#1b1b1b;background:#fff;line-height:1.4}\n"
	"h1{font-size:1.5em;margin:16px 0 4px}\n"
	"h2{font-size:1.2em;border-bottom:2px solid #2a6099;padding-bottom:2px;margin-top:28px}\n"
	"h3{font-size:1.05em;margin:18px 0 6px}\n"
	".sub{color:#555;margin:0 0 12px}\n"
	"nav{margin:10px 0;font-size:.9em;line-height:1.8}\n"
	"a,details summary{color:#2a6099}\n"
	".scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%}\n"
	"table{border-collapse:collapse;font-size:.9em;margin:4px 0 10px}\n"
	"th,td{border:1px solid #c8c8c8;padding:3px 7px;vertical-align:top}\n"
	"th{background:#eef2f7;text-align:left;font-weight:600}\n"
	"table.kv th{white-space:nowrap}\n"
	"table.num td{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}\n"
	"table.num td.name,table.num th{text-align:left}\n"
	"tr.total td{font-weight:600;background:#f7f7f7}\n"
	"pre{background:#f6f8fa;border:1px solid #ddd;padding:8px;overflow-x:auto;font-size:.85em;"
	"white-space:pre}\n"
	"code,pre{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace}\n"
	".plots{display:flex;flex-wrap:wrap;gap:8px}\n"
	".plot{flex:0 1 480px;max-width:100%}\n"
	".plot svg{max-width:100%;height:auto;display:block}\n"
	".warn{color:#9a3b00;font-weight:600}\n"
	"details summary{cursor:pointer}\n"
	"@media (max-width:600px){body{padding:0 6px 16px}table{font-size:.8em}}\n"
	"@media print{body{max-width:none;padding:0}.scroll{overflow:visible}"
	"pre{white-space:pre-wrap;overflow:visible}h2{break-after:avoid}"
	"table,.plot,svg{break-inside:avoid}"
	"details::details-content{content-visibility:visible;display:block}"
	"details summary{color:#000}nav{display:none}a{color:#000;text-decoration:none}}\n";
