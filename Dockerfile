# quotaflow image: builds the fat jar with Maven on Java 17, runs it on a Java 17 JRE as a
# non-root user. docker-compose.yml runs it as the topic set-up, the simulator and the pipeline.
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml .
RUN mvn -B -q dependency:go-offline
COPY src src
COPY topics topics
RUN mvn -B -q -DskipTests package

FROM eclipse-temurin:17-jre
# curl for the health checks (newer base images no longer ship it)
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 quotaflow \
    && mkdir -p /var/lib/quotaflow && chown quotaflow /var/lib/quotaflow
COPY --from=build /src/target/quotaflow.jar /opt/quotaflow/quotaflow.jar
USER quotaflow
ENV QUOTAFLOW_STATE_DIR=/var/lib/quotaflow
EXPOSE 8080 8089
# the pipeline's liveness (docker-compose.yml checks readiness, /health/ready, instead)
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=6 \
    CMD curl -fsS -o /dev/null "http://localhost:${QUOTAFLOW_HTTP_PORT:-8080}/health/live" || exit 1
ENTRYPOINT ["java", "-jar", "/opt/quotaflow/quotaflow.jar"]
CMD ["--help"]
