/* hpdaemon's own pdgemm and pdsyrk: check a call, then serve it or say why not. */
#ifndef HPD_PDGEMM_ENGINE_H
#define HPD_PDGEMM_ENGINE_H

#include "core/checked.h"
#include "hpdaemon.h"
#include "pblas/call.h"
#include "pblas/dispatch.h"
#include "pblas/grid.h"

/*
 * Serves a call checked by hpd_call_init or hpd_call_init_syrk (PBLAS semantics: sub(C)
 * := alpha*op(sub(A))*op(sub(B)) + beta*sub(C), restricted to the triangle call->uplo
 * for pdsyrk).  Returns HPD_SERVED_BY_ENGINE when done, else a hpd_fallback_reason, with
 * C untouched, for the caller to hand the call to the reference.  Every rank of the grid
 * returns the same verdict, so a fallback never leaves part of a grid in the engine.
 * grid is the call's grid where the caller has already looked it up, else NULL.
 */
HPD_CHECKED int hpd_engine_serve(const hpd_call *call, hpd_routine routine,
                                 const hpd_grid *grid);

/* Routes a call checked by hpd_call_init (or _syrk) and serves it where the route is the
 * engine or a local multiply.  Returns HPD_SERVED_BY_ENGINE, HPD_SERVED_DIRECT_LOCAL,
 * HPD_SERVED_DIRECT_REFERENCE (the caller then calls the reference), or the engine's
 * fallback reason. */
HPD_CHECKED int hpd_pdgemm_serve(const hpd_call *call, hpd_routine routine,
                                 hpd_dispatch_ticket *ticket);

#endif
