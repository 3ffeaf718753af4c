# quotaflow image: builds the fat jar with Maven, runs it on a JRE.
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml .
RUN mvn -B -q dependency:go-offline
COPY src src
COPY topics topics
RUN mvn -B -q -DskipTests package

FROM eclipse-temurin:17-jre
RUN useradd --system --uid 10001 quotaflow && mkdir -p /var/lib/quotaflow && chown quotaflow /var/lib/quotaflow
COPY --from=build /src/target/quotaflow.jar /opt/quotaflow/quotaflow.jar
USER quotaflow
ENV QUOTAFLOW_STATE_DIR=/var/lib/quotaflow
EXPOSE 8080 8089
ENTRYPOINT ["java", "-jar", "/opt/quotaflow/quotaflow.jar"]
CMD ["--help"]
