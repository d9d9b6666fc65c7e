#!/bin/sh
# Stand-ins for the public base images deploy/Dockerfile and docker-compose.yml name, built from
# Debian's packages on a machine that cannot pull images (no registry reachable):
#
#   orch-local/node:20-bookworm-slim   Debian bookworm (debootstrap, minbase) with this machine's
#                                      own Node.js and npm, and the user `node` (uid 1000), as
#                                      the official node image has
#   orch-local/etcd:bookworm           Debian's etcd-server and etcd-client, etcd and etcdctl also
#                                      at /usr/local/bin as in quay.io/coreos/etcd
#   orch-local/nats:bookworm           Debian's nats-server, listening on 4222 with monitoring on
#                                      8222, as the official nats image's default configuration
#   orch-local/haproxy:bookworm        Debian's haproxy, reading /usr/local/etc/haproxy/haproxy.cfg
#                                      as the official haproxy image does
#
# Then: make images NODE_IMAGE=orch-local/node:20-bookworm-slim, and docker-compose with
# ETCD_IMAGE=orch-local/etcd:bookworm NATS_IMAGE=orch-local/nats:bookworm (and for
# deploy/compose/ha.yml HAPROXY_IMAGE=orch-local/haproxy:bookworm; docs/deploying.md).
# Needs root (debootstrap), a running Docker engine, and Debian's mirror. The root filesystem
# is kept in $ORCH_LOCAL_BASE_CACHE (default /var/cache/orch-local-base) for the next build.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${ORCH_LOCAL_BASE_CACHE:-/var/cache/orch-local-base}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
docker() { command "${DOCKER:-docker}" "$@"; }

if ! docker image inspect orch-local/debian:bookworm >/dev/null 2>&1; then
  if [ ! -x "$cache/rootfs/bin/sh" ]; then
    rm -rf "$cache/rootfs"
    mkdir -p "$cache"
    echo "debootstrap bookworm into $cache/rootfs"
    debootstrap --variant=minbase --include=ca-certificates bookworm "$cache/rootfs" "$mirror" >"$cache/debootstrap.log"
    chroot "$cache/rootfs" apt-get clean
    rm -rf "$cache/rootfs/var/lib/apt/lists/"*
  fi
  tar -C "$cache/rootfs" -c . | docker import - orch-local/debian:bookworm >/dev/null
fi

# Node.js and npm as this machine has them (the same runtime the tests use).
ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT
node=$(command -v node)
npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
cp "$(readlink -f "$node")" "$ctx/node"
cp -a "$npm_dir" "$ctx/npm"
cp "$here/node.Dockerfile" "$ctx/Dockerfile"
docker build -q -t orch-local/node:20-bookworm-slim "$ctx" >/dev/null
docker build -q -t orch-local/etcd:bookworm -f "$here/etcd.Dockerfile" "$here" >/dev/null
docker build -q -t orch-local/nats:bookworm -f "$here/nats.Dockerfile" "$here" >/dev/null
docker build -q -t orch-local/haproxy:bookworm -f "$here/haproxy.Dockerfile" "$here" >/dev/null
docker image ls --format '{{.Repository}}:{{.Tag}}\t{{.Size}}' | grep '^orch-local/'
