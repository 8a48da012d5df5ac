/*
 * The pipeline's chunk size.  HPD_CHUNK forces it.  Otherwise each channel settles one
 * chunk per size class (messages from 2^k to 2^(k+1)-1 bytes) at the first broadcast of
 * that class, and every rank must settle the same one or the chain deadlocks: a rank
 * posting 64 KiB receives never matches a parent sending 128 KiB chunks.  So the choice
 * is made at a point all ranks reach together, inside that first broadcast, and taken
 * from rank 0: rank 0 proposes what its table knows (tune_table.h) and broadcasts it;
 * when it knows nothing, all ranks time the candidates together, take the slowest rank's
 * time for each from one allreduce, and so pick the same one.
 */
#ifndef HPD_BCAST_TUNE_H
#define HPD_BCAST_TUNE_H

#include <stddef.h>
#include <stdint.h>

#include "bcast/bcast.h"
#include "bcast/channel.h"
#include "core/checked.h"

/* Candidates: 8 KiB, 16 KiB, ... 1 MiB, and the whole message as one chunk. */
#define HPD_TUNE_SMALLEST ((uint64_t)8 << 10)
#define HPD_TUNE_LARGEST ((uint64_t)1 << 20)
/* Under the sleep policy (rank 0's): 8 KiB to 512 KiB, and the whole message only when
 * it is no larger.  A piece of 1 MiB or more moves (here, in MPICH between processes of
 * one node) in several protocol steps, each needing both ranks to call into MPI; a rank
 * that slept through the start of the transfer then pays a wake-up per step, which the
 * candidates' timings, taken back to back, never show.  Smaller chunks complete in one
 * step, and on the measured curves (timing/README.md) cost nothing against larger ones. */
#define HPD_TUNE_SLEEP_LARGEST ((uint64_t)512 << 10)
/* Timed broadcasts per candidate at most (the fastest counts). */
#define HPD_TUNE_REPS 5
/* The candidates are timed in rounds (one broadcast each), as many as fit in this time
 * at the first round's (one at least): where a round is short, as in shared memory, five
 * cost little and settle close calls through the noise; where the messages are long for
 * their channel (a network link), one sample each is already far above the noise, and
 * four more rounds would make the first call of a size class pay for about 40 broadcasts
 * (0.3 s for 1 MiB on a 1 Gbit/s link, 15% of a 2 s call).  Between the two, the rounds
 * the time allows, not five or one; a call under a trial budget (bcast.h) takes fewer
 * where its budget covers fewer. */
#define HPD_TUNE_TRIALS_S 10e-3
/* Timings within HPD_TUNE_TOLERANCE of the fastest are a tie, won by the larger chunk. */
#define HPD_TUNE_TOLERANCE 0.05

/* The chunk of a size class not tuned yet, while tuning is held back (bcast.h,
 * hpd_bcast_how), not stored, so that the class is still tuned at its first
 * broadcast outside the hold: the chunk of the next longer class the channel has tuned
 * (chosen for this link on messages no shorter, and the same on every rank of the
 * channel), else, within one node, this middle candidate, and across hosts the largest
 * power of two from it up to HPD_TUNE_SLEEP_LARGEST that still cuts the message into at
 * least as many chunks as the channel has ranks.  Over a network each chunk pays a
 * handshake that needs both ends inside MPI, and a poll may be milliseconds away, so the
 * trials there settle on large chunks; a pipeline down a long chain still needs a chunk
 * per stage to fill. */
#define HPD_TUNE_PROVISIONAL ((uint64_t)64 << 10)

/*
 * The chunk for a pipelined broadcast of bytes (> 0) from root on ch, at most bytes, as
 * how allows (bcast.h): the provisional chunk while tuning is held; under a trial budget,
 * only the rounds the budget covers (one at least, else the provisional chunk again).
 * Collective over ch while a size class is not settled, unless HPD_CHUNK is set or the
 * message fits in the smallest candidate.  Timing the candidates broadcasts buf itself,
 * so that the message is then already delivered: *delivered is set to 1.
 *
 * A budget is how a call whose route is settled pays for its trials out of what the
 * engine saves it: the dispatch gives each line the engine's lead over the reference, so
 * that tuning never makes a call slower than the reference would be; a class whose
 * trials never fit keeps the chunk its calls were measured with.
 */
uint64_t hpd_tune_chunk(hpd_bcast_channel *ch, void *buf, const hpd_bcast_layout *layout,
                        int root, const hpd_bcast_how *how, int *delivered);

/* Where how->probe_rate is set, tuning is held or capped, and the size class of bytes has
 * neither a chunk nor a rate on ch, measures its rate: one broadcast of the provisional
 * chunk from rank 0 and, for a message no longer than HPD_TUNE_SLEEP_LARGEST, one of the
 * whole message, after an untimed one that touches the receivers' pages, at the slowest
 * rank's times.  The faster becomes the class's provisional chunk, a near tie going to the
 * whole message as in the trials: the two ends of what they choose between on a short
 * message, where a chain of a few large chunks and the whole message can differ by more
 * than the chunks between them.  Collective over ch when it measures.  A line with a
 * stream rate (bcast.h, hpd_bcast_set_stream_rate) is not probed: the links' probe timed
 * it with every line of its grid at once, which a broadcast down the whole line, under
 * every other line's probe, costs a 2-D call far more to time (a tenth to a fifth of
 * its first call on the engine), and without a class rate its hidden panels keep to the
 * chain or the tree, which beat the flat shape the probe's rate chose there. */
void hpd_tune_probe(hpd_bcast_channel *ch, size_t bytes, const hpd_bcast_how *how);

/* Rounds of candidate trials the last tuning on this rank ran (0: none yet). */
HPD_CHECKED int hpd_tune_rounds_last(void);

#endif
