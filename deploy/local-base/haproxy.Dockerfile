# The stand-in for the haproxy image, from Debian's package: the configuration where the
# official image reads it, /usr/local/etc/haproxy/haproxy.cfg, in the foreground.
FROM orch-local/debian:bookworm
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends haproxy \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /usr/local/etc/haproxy
ENTRYPOINT ["/usr/sbin/haproxy", "-W", "-db"]
CMD ["-f", "/usr/local/etc/haproxy/haproxy.cfg"]
