package io.quotaflow.config;

import io.quotaflow.records.Priority;
import io.quotaflow.settings.Keys;
import io.quotaflow.testkit.RepositoryFiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every configuration key's name is written once in the main sources, as a constant of {@link Keys}; everything
 * else names the key through it.
 */
class KeyLiteralsTest {

    /** Literals equal to a key's name that are not the key, by file path: {@code /status}'s JSON field {@code "routes"}. */
    private static final Set<String> NOT_KEYS = Set.of(
            "quotaflow-core/src/main/java/io/quotaflow/http/server/StatusPage.java:\"routes\"");

    @Test
    void shouldWriteNoKeyNameOutsideTheKeysConstants() throws IOException {
        Set<String> names = keyNames();
        List<String> found = new ArrayList<>();
        for (Path file : mainSources()) {
            String path = RepositoryFiles.root().relativize(file).toString().replace('\\', '/');
            if (file.getFileName().toString().equals("Keys.java")) {
                continue;
            }
            for (String literal : stringLiterals(Files.readString(file))) {
                if (names.contains(literal.substring(1, literal.length() - 1)) && !NOT_KEYS.contains(path + ":" + literal)) {
                    found.add(path + ": " + literal);
                }
            }
        }

        assertThat(found).as("name these keys through io.quotaflow.settings.Keys").isEmpty();
    }

    @Test
    void shouldDeclareAConstantForEveryKeyOfTheTable() {
        Set<String> named = constants();
        Set<String> families = named.stream().filter(n -> n.endsWith(".")).collect(Collectors.toSet());
        List<String> missing = ConfigKeys.names().stream()
                .filter(k -> !named.contains(k) && Arrays.stream(Priority.values()).noneMatch(p -> families.contains(
                        k.substring(0, k.length() - p.wireName().length())) && k.endsWith(p.wireName())))
                .toList();

        assertThat(missing).as("a key of the table without a constant (or per-priority family) in Keys").isEmpty();
    }

    @Test
    void shouldFindAKeyLiteralInCodeButNotInComments() {
        String source = """
                /** {@code "quota.rpm"} in a comment. */
                class A {
                    // "quota.tpm" in a line comment
                    String a = "quota.rpm"; /* "llm.model" */ char c = '"'; String b = "say \\"hi\\"";
                }
                """;

        assertThat(stringLiterals(source)).containsExactly("\"quota.rpm\"", "\"say \\\"hi\\\"\"");
    }

    private static Set<String> keyNames() {
        Set<String> names = new TreeSet<>(ConfigKeys.names());
        names.addAll(constants());
        return names;
    }

    private static Set<String> constants() {
        return Arrays.stream(Keys.class.getDeclaredFields())
                .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == String.class)
                .map(KeyLiteralsTest::value)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static String value(Field field) {
        try {
            return (String) field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Path> mainSources() throws IOException {
        try (Stream<Path> modules = Files.list(RepositoryFiles.root())) {
            return modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory)
                    .flatMap(KeyLiteralsTest::javaFiles).sorted().toList();
        }
    }

    private static Stream<Path> javaFiles(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(".java")).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The string literals of Java source, quotes included, outside comments and character literals (no text blocks). */
    static List<String> stringLiterals(String source) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < source.length()) {
            if (source.startsWith("//", i)) {
                int end = source.indexOf('\n', i);
                i = end < 0 ? source.length() : end;
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? source.length() : end + 2;
            } else if (source.startsWith("\"\"\"", i)) {
                i = source.indexOf("\"\"\"", i + 3) + 3;
            } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                int end = closing(source, i);
                if (source.charAt(i) == '"') {
                    out.add(source.substring(i, end + 1));
                }
                i = end + 1;
            } else {
                i++;
            }
        }
        return out;
    }

    private static int closing(String source, int open) {
        char quote = source.charAt(open);
        int j = open + 1;
        while (source.charAt(j) != quote) {
            j += source.charAt(j) == '\\' ? 2 : 1;
        }
        return j;
    }
}
