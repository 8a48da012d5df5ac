/*
 * The least time a call's panels take to reach the nodes that need them, on a grid whose
 * lines cross nodes: what no algorithm that broadcasts the panels can beat, the engine's
 * included, however it overlaps them with the multiply.
 *
 * Each node must take in one copy of every panel its processes need and no process on
 * it holds: along a process column, the panels of the column's share of the output
 * (the plan's col_bytes, predict.h, less the column's panels held on the node), and the
 * same along a row.  The rate a node's link takes them in is measured as the call's
 * broadcasts find it, with every line sending at once: each process sends half a
 * panel (link_floor.c) to the next process of its row and of its column, ring-wise,
 * and the slowest process's time for it, with what the node took in, gives the rate.
 * A process's share of its node's figures assumes the node holds a block of the grid's
 * rows and columns, as launchers place a grid's ranks in order; a line that stays on one
 * node costs nothing here.  The probe times a node's link under every line's traffic,
 * not one panel down a whole line, which measures the line's latency rather than the
 * stream its panels find (timing/notes/2026-12-06.md).  The lines within a node are
 * shifted before the others, for their stream rates alone.
 */
#ifndef HPD_PBLAS_LINK_FLOOR_H
#define HPD_PBLAS_LINK_FLOOR_H

#include "pblas/grid.h"
#include "pblas/predict.h"

/* The grid's floor for the plan's panels in seconds, the same on every rank: 0 where no
 * line crosses nodes or the probe could not be made.  Each line that crosses nodes keeps
 * the probe's rate as its stream rate (hpd_bcast_set_stream_rate): the slowest
 * process's message time, less latency, over the message; where both of a process's
 * lines cross, both messages share that time and each line's rate reads low.
 * Collective over the grid, counted as tuning (core/costs.h); nothing is sent on one
 * node. */
double hpd_link_floor_s(const hpd_reference_plan *plan, const hpd_grid *grid);

#endif
