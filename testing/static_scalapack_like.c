/* A stand-in for a program linked statically against ScaLAPACK: it defines pdgemm_
 * itself and loads no libscalapack, which is all the launcher can see of such a program.
 * The launcher must refuse it before it starts. */
#include <mpi.h>
#include <stdio.h>

void pdgemm_(void);
void pdgemm_(void)
{
  puts("the program's own pdgemm_");
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  pdgemm_();
  MPI_Finalize();
  return 0;
}
