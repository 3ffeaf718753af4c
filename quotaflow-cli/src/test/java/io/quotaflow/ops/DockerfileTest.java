package io.quotaflow.ops;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The images docker-compose.yml builds: the project's Java, the production jar by default, a non-root user, a health check. */
class DockerfileTest {

    private static final String DOCKERFILE = OpsFiles.text("Dockerfile");

    private static List<String> instructions(String name) {
        // continuation lines joined, comments dropped
        String joined = DOCKERFILE.replaceAll("\\\\\\n", " ");
        return joined.lines().map(String::strip).filter(l -> l.startsWith(name + " ")).toList();
    }

    @Test
    void shouldBuildAndRunOnTheProjectsJava() {
        Matcher release = Pattern.compile("<maven\\.compiler\\.release>(\\d+)<").matcher(OpsFiles.text("pom.xml"));
        assertThat(release.find()).isTrue();
        // stages built from an image (not from another stage): the build and the runtime
        List<String> images = instructions("FROM").stream().filter(f -> f.contains(":")).toList();
        assertThat(images).hasSize(2);
        assertThat(images).allSatisfy(f -> assertThat(f).containsPattern("eclipse-temurin[-:]" + release.group(1) + "(-jre)?( |$)"));
    }

    @Test
    void shouldShipTheProductionJarByDefaultAndTheDeveloperJarOnlyInTheDevTarget() {
        List<String> from = instructions("FROM");
        assertThat(from.get(from.size() - 1)).as("the default (last) stage").isEqualTo("FROM runtime AS production");
        String production = DOCKERFILE.substring(DOCKERFILE.indexOf("FROM runtime AS production"));
        assertThat(production).contains("COPY --from=build /src/quotaflow-cli/target/quotaflow.jar /opt/quotaflow/quotaflow.jar")
                .doesNotContain("quotaflow-dev.jar");
        assertThat(OpsFiles.text("quotaflow-cli/pom.xml")).contains("<outputFile>${project.build.directory}/quotaflow.jar</outputFile>");
        assertThat(OpsFiles.text("quotaflow-bench/pom.xml")).contains("<outputFile>${project.build.directory}/quotaflow-dev.jar</outputFile>");
        assertThat(instructions("COPY")).contains("COPY --from=build /src/quotaflow-bench/target/quotaflow-dev.jar /opt/quotaflow/quotaflow.jar");
        // mvn verify leaves the developer jar out (dev.jar.skip); the image and the launcher ask for it
        assertThat(OpsFiles.text("pom.xml")).contains("<dev.jar.skip>true</dev.jar.skip>");
        assertThat(instructions("RUN").stream().filter(r -> r.contains("mvn ")))
                .singleElement().asString().contains("-Ddev.jar.skip=false", "quotaflow-bench");
        assertThat(OpsFiles.text("quotaflow")).contains("-Ddev.jar.skip=false");
    }

    @Test
    void shouldRunAsANonRootUser() {
        assertThat(instructions("ENTRYPOINT")).containsExactly("ENTRYPOINT [\"java\", \"-jar\", \"/opt/quotaflow/quotaflow.jar\"]");
        List<String> users = instructions("USER");
        assertThat(users).hasSize(1);
        assertThat(users.get(0)).isNotIn("USER root", "USER 0");
        assertThat(DOCKERFILE.indexOf("USER ")).as("the user is set before the entry point")
                .isLessThan(DOCKERFILE.indexOf("ENTRYPOINT "));
        assertThat(DOCKERFILE).contains("useradd --system --uid 10001 " + users.get(0).substring("USER ".length()));
    }

    @Test
    void shouldSizeTheHeapFromTheContainersMemory() {
        assertThat(instructions("ENV")).as("a heap set from the memory limit, not the JVM's default quarter")
                .anyMatch(e -> e.startsWith("ENV JAVA_TOOL_OPTIONS=") && e.contains("-XX:MaxRAMPercentage="));
        assertThat(DOCKERFILE.indexOf("ENV JAVA_TOOL_OPTIONS=")).as("in the runtime stage, so both images have it")
                .isGreaterThan(DOCKERFILE.indexOf("AS runtime")).isLessThan(DOCKERFILE.indexOf("AS dev"));
    }

    @Test
    void shouldHaveAHealthCheckWithTheToolItNeeds() {
        List<String> checks = instructions("HEALTHCHECK");
        assertThat(checks).singleElement().asString().contains("CMD curl -fsS").contains("/health/live");
        assertThat(instructions("RUN")).anyMatch(r -> r.contains("apt-get install -y --no-install-recommends curl"));
        // every compose check that uses curl runs in this image
        for (String service : List.of("sim", "pipeline")) {
            String test = OpsFiles.service(service).path("healthcheck").path("test").toString();
            if (test.contains("curl")) {
                assertThat(OpsFiles.service(service).path("image").asText()).isIn("quotaflow:local", "quotaflow-dev:local");
            }
        }
    }
}
