#!/bin/sh
# Makes a man page from a program's --help, so the page and the help
# can never disagree.  "usage:" lines become the synopsis, paragraphs
# stay paragraphs, indented blocks (option lists) are kept as laid out.
# For a program with subcommands ('ptxpress'), each command listed
# under "commands:" gets a section from its own --help.
# usage: help2man.sh PROGRAM NAME "one-line summary" VERSION > NAME.1
set -eu
prog=$1 name=$2 summary=$3 version=$4
upper=$(printf '%s' "$name" | tr a-z A-Z)

# troff: escape backslashes; a line may not start with . or '
esc() { sed 's/\\/\\e/g; s/^\([.'"'"']\)/\\\&\1/; s/^-/\\-/; s/ -/ \\-/g'; }

body() { # help text on stdin -> troff
	awk '
	/^usage: / && !synop { print ".SH SYNOPSIS"; print ".nf"
		sub(/^usage: /, ""); print; synop = 1; inuse = 1; next }
	inuse && /^  / { print; next }
	inuse { print ".fi"; print ".SH DESCRIPTION"; inuse = 0 }
	/^usage: / { print ".PP"; print ".B Usage:"; print ".nf"
		sub(/^usage: /, ""); print; print ".fi"; next }
	/^$/ { if (pre) { print ".fi"; pre = 0 } print ".PP"; next }
	/^[ \t]/ { if (!pre) { print ".nf"; pre = 1 } print; next }
	{ if (pre) { print ".fi"; pre = 0 } print }
	END { if (pre || inuse) print ".fi" }'
}

printf '.TH %s 1 "" "%s %s" "User Commands"\n' "$upper" "$name" "$version"
printf '.SH NAME\n%s \\- %s\n' "$name" "$summary"
"$prog" --help | esc | body
cmds=$("$prog" --help | awk '/^commands:/ { c = 1; next }
	c && /^  [a-z]/ { print $1 } c && /^$/ { c = 0 }')
for c in $cmds; do
	printf '.SH "COMMAND: %s"\n' "$c"
	"$prog" "$c" --help 2>&1 | esc | sed 's/^\.SH SYNOPSIS$//' | body |
		sed 's/^\.SH SYNOPSIS$/.PP/; s/^\.SH DESCRIPTION$/.PP/'
done
printf '.SH "SEE ALSO"\nptxas(1), ptxpress(1), ptxpress\\-ptxas(1)\n'
