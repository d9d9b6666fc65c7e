# The stand-in for the nats image, from Debian's package: client port 4222, monitoring 8222,
# routes on 6222 when a cluster is configured.
FROM orch-local/debian:bookworm
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nats-server \
 && rm -rf /var/lib/apt/lists/*
EXPOSE 4222 6222 8222
ENTRYPOINT ["/usr/sbin/nats-server"]
CMD ["--port", "4222", "--http_port", "8222"]
