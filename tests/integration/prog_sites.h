/* prog_sites_io.c's writers (prog_sites_main.c). */
int write_body(int fd, const char *buf);
int write_text(const char *path, const char *buf);
