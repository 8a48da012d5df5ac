/* Messages to the user: printed once per job, on rank 0 only. */
#ifndef HPD_CORE_LOG_H
#define HPD_CORE_LOG_H

/* Rank in MPI_COMM_WORLD, or the launcher's idea of it before MPI_Init. */
int hpd_world_rank(void);

/* "hpdaemon: warning: ..." on stderr, rank 0 only. */
void hpd_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
