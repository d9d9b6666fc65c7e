# The stand-in for quay.io/coreos/etcd, from Debian's packages.
FROM orch-local/debian:bookworm
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends etcd-server etcd-client \
 && rm -rf /var/lib/apt/lists/* \
 && ln -s /usr/bin/etcd /usr/local/bin/etcd \
 && ln -s /usr/bin/etcdctl /usr/local/bin/etcdctl
ENV ETCDCTL_API=3
EXPOSE 2379 2380
CMD ["/usr/local/bin/etcd"]
