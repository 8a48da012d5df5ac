/*
 * What the simulated MPI lacks and the reference ScaLAPACK needs.  BLACS asks
 * MPI_Type_match_size for the MPI type of its integers, which the simulator does not
 * implement; simulated/build-scalapack renames those calls to this function.
 */
#include <mpi.h>

int hpd_sim_type_match_size(int typeclass, int size, MPI_Datatype *type);

int hpd_sim_type_match_size(int typeclass, int size, MPI_Datatype *type)
{
  *type = MPI_DATATYPE_NULL;
  if (typeclass == MPI_TYPECLASS_INTEGER)
    *type = size == 1   ? MPI_SIGNED_CHAR
            : size == 2 ? MPI_SHORT
            : size == 4 ? MPI_INT
            : size == 8 ? MPI_LONG_LONG
                        : MPI_DATATYPE_NULL;
  else if (typeclass == MPI_TYPECLASS_REAL)
    *type = size == 4 ? MPI_FLOAT : size == 8 ? MPI_DOUBLE : MPI_DATATYPE_NULL;
  else if (typeclass == MPI_TYPECLASS_COMPLEX)
    *type = size == 8 ? MPI_C_FLOAT_COMPLEX : size == 16 ? MPI_C_DOUBLE_COMPLEX : MPI_DATATYPE_NULL;
  return *type == MPI_DATATYPE_NULL ? MPI_ERR_ARG : MPI_SUCCESS;
}
