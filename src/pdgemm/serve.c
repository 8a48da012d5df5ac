/* pdgemm's and pdsyrk's route and service (engine.h), as level3/serve.c is theirs. */
#include "core/stats.h"
#include "local/direct.h"
#include "pblas/dispatch.h"
#include "pdgemm/engine.h"

int hpd_pdgemm_serve(const hpd_call *call, hpd_routine routine, hpd_dispatch_ticket *ticket)
{
  hpd_route route =
      hpd_dispatch_route(call, routine, hpd_direct_is_local(call), HPD_TRIAL_AT_ONCE, ticket);
  switch (route) {
  case HPD_ROUTE_LOCAL:
    hpd_direct_local(call, &ticket->local);
    return HPD_SERVED_DIRECT_LOCAL;
  case HPD_ROUTE_REFERENCE:
    return HPD_SERVED_DIRECT_REFERENCE;
  case HPD_ROUTE_ENGINE:
  default: {
    hpd_dispatch_engine_begin(ticket);
    int verdict = hpd_engine_serve(call, routine, ticket->grid);
    hpd_dispatch_engine_done(ticket);
    return verdict;
  }
  }
}
