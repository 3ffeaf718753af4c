package io.quotaflow.ops;

import io.quotaflow.testkit.RepositoryFiles;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The deployment files at the repository root (docker-compose.yml, Dockerfile, ops/, docs/operations.md,
 * pom.xml), read for the tests that stand in for a Docker engine.
 */
final class OpsFiles {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();
    /** {@code ${VAR}}, {@code ${VAR:-default}}, {@code ${VAR-default}}, {@code ${VAR:?error}}: the name and the default. */
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-?+]([^}]*))?}");

    /** The repository root: Maven runs tests in the project's base directory. */
    static final Path ROOT = RepositoryFiles.root();

    private OpsFiles() {
    }

    static Path path(String relative) {
        return ROOT.resolve(relative);
    }

    static String text(String relative) {
        try {
            return Files.readString(path(relative), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode yaml(String relative) {
        try {
            return YAML.readTree(path(relative).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("not valid YAML: " + relative, e);
        }
    }

    static JsonNode json(String relative) {
        try {
            return JSON.readTree(path(relative).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("not valid JSON: " + relative, e);
        }
    }

    static JsonNode compose() {
        return yaml("docker-compose.yml");
    }

    static JsonNode service(String name) {
        JsonNode service = compose().path("services").path(name);
        assertThat(service.isObject()).as("service %s in docker-compose.yml", name).isTrue();
        return service;
    }

    /** The variables a text interpolates, in order, each with its default (null when none). */
    static List<String[]> variables(String text) {
        List<String[]> out = new ArrayList<>();
        Matcher m = VARIABLE.matcher(text);
        while (m.find()) {
            out.add(new String[] {m.group(1), m.group(2)});
        }
        return out;
    }

    /** {@code ${VAR:-default}} → {@code default}; any other text as it is. */
    static String withDefaults(String text) {
        return VARIABLE.matcher(text).replaceAll(r -> Matcher.quoteReplacement(r.group(2) == null ? "" : r.group(2)));
    }

    /** {@code <kafka.version>} of pom.xml: the Kafka clients' version. */
    static String kafkaVersion() {
        Matcher m = Pattern.compile("<kafka\\.version>([^<]+)</kafka\\.version>").matcher(text("pom.xml"));
        assertThat(m.find()).as("kafka.version in pom.xml").isTrue();
        return m.group(1).strip();
    }

    /**
     * The seconds {@code quotaflow run} gives the streams to close on SIGTERM, read from RunCommand
     * (the compose stop grace must exceed it).
     */
    static long pipelineCloseTimeoutSeconds() {
        Matcher m = Pattern.compile("CLOSE_TIMEOUT = Duration\\.ofSeconds\\((\\d+)\\)")
                .matcher(text("quotaflow-cli/src/main/java/io/quotaflow/cli/RunCommand.java"));
        assertThat(m.find()).as("RunCommand closes the pipeline within CLOSE_TIMEOUT = Duration.ofSeconds(N); update this test if that moved")
                .isTrue();
        return Long.parseLong(m.group(1));
    }

    /** The operations guide's subsection under {@code heading} (a {@code ###} line), up to the next heading of any level. */
    static String operationsSection(String heading) {
        String readme = text("docs/operations.md");
        int start = readme.indexOf("\n### " + heading + "\n");
        assertThat(start).as("docs/operations.md has a section '### %s'", heading).isNotNegative();
        int end = readme.length();
        Matcher next = Pattern.compile("\n#{1,3} ").matcher(readme);
        if (next.find(start + 1)) {
            end = next.start();
        }
        return readme.substring(start, end);
    }
}
