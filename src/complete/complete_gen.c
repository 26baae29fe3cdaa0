/* SPDX-License-Identifier: MIT */
/*
 * iogauge_complete_gen: run at build time, prints bash's completion for
 * iogauge from this build's tables (the flags, every job option with its
 * values, the engines).  Not part of iogauge itself: CMake installs what
 * it prints as share/bash-completion/completions/iogauge.
 */
#include <stdio.h>
#include <string.h>

#include "engines/engine.h"
#include "jobfile/cli.h"
#include "jobfile/options.h"

/* The flags that stand alone; every other takes a value (--flag=VALUE). */
static const char *const bare_flags[] = {
	"help",	      "version",	"help-options",	 "parse-only",
	"clock-info", "list-engines",	"minimal",	 "readonly",
	"showcmd",    "warnings-fatal", "bandwidth-log", "merge-blktrace-only",
	"summary",    "cmdhelp",	"crctest",
};

/* fio's benchmarks for --profile (profiles.c), --terse-version's numbers. */
static const char *const profile_names = "tiobench act";
static const char *const terse_versions = "2 3 4 5";

static bool is_bare_flag(const char *name)
{
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(bare_flags); i++)
		if (!strcmp(name, bare_flags[i]))
			return true;
	return false;
}

static void print_engines(void)
{
	const struct engine_ops *e;
	unsigned i;

	for (i = 0; (e = engine_at(i)); i++)
		printf("%s%s", i ? " " : "", e->name);
}

/* The words after "--": flags and job options, a trailing "=" on those
 * that take a value (a bare-capable option is offered both ways). */
static void print_words(void)
{
	const char *const *flags;
	unsigned n, i;

	flags = cli_flag_names(&n);
	printf("_iogauge_words='");
	for (i = 0; i < n; i++)
		printf("--%s%s ", flags[i], is_bare_flag(flags[i]) ? "" : "=");
	for (i = 0; i < opt_rows(); i++) {
		const struct opt_def *o = opt_at(i);
		const char *names[2] = { o->name, o->alias };
		unsigned k;

		for (k = 0; k < 2 && names[k]; k++) {
			printf("--%s= ", names[k]);
			if (o->flags & OPTF_BARE)
				printf("--%s ", names[k]);
		}
	}
	printf("'\n");
}

/* _iogauge_values NAME: the values option or flag NAME takes, if listed. */
static void print_values(void)
{
	const char *const *v;
	unsigned n, i, k;

	printf("_iogauge_values()\n{\n\tcase $1 in\n");
	for (i = 0; i < opt_rows(); i++) {
		const struct opt_def *o = opt_at(i);

		if (!o->enums && o->kind != &opt_kind_bool && o->kind != &opt_kind_engine)
			continue;
		printf("\t%s%s%s) echo '", o->name, o->alias ? "|" : "", o->alias ? o->alias : "");
		if (o->kind == &opt_kind_engine)
			print_engines();
		else if (!o->enums)
			printf("0 1");
		for (k = 0; o->enums && o->enums[k].name; k++)
			printf("%s%s", k ? " " : "", o->enums[k].name);
		printf("' ;;\n");
	}
	for (i = 0; i < 3; i++) {
		const char *flag = i == 0 ? "output-format" : i == 1 ? "eta" : "idle-prof";

		v = cli_flag_values(flag, &n);
		printf("\t-%s) echo '", flag);
		for (k = 0; k < n; k++)
			printf("%s%s", k ? " " : "", v[k]);
		printf("' ;;\n");
	}
	printf("\t-enghelp) echo '");
	print_engines();
	printf("' ;;\n");
	printf("\t-profile) echo '%s' ;;\n", profile_names);
	printf("\t-terse-version) echo '%s' ;;\n", terse_versions);
	printf("\t*) return 1 ;;\n\tesac\n}\n\n");
}

/* The part that does not depend on the tables. */
static const char script[] =
	"# The job sections of the job files named on the line so far.\n"
	"_iogauge_sections()\n"
	"{\n"
	"\tlocal w\n"
	"\tfor w in \"$@\"; do\n"
	"\t\t[[ $w != -* && -f $w && -r $w ]] || continue\n"
	"\t\tsed -n 's/^[[:space:]]*\\[\\([^]]*\\)\\].*/\\1/p' -- \"$w\" 2>/dev/null |\n"
	"\t\t\tgrep -v '^global'\n"
	"\tdone\n"
	"}\n"
	"\n"
	"_iogauge()\n"
	"{\n"
	"\t# The whole word under the cursor, \"=\" included; bash's own word\n"
	"\t# (COMP_WORDS) stops at \"=\" when COMP_WORDBREAKS holds it.\n"
	"\tlocal line=${COMP_LINE:0:COMP_POINT}\n"
	"\tlocal -a w\n"
	"\tread -r -a w <<<\"$line\"\n"
	"\tlocal cur=\"\" prev=\"\" n=${#w[@]}\n"
	"\tif [[ $line == *[[:space:]] ]]; then\n"
	"\t\tprev=${w[n - 1]}\n"
	"\telse\n"
	"\t\tcur=${w[n - 1]}\n"
	"\t\t((n > 1)) && prev=${w[n - 2]}\n"
	"\t\tn=$((n - 1))\n"
	"\tfi\n"
	"\tlocal strip=\"\" c v key list\n"
	"\t[[ $cur == *=* && $COMP_WORDBREAKS == *=* ]] && strip=${cur%=*}=\n"
	"\tCOMPREPLY=()\n"
	"\tif ((n == 2)) && [[ ${w[1]} == recipe && $prev == recipe ]]; then\n"
	"\t\tCOMPREPLY=($(compgen -W \"$(\"${w[0]}\" recipes --names 2>/dev/null)\" -- \"$cur\"))\n"
	"\t\treturn 0\n"
	"\tfi\n"
	"\tif [[ $prev == --set ]]; then\n"
	"\t\tif [[ $cur == *=* ]]; then\n"
	"\t\t\tkey=${cur%%=*}\n"
	"\t\t\tlist=$(_iogauge_values \"$key\") || return 0\n"
	"\t\t\tfor v in $list; do [[ $key=$v == \"$cur\"* ]] && COMPREPLY+=(\"$key=$v\"); done\n"
	"\t\telse\n"
	"\t\t\tfor c in $_iogauge_words; do\n"
	"\t\t\t\t[[ $c == --*=* && ${c#--} == \"$cur\"* ]] && COMPREPLY+=(\"${c#--}\")\n"
	"\t\t\tdone\n"
	"\t\t\tcompopt -o nospace 2>/dev/null\n"
	"\t\tfi\n"
	"\telif [[ $prev == --section ]]; then\n"
	"\t\tCOMPREPLY=($(compgen -W \"$(_iogauge_sections \"${w[@]}\")\" -- \"$cur\"))\n"
	"\telif [[ $cur == --*=* ]]; then\n"
	"\t\tkey=${cur%%=*}\n"
	"\t\tkey=${key#--}\n"
	"\t\tcase $key in\n"
	"\t\tsection) list=$(_iogauge_sections \"${w[@]}\") ;;\n"
	"\t\toutput-format | eta | idle-prof | enghelp | profile | terse-version)\n"
	"\t\t\tlist=$(_iogauge_values \"-$key\") ;;\n"
	"\t\tcmdhelp) list=$(for c in $_iogauge_words; do\n"
	"\t\t\t[[ $c == --*=* ]] && c=${c%=} && echo \"${c#--}\"; done) ;;\n"
	"\t\t*) list=$(_iogauge_values \"$key\") || {\n"
	"\t\t\tCOMPREPLY=($(compgen -f -- \"${cur#*=}\"))\n"
	"\t\t\t[[ -z $strip ]] && COMPREPLY=(\"${COMPREPLY[@]/#/${cur%%=*}=}\")\n"
	"\t\t\treturn 0\n"
	"\t\t} ;;\n"
	"\t\tesac\n"
	"\t\tfor v in $list; do\n"
	"\t\t\t[[ --$key=$v == \"$cur\"* ]] && COMPREPLY+=(\"--$key=$v\")\n"
	"\t\tdone\n"
	"\telif [[ $cur == -* ]]; then\n"
	"\t\tfor c in $_iogauge_words; do\n"
	"\t\t\t[[ $c == \"$cur\"* ]] && COMPREPLY+=(\"$c\")\n"
	"\t\tdone\n"
	"\t\t[[ ${COMPREPLY[*]} == *= ]] && compopt -o nospace 2>/dev/null\n"
	"\telse\n"
	"\t\t# Job files, and in first place a subcommand.\n"
	"\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	"\t\t((n == 1)) && COMPREPLY+=($(compgen -W 'sqlio compare sweep slo pts crash witness recipe recipes' -- \"$cur\"))\n"
	"\t\tcompopt -o filenames 2>/dev/null\n"
	"\tfi\n"
	"\tif [[ -n $strip ]]; then\n"
	"\t\tCOMPREPLY=(\"${COMPREPLY[@]#\"$strip\"}\")\n"
	"\tfi\n"
	"\treturn 0\n"
	"}\n"
	"complete -F _iogauge iogauge\n";

int main(void)
{
	printf("# bash completion for iogauge, written at build time by\n"
	       "# iogauge_complete_gen (src/complete/) from this build's option\n"
	       "# table, flags and engines: do not edit.\n\n");
	print_words();
	printf("\n");
	print_values();
	fputs(script, stdout);
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
