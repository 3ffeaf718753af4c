package io.quotaflow.ops;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The image docker-compose.yml builds: the project's Java, the shaded jar, a non-root user, a health check. */
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
        List<String> from = instructions("FROM");
        assertThat(from).hasSize(2);
        assertThat(from).allSatisfy(f -> assertThat(f).containsPattern("eclipse-temurin[-:]" + release.group(1) + "(-jre)?( |$)"));
    }

    @Test
    void shouldRunTheShadedJarAsANonRootUser() {
        Matcher jar = Pattern.compile("<outputFile>\\$\\{project\\.build\\.directory}/([^<]+)</outputFile>")
                .matcher(OpsFiles.text("pom.xml"));
        assertThat(jar.find()).isTrue();
        assertThat(instructions("COPY")).anyMatch(c -> c.equals("COPY --from=build /src/target/" + jar.group(1)
                + " /opt/quotaflow/quotaflow.jar"));
        assertThat(instructions("ENTRYPOINT")).containsExactly("ENTRYPOINT [\"java\", \"-jar\", \"/opt/quotaflow/quotaflow.jar\"]");
        List<String> users = instructions("USER");
        assertThat(users).hasSize(1);
        assertThat(users.get(0)).isNotIn("USER root", "USER 0");
        assertThat(DOCKERFILE.indexOf("USER ")).as("the user is set before the entry point")
                .isLessThan(DOCKERFILE.indexOf("ENTRYPOINT "));
        assertThat(DOCKERFILE).contains("useradd --system --uid 10001 " + users.get(0).substring("USER ".length()));
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
                assertThat(OpsFiles.service(service).path("image").asText()).isEqualTo("quotaflow:local");
            }
        }
    }
}
