/* Messages to the user: a warning printed once per node, naming the rank and host. */
#ifndef HPD_CORE_LOG_H
#define HPD_CORE_LOG_H

/* Rank in MPI_COMM_WORLD, or the launcher's idea of it before MPI_Init. */
int hpd_world_rank(void);

/* "hpdaemon: warning: ... (rank R on HOST)" on stderr.  Of the ranks of one node that
 * raise the same warning (the same format, whatever its arguments), the first prints
 * it, and only that process prints it again: a warning on any rank reaches the user,
 * and one that every rank raises is said once per node, not once per rank. */
void hpd_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The same line, from rank 0 only: for a decision every rank took together, where rank
 * 0's account stands for all. */
void hpd_warn_job(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "hpdaemon: error: ... (rank R)" on stderr, then the job ends (MPI_Abort, or abort before
 * MPI_Init): for a failure past the point where the ranks could still agree on a safe
 * path together. */
void hpd_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
