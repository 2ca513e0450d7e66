# The ChargeKit sandbox (Citcon UPI API, wallet, dashboard, signed IPNs) for Docker users.
# Stages as in Hummingbird's template: build on the Swift image, run on a slim one, as a
# non-root user, on port 8080. The layout is scripts/image.sh's (the tested path, which
# builds the same image without a Docker daemon; scripts/image-test.sh checks that this
# file's run-time settings are that image's):
#   docker build -t chargekit-sandbox .
#   docker run -p 8080:8080 -e CHARGEKIT_MERCHANT_KEY=sk_test_0123456789abcdef \
#       -e CHARGEKIT_PUBLIC_URL=http://localhost:8080 -v chargekit-data:/data chargekit-sandbox

# ================================
# Build image
# ================================
FROM swift:6.3.1-bookworm AS build
# FoundationNetworking (through CitconUPI) links libcurl.
RUN apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -q -y libcurl4-openssl-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /build
# The manifests first: the package graph resolves once per change of a manifest.
COPY Package.swift ./
COPY Tools/Package.swift Tools/
RUN swift package --package-path Tools resolve
COPY . .
# Every store engine (SQLite and PostgreSQL), the standard library linked in.
RUN swift build --package-path Tools -c release --traits PostgreSQL --product chargekit-server --static-swift-stdlib \
    && mkdir -p /staging \
    && cp "$(swift build --package-path Tools -c release --traits PostgreSQL --show-bin-path)/chargekit-server" /staging/ \
    && strip /staging/chargekit-server \
    && ln -s chargekit-server /staging/chargekit

# ================================
# Run image
# ================================
FROM debian:bookworm-slim
RUN apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -q -y ca-certificates libcurl4 \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --gid 10001 chargekit \
    && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /data --shell /sbin/nologin chargekit \
    && mkdir -m 0700 /data && chown 10001:10001 /data
COPY --from=build /staging/ /usr/local/bin/
USER 10001:10001
WORKDIR /data
ENV CHARGEKIT_SANDBOX_URL=http://127.0.0.1:8080
ENV CHARGEKIT_ALLOW_REMOTE_IPN=true
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s CMD ["/usr/local/bin/chargekit-server", "sandbox", "health"]
ENTRYPOINT ["/usr/local/bin/chargekit-server", "sandbox", "serve"]
CMD ["--host", "0.0.0.0", "--port", "8080", "--db", "/data/sandbox.sqlite"]
