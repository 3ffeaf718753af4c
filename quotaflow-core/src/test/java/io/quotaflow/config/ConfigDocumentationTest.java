package io.quotaflow.config;

import io.quotaflow.testkit.RepositoryFiles;
import io.quotaflow.records.Priority;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.quotaflow.settings.Routing;

import static org.assertj.core.api.Assertions.assertThat;

/** The configuration reference's table (docs/configuration.md) is the one generated from the key table, and names every key. */
class ConfigDocumentationTest {

    @Test
    void shouldCarryTheTableGeneratedFromTheKeyTable() throws IOException {
        String section = configurationSection();

        assertThat(section)
                .as("docs/configuration.md's table is generated: paste ConfigKeys.markdownTable() into it")
                .contains(ConfigKeys.markdownTable());
    }

    @Test
    void shouldDocumentEveryKeyTheLoaderUnderstandsAndNoOther() throws IOException {
        Set<String> documented = new TreeSet<>();
        Pattern key = Pattern.compile("`([a-z][a-z0-9.\\-<>]+)`");
        for (String line : configurationSection().split("\n")) {
            if (line.startsWith("| `")) {
                Matcher m = key.matcher(line.split("\\|")[1]);
                while (m.find()) {
                    documented.add(m.group(1));
                }
            }
        }
        Set<String> understood = new TreeSet<>(ConfigLoader.DEFAULTS.keySet());
        understood.addAll(ConfigKeys.templates());
        assertThat(documented).containsExactlyInAnyOrderElementsOf(understood)
                .contains("route.<name>.rpm", "route.<name>.api-key-env", "routing.tenant.<tenant>", "cache.ttl");
    }

    @Test
    void shouldGiveEveryKeyAMeaningAndKeepFlagsUnique() {
        Set<String> flags = new TreeSet<>();
        for (String name : ConfigKeys.templates()) {
            assertThat(ConfigKeys.key(name).documentation).as(name).isNotBlank();
        }
        for (String name : ConfigKeys.names()) {
            assertThat(ConfigKeys.key(name).documentation).as(name).isNotBlank();
            ConfigKeys.flag(name).ifPresent(f -> assertThat(flags.add(f)).as(f + " names one key").isTrue());
        }
        assertThat(flags).contains("--bootstrap-servers", "--rpm", "--topics-prefix");
    }

    @Test
    void shouldLoadTheDocumentedRoutesExampleAsItIsWritten(@TempDir Path dir) throws IOException {
        String section = configurationSection();
        String routes = section.substring(section.indexOf("### Routes"));
        String example = routes.substring(routes.indexOf("```\n") + 4, routes.indexOf("```", routes.indexOf("```\n") + 4));
        Path groqKey = Files.writeString(dir.resolve("groq"), "gsk_readme_example_key_0001");
        Path file = Files.writeString(dir.resolve("routes.properties"), example.replace("/run/secrets/groq", groqKey.toString()));

        Routing routing = ConfigLoader.load(file, Map.of("OPENAI_API_KEY", "sk-readme-example-0002"),
                Map.of("bootstrap.servers", "b:9092")).dispatcher().routing();

        assertThat(routing.routes()).containsOnlyKeys("primary", "backup", "long");
        assertThat(routing.route("primary").orElseThrow().fallback()).containsExactly("backup");
        assertThat(routing.route("primary").orElseThrow().contextFallback()).isEqualTo("long");
        assertThat(routing.route("primary").orElseThrow().prices().configured()).isTrue();
        assertThat(routing.route("backup").orElseThrow().model().apiKey().reveal()).isEqualTo("gsk_readme_example_key_0001");
        assertThat(routing.route("long").orElseThrow().model().timeout()).as("from llm.timeout-ms").hasSeconds(30);
        assertThat(routing.routeFor(Priority.BULK, "acme").name()).isEqualTo("long");
        assertThat(routing.routeFor(Priority.BULK, "other").name()).isEqualTo("backup");
        assertThat(routing.routeFor(Priority.INTERACTIVE, "other").name()).isEqualTo("primary");
        assertThat(routing.scopes()).as("primary and long share a key but not a model").hasSize(3);
        assertThat(routing.cacheTtl()).hasHours(24);
    }

    /** The configuration reference, docs/configuration.md (the README links to it). */
    private static String configurationSection() throws IOException {
        return Files.readString(RepositoryFiles.path("docs/configuration.md"));
    }
}
