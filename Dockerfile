# jigsolve in a container, for the Kubernetes and other cluster recipes of
# docs (docs/distributed.md, "Every core, many machines"). Two stages: the build, with
# the Rust toolchain, then a slim image with only the binary.
#
#   docker build -t jigsolve .
#   docker run --rm jigsolve solve impuzzable
#
# The binary links only the C library (glibc) and libgcc; both stages are
# Debian bookworm, so the one built runs on the other.

FROM rust:1-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked \
    && cp target/release/jigsolve /usr/local/bin/jigsolve

FROM debian:bookworm-slim
COPY --from=build /usr/local/bin/jigsolve /usr/local/bin/jigsolve
# Searches run as an ordinary user, writing results to a mounted /results.
RUN useradd --create-home --uid 10001 jigsolve \
    && mkdir /results && chown jigsolve /results
USER jigsolve
WORKDIR /results
ENTRYPOINT ["jigsolve"]
CMD ["--help"]
