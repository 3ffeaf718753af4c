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

/** The README's configuration table and the keys the loader understands are the same set. */
class ConfigDocumentationTest {

    @Test
    void shouldDocumentEveryKeyTheLoaderUnderstandsAndNoOther() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        String section = readme.substring(readme.indexOf("## Configuration"), readme.indexOf("## How it works"));
        Set<String> documented = new TreeSet<>();
        Pattern key = Pattern.compile("`([a-z][a-z0-9.\\-]+)`");
        for (String line : section.split("\n")) {
            if (line.startsWith("| `")) {
                Matcher m = key.matcher(line.split("\\|")[1]);
                while (m.find()) {
                    documented.add(m.group(1));
                }
            }
        }
        assertThat(documented).containsExactlyInAnyOrderElementsOf(ConfigLoader.DEFAULTS.keySet());
    }
}
