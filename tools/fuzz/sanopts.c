/* sanopts.c: defaults for the sanitizer build, linked into every
 * executable of it.  A sanitizer report must never pass for one of our
 * own exit statuses (1 check found problems, 2 bad input), so reports
 * exit 86; leaks are errors. */
const char *__asan_default_options(void);
const char *__ubsan_default_options(void);

const char *
__asan_default_options(void)
{
	return "exitcode=86:detect_leaks=1:abort_on_error=0";
}

const char *
__ubsan_default_options(void)
{
	return "exitcode=86:print_stacktrace=1:halt_on_error=1";
}
