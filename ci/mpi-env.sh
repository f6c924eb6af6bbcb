# Source this on a machine that got .mpi from ci/unpack-mpi.sh: Open MPI relocated to .mpi/root.
mpi_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.mpi/root
export OPAL_PREFIX=$mpi_root/usr
export OPAL_SYSCONFDIR=$mpi_root/etc/openmpi
export OPAL_PKGDATADIR=$mpi_root/usr/share/openmpi
export PMIX_INSTALL_PREFIX=$mpi_root/usr/lib/x86_64-linux-gnu/pmix2
export PATH=$mpi_root/usr/bin:$PATH
export LD_LIBRARY_PATH=$mpi_root/usr/lib/x86_64-linux-gnu/openmpi/lib:$mpi_root/usr/lib/x86_64-linux-gnu:$mpi_root/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# For cmake's FindMPI: the headers and library, without the compiler wrapper (it would look in /usr).
export VMMCHECK_MPI_ARGS="-DMPI_CXX_ADDITIONAL_INCLUDE_DIRS=$mpi_root/usr/lib/x86_64-linux-gnu/openmpi/include -DMPI_CXX_LIB_NAMES=mpi -DMPI_mpi_LIBRARY=$mpi_root/usr/lib/x86_64-linux-gnu/openmpi/lib/libmpi.so -DMPI_CXX_COMPILER=NOTFOUND -DMPI_CXX_SKIP_MPICXX=ON -DMPIEXEC_EXECUTABLE=$mpi_root/usr/bin/mpirun"
export PMIX_MCA_mca_base_component_path=$mpi_root/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix  # not the machine's own PMIx plugins
