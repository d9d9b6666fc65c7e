#!/usr/bin/env bash
# Installs what the suite needs and is missing, on a Debian machine with Node 20:
# etcd and nats-server from Debian's packages, the official Python client (python3-kubernetes,
# for the e2e tests), then the npm dependencies.
# Idempotent; prints nothing when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

have() {
  command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/usr/bin/$1" ]
}

if ! have etcd || ! have nats-server; then
  echo "ensure-deps: installing etcd-server and nats-server (apt-get)" >&2
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "ensure-deps: need root (or sudo) to run apt-get install etcd-server nats-server" >&2
      exit 1
    fi
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-deps: apt-get not found; install etcd (>= 3.4) and nats-server yourself" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq etcd-server nats-server >/dev/null
  # Debian starts a system-wide etcd on 2379 after install; the suite does not need it.
fi

# The official Python client for the e2e tests (e2e/src/python), for the system Python.
if ! /usr/bin/python3 -c 'import kubernetes' >/dev/null 2>&1; then
  echo "ensure-deps: installing python3-kubernetes (apt-get)" >&2
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "ensure-deps: need root (or sudo) to run apt-get install python3-kubernetes" >&2
      exit 1
    fi
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-deps: apt-get not found; install the kubernetes Python client yourself" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq python3-kubernetes >/dev/null
fi

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "ensure-deps: node and npm (Node 20 or later) are required" >&2
  exit 1
fi

if [ ! -d node_modules ] || [ ! -f node_modules/.package-lock.json ] ||
  [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "ensure-deps: npm ci" >&2
  npm ci --no-audit --no-fund
fi
