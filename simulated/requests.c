/*
 * Polls of requests under the simulator (src/bcast/request.h).  The simulator keeps every
 * request that MPI_Test or MPI_Testany completes on the rank's list of activities, which
 * each later computation walks to the end: the thousands of chunks a broadcast receives
 * made every charged kernel dearer than the rest of the simulation (a 1x8 multiply of
 * order 4096 took 43 s of simulator time, 9 s without them).  A request that MPI_Waitany
 * completes leaves the list.  So a poll here is an MPI_Waitany over the request and a
 * tick, an empty message to the rank itself that arrives at once: the request when it is
 * complete already (MPI_Waitany takes the first complete one in order), else the tick.
 * A tick that was not used stays armed for the next poll.
 */
#include <mpi.h>

int hpd_sim_request_done(MPI_Request *request);
int hpd_sim_request_any_done(int count, MPI_Request *requests, int *index);
int hpd_sim_request_any_of(int count, MPI_Request *requests);
int hpd_sim_testall(int count, MPI_Request *requests, int *flag, MPI_Status *statuses);

enum { TICK_TAG = 1, MOST = 64 };

static MPI_Comm self = MPI_COMM_NULL;
static MPI_Request tick = MPI_REQUEST_NULL;

static void arm(void)
{
  if (tick != MPI_REQUEST_NULL)
    return;
  if (self == MPI_COMM_NULL)
    MPI_Comm_dup(MPI_COMM_SELF, &self);
  MPI_Request sent;
  MPI_Irecv(NULL, 0, MPI_BYTE, 0, TICK_TAG, self, &tick);
  MPI_Isend(NULL, 0, MPI_BYTE, 0, TICK_TAG, self, &sent);
  MPI_Wait(&sent, MPI_STATUS_IGNORE);
}

/* MPI_Testany's answer for up to MOST requests at a time. */
static int any_done(int count, MPI_Request *requests, int *index)
{
  MPI_Request both[MOST + 1];
  int live = 0;
  for (int i = 0; i < count; i++) {
    both[i] = requests[i];
    live += requests[i] != MPI_REQUEST_NULL;
  }
  *index = MPI_UNDEFINED;
  if (live == 0)
    return 1;
  arm();
  both[count] = tick;
  int which;
  MPI_Waitany(count + 1, both, &which, MPI_STATUS_IGNORE);
  for (int i = 0; i < count; i++)
    requests[i] = both[i];
  tick = both[count];
  if (which == count)
    return 0;
  *index = which;
  return 1;
}

int hpd_sim_request_any_done(int count, MPI_Request *requests, int *index)
{
  int flag = 1;
  *index = MPI_UNDEFINED;
  for (int first = 0; first < count; first += MOST) {
    int n = count - first < MOST ? count - first : MOST, at;
    int done = any_done(n, requests + first, &at);
    if (done && at != MPI_UNDEFINED) {
      *index = first + at;
      return 1;
    }
    flag &= done;
  }
  return flag;
}

int hpd_sim_request_any_of(int count, MPI_Request *requests)
{
  arm();
  requests[count] = tick;
  int which;
  MPI_Waitany(count + 1, requests, &which, MPI_STATUS_IGNORE);
  tick = requests[count];
  return which == count || which == MPI_UNDEFINED ? -1 : which;
}

int hpd_sim_request_done(MPI_Request *request)
{
  int index;
  return any_done(1, request, &index);
}

/* BLACS's MPI_Testall (simulated/build-scalapack renames its calls to this): each request
 * found complete is finished and nulled at once, even where others are not complete yet,
 * which MPI_Testall would leave alone; BLACS only tests its buffers' sends again until all
 * are done, and reads no status. */
int hpd_sim_testall(int count, MPI_Request *requests, int *flag, MPI_Status *statuses)
{
  (void)statuses;
  *flag = 1;
  for (int i = 0; i < count; i++)
    if (requests[i] != MPI_REQUEST_NULL && !hpd_sim_request_done(&requests[i]))
      *flag = 0;
  return MPI_SUCCESS;
}
