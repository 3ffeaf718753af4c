# quotaflow images, built with Maven on Java 17 and run on a Java 17 JRE as a non-root user.
#   docker build -t quotaflow .                     the production image (the default, last stage):
#                                                   run, check, topics, publish, cancel, results, status, dlq
#   docker build --target dev -t quotaflow-dev .    adds demo, bench, broker and sim (the developer
#                                                   distribution; docker-compose.yml runs sim from it)
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
RUN mvn -B -q -DskipTests -Dcheckstyle.skip -Ddev.jar.skip=false package -pl quotaflow-cli,quotaflow-bench -am

FROM eclipse-temurin:17-jre AS runtime
# curl for the health checks (newer base images no longer ship it)
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 quotaflow \
    && mkdir -p /var/lib/quotaflow && chown quotaflow /var/lib/quotaflow
USER quotaflow
ENV QUOTAFLOW_STATE_DIR=/var/lib/quotaflow
# the heap follows the container's memory limit (70 % of it; the rest is RocksDB (state.memory-mb, 128 MiB), metaspace,
# threads and buffers), and an OutOfMemoryError ends the JVM so that the container restarts;
# set JAVA_TOOL_OPTIONS to change them (docs/operations.md, "Kubernetes")
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=70 -XX:+ExitOnOutOfMemoryError"
EXPOSE 8080
# the pipeline's liveness (docker-compose.yml checks readiness, /health/ready, instead)
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=6 \
    CMD curl -fsS -o /dev/null "http://localhost:${QUOTAFLOW_HTTP_PORT:-8080}/health/live" || exit 1
ENTRYPOINT ["java", "-jar", "/opt/quotaflow/quotaflow.jar"]
CMD ["--help"]

FROM runtime AS dev
EXPOSE 8089
COPY --from=build /src/quotaflow-bench/target/quotaflow-dev.jar /opt/quotaflow/quotaflow.jar

FROM runtime AS production
COPY --from=build /src/quotaflow-cli/target/quotaflow.jar /opt/quotaflow/quotaflow.jar
