package io.quotaflow.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's configuration table is the one generated from the key table, and names every key. */
class ConfigDocumentationTest {

    @Test
    void shouldCarryTheTableGeneratedFromTheKeyTable() throws IOException {
        String section = configurationSection();

        assertThat(section)
                .as("README.md's configuration table is generated: paste ConfigKeys.markdownTable() into it")
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

    private static String configurationSection() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        return readme.substring(readme.indexOf("## Configuration"), readme.indexOf("## How it works"));
    }
}
