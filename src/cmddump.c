int cmddump(int c, char **v) { (void)c; (void)v; return 2; }
