#!/usr/bin/env bash
# Unpacks Debian's Open MPI and the libraries it loads into .mpi/root, for a GPU machine with no MPI and
# no package registry: pass .mpi along, then `source ci/mpi-env.sh` there (relocates Open MPI with
# OPAL_PREFIX and puts mpirun, the headers and the libraries on the paths).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
(cd "$tmp" && apt-get download openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libpmix2 libhwloc15 \
  libevent-core-2.1-7 libevent-pthreads-2.1-7 libevent-2.1-7 libfabric1 libibverbs1 ibverbs-providers librdmacm1 libucx0 \
  libpsm2-2 libpsm-infinipath1 libnuma1 libmunge2 libnl-3-200 libnl-route-3-200 libatomic1 libltdl7 >/dev/null)
rm -rf .mpi && mkdir -p .mpi
for deb in "$tmp"/*.deb; do dpkg -x "$deb" .mpi/root; done
rm -rf "$tmp" .mpi/root/usr/share/doc .mpi/root/usr/share/man
# Debian's mpirun is a chain of alternatives links into /etc: point it straight at orterun.
ln -sf orterun .mpi/root/usr/bin/mpirun
ln -sf orterun .mpi/root/usr/bin/mpiexec
echo "unpacked into .mpi/root ($(du -sh .mpi | cut -f1))"
